// SPDX-License-Identifier: Apache-2.0
// The nonholonomic systems through the shared conformance harness (host-tests/support/
// conformance.hpp), sampled on their constraint sets (and, with a rotation, on SO(n)).
#include <cmath>
#include <random>

#include "attractor/systems/chaplygin_sleigh.hpp"
#include "attractor/systems/heisenberg.hpp"
#include "attractor/systems/knife_edge.hpp"
#include "attractor/systems/nonholonomic_oscillator.hpp"
#include "attractor/systems/roller_racer.hpp"
#include "attractor/systems/rolling_disk.hpp"
#include "attractor/systems/snakeboard_driven.hpp"
#include "attractor/systems/suslov.hpp"
#include "conformance.hpp"
#include "nonholonomic_checks.hpp"

namespace attractor::test {

template <class S>
struct Conformance<Suslov<S>> : ConformanceDefaults {
  static Suslov<S> make(std::mt19937&) {
    SuslovParams<S> p;
    p.constraint = Vec3<S>(S(0.4), S(-1), S(0.7));
    return Suslov<S>::make(p).value();
  }
  static Vec<double, 12> sample(std::mt19937& rng, const Suslov<S>& sys) {
    const Mat3<double> I = sys.model().I.template cast<double>();
    const Vec3<double> e = sys.model().e.template cast<double>();
    Vec3<double> Pi = random_vector<double, 3>(rng);
    Pi -= (Pi.dot(e) / e.dot(I * e)) * (I * e);
    return Suslov<double>::state(random_rotation<double>(rng), Pi);
  }
};

template <class S>
struct Conformance<KnifeEdge<S>> : ConformanceDefaults {
  static KnifeEdge<S> make(std::mt19937&) { return KnifeEdge<S>::make().value(); }
  static Vec<double, 6> sample(std::mt19937& rng, const KnifeEdge<S>&) {
    return cotangent_on_constraint(KnifeEdge<double>::make().value(), rng);
  }
};

template <class S>
struct Conformance<NonholonomicOscillator<S>> : ConformanceDefaults {
  static NonholonomicOscillator<S> make(std::mt19937&) { return NonholonomicOscillator<S>::make().value(); }
  static Vec<double, 6> sample(std::mt19937& rng, const NonholonomicOscillator<S>&) {
    return cotangent_on_constraint(NonholonomicOscillator<double>::make().value(), rng);
  }
};

template <class S>
struct Conformance<ChaplyginSleigh<S>> : ConformanceDefaults {
  static ChaplyginSleigh<S> make(std::mt19937&) { return ChaplyginSleigh<S>::make().value(); }
  static Vec<double, 9> sample(std::mt19937& rng, const ChaplyginSleigh<S>&) {
    const ChaplyginSleighParams<double> p;
    Vec3<double> Pi = random_vector<double, 3>(rng);
    Pi[2] = p.mass * p.offset * Pi[0] / (p.inertia + p.mass * p.offset * p.offset);
    const Vec3<double> pose = random_vector<double, 3>(rng, 3.0);
    return ChaplyginSleigh<double>::state(pose[0], pose[1], pose[2], Pi);
  }
};

template <class S>
struct Conformance<ChaplyginSleigh<S, false>> : ConformanceDefaults {
  static ChaplyginSleigh<S, false> make(std::mt19937&) { return ChaplyginSleigh<S, false>::make().value(); }
  static Vec<double, 3> sample(std::mt19937& rng, const ChaplyginSleigh<S, false>&) {
    const ChaplyginSleighParams<double> p;
    Vec3<double> Pi = random_vector<double, 3>(rng);
    Pi[2] = p.mass * p.offset * Pi[0] / (p.inertia + p.mass * p.offset * p.offset);
    return Pi;
  }
};

// The energy row h (H) instead of h̃ (H̃): the other branch of the adapters' fused gradients.
template <class S>
struct Conformance<Suslov<S, EnergyRow::original>> : ConformanceDefaults {
  static Suslov<S, EnergyRow::original> make(std::mt19937& rng) {
    return Suslov<S, EnergyRow::original>(Conformance<Suslov<S>>::make(rng).model());
  }
  static Vec<double, 12> sample(std::mt19937& rng, const Suslov<S, EnergyRow::original>& sys) {
    return Conformance<Suslov<S>>::sample(rng, Suslov<S>(sys.model()));
  }
};

template <class S>
struct Conformance<KnifeEdge<S, EnergyRow::original>> : ConformanceDefaults {
  static KnifeEdge<S, EnergyRow::original> make(std::mt19937&) {
    return KnifeEdge<S, EnergyRow::original>::make().value();
  }
  static Vec<double, 6> sample(std::mt19937& rng, const KnifeEdge<S, EnergyRow::original>&) {
    return cotangent_on_constraint(KnifeEdge<double>::make().value(), rng);
  }
};

template <class S>
struct Conformance<RollingDisk<S>> : ConformanceDefaults {
  static RollingDisk<S> make(std::mt19937&) { return RollingDisk<S>::make().value(); }
  static Vec<double, 11> sample(std::mt19937& rng, const RollingDisk<S>&) {
    const Vec<double, 4> r = random_vector<double, 4>(rng), pose = random_vector<double, 4>(rng, 3.0);
    const auto Pi = RollingDisk<double>::on_constraint(RollingDiskParams<double>{}, r[0], r[1]);
    return RollingDisk<double>::state(pose[0], pose[1], pose[2], pose[3], Pi);
  }
};

template <class S>
struct Conformance<RollerRacer<S>> : ConformanceDefaults {
  static RollerRacer<S> make(std::mt19937&) { return RollerRacer<S>::make().value(); }
  static Vec<double, 11> sample(std::mt19937& rng, const RollerRacer<S>&) {
    const Vec<double, 4> r = random_vector<double, 4>(rng), pose = random_vector<double, 4>(rng, 3.0);
    const double phi = std::abs(std::sin(pose[3])) < 0.2 ? pose[3] + 0.5 : pose[3];  // Πx needs sin ϕ ≠ 0
    const auto z = RollerRacer<double>::on_constraint(RollerRacerParams<double>{}, phi, r[0], r[1]);
    return RollerRacer<double>::state(pose[0], pose[1], pose[2], phi, z);
  }
};

// The roller racer with the energy row h: the other branch of the principal-bundle adapter's
// fused gradient (the sign and weight of its momentum part).
template <class S>
struct Conformance<RollerRacer<S, EnergyRow::original>> : ConformanceDefaults {
  static RollerRacer<S, EnergyRow::original> make(std::mt19937&) {
    return RollerRacer<S, EnergyRow::original>::make().value();
  }
  static Vec<double, 11> sample(std::mt19937& rng, const RollerRacer<S, EnergyRow::original>&) {
    return Conformance<RollerRacer<S>>::sample(rng, RollerRacer<S>::make().value());
  }
};

// The driven snakeboard: (q, p) on the wheel constraints at a random clock t (the torques at any
// phase) and work W; |φ| ≤ 1 keeps the constraints independent.
template <class S>
struct Conformance<SnakeboardDriven<S>> : ConformanceDefaults {
  static SnakeboardDriven<S> make(std::mt19937&) { return SnakeboardDriven<S>::make().value(); }
  static Vec<double, 12> sample(std::mt19937& rng, const SnakeboardDriven<S>&) {
    const SnakeboardDriven<double> sys = SnakeboardDriven<double>::make().value();
    const Vec<double, 2> tw = random_vector<double, 2>(rng, 5.0);
    Vec<double, 12> x;
    x << cotangent_on_constraint(sys.at(tw[0]), rng, 1.0), tw[0], tw[1];
    return x;
  }
};

template <class S>
struct Conformance<Heisenberg<S>> : ConformanceDefaults {
  static Vec<double, 6> sample(std::mt19937& rng, const Heisenberg<S>&) { return random_vector<double, 6>(rng); }
};

}  // namespace attractor::test

