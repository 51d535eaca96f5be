// SPDX-License-Identifier: Apache-2.0
// The systems of paper 004 through the shared conformance harness (host-tests/support/
// conformance.hpp), sampled where they are used. One specialisation and one line per system.
#include <random>

#include "attractor/systems/falling_disk.hpp"
#include "attractor/systems/sleigh_toda.hpp"
#include "conformance.hpp"

namespace attractor::test {

template <class S>
struct Conformance<SleighToda<S>> : ConformanceDefaults {
  static SleighToda<S> make(std::mt19937&) {
    SleighTodaParams<S> p;
    p.mass = S(2), p.inertia = S(0.7), p.offset = S(0.4);
    return SleighToda<S>::make(p).value();
  }
  static Vec<double, 2> sample(std::mt19937& rng, const SleighToda<S>&) {
    std::uniform_real_distribution<double> u(-2, 2);
    return Vec<double, 2>(u(rng), u(rng));
  }
};

template <class S>
struct Conformance<FallingDisk<S>> : ConformanceDefaults {
  static FallingDisk<S> make(std::mt19937&) { return FallingDisk<S>::make().value(); }
  // On the constraints, tilt within ±1 rad.
  static Vec<double, 10> sample(std::mt19937& rng, const FallingDisk<S>&) {
    const FallingDisk<double> d = FallingDisk<double>::make().value();
    std::uniform_real_distribution<double> u(-1, 1);
    Vec<double, 10> x;
    for (int i = 0; i < 10; ++i) x[i] = u(rng);
    return d.on_constraint(x);
  }
};

}  // namespace attractor::test

namespace {
template <class S>
using SleighTodaSystem = attractor::SleighToda<S>;
template <class S>
using FallingDiskSystem = attractor::FallingDisk<S>;
}  // namespace

ATTRACTOR_CONFORMANCE(SleighTodaConformance, SleighTodaSystem);
ATTRACTOR_CONFORMANCE(FallingDiskConformance, FallingDiskSystem);