namespace {
template <class S>
using SuslovSystem = attractor::Suslov<S>;
template <class S>
using KnifeEdgeSystem = attractor::KnifeEdge<S>;
template <class S>
using OscillatorSystem = attractor::NonholonomicOscillator<S>;
template <class S>
using SleighSystem = attractor::ChaplyginSleigh<S>;
template <class S>
using ReducedSleighSystem = attractor::ChaplyginSleigh<S, false>;
template <class S>
using SuslovEnergySystem = attractor::Suslov<S, attractor::EnergyRow::original>;
template <class S>
using KnifeEdgeEnergySystem = attractor::KnifeEdge<S, attractor::EnergyRow::original>;
template <class S>
using RollingDiskSystem = attractor::RollingDisk<S>;
template <class S>
using RollerRacerSystem = attractor::RollerRacer<S>;
template <class S>
using RollerRacerEnergySystem = attractor::RollerRacer<S, attractor::EnergyRow::original>;
template <class S>
using SnakeboardSystem = attractor::SnakeboardDriven<S>;
}  // namespace

ATTRACTOR_CONFORMANCE(SuslovConformance, SuslovSystem);
ATTRACTOR_CONFORMANCE(KnifeEdgeConformance, KnifeEdgeSystem);
ATTRACTOR_CONFORMANCE(NonholonomicOscillatorConformance, OscillatorSystem);
ATTRACTOR_CONFORMANCE(ChaplyginSleighConformance, SleighSystem);
ATTRACTOR_CONFORMANCE(ReducedChaplyginSleighConformance, ReducedSleighSystem);
ATTRACTOR_CONFORMANCE(SuslovEnergyRowConformance, SuslovEnergySystem);
ATTRACTOR_CONFORMANCE(KnifeEdgeEnergyRowConformance, KnifeEdgeEnergySystem);
ATTRACTOR_CONFORMANCE(HeisenbergConformance, attractor::Heisenberg);
ATTRACTOR_CONFORMANCE(RollingDiskConformance, RollingDiskSystem);
ATTRACTOR_CONFORMANCE(RollerRacerConformance, RollerRacerSystem);
ATTRACTOR_CONFORMANCE(RollerRacerEnergyRowConformance, RollerRacerEnergySystem);
ATTRACTOR_CONFORMANCE(SnakeboardDrivenConformance, SnakeboardSystem);
