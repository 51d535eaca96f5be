// SPDX-License-Identifier: Apache-2.0
// The generated systems (lib/include/attractor/generated/) through the conformance harness
// (conformance.hpp), sampled as their hand-written counterparts are. The knife edge, which the
// tree uses in place of a hand-written one, is in nonholonomic_conformance_test.cpp.
#include <random>

#include "attractor/generated/chaplygin_sleigh_xy.hpp"
#include "attractor/generated/nonholonomic_oscillator.hpp"
#include "attractor/generated/nonholonomic_particle.hpp"
#include "attractor/generated/planar_pendulum.hpp"
#include "attractor/generated/spherical_pendulum.hpp"
#include "conformance.hpp"

namespace attractor::test {

template <class S>
struct Conformance<generated::SphericalPendulum<S>> : ConformanceDefaults {
  static generated::SphericalPendulum<S> make(std::mt19937&) {
    generated::SphericalPendulumParams<S> p;
    p.mass = S(1.3), p.gravity = S(9.81), p.length = S(0.7);
    return generated::SphericalPendulum<S>::make(p).value();
  }
  static Vec<double, 6> sample(std::mt19937& rng, const generated::SphericalPendulum<S>&) {
    Vec<double, 6> x;
    do x = uniform<6>(rng, -2.0, 2.0);
    while (x.head<3>().norm() < 0.5);
    return x;
  }
};

template <class S>
struct Conformance<generated::PlanarPendulum<S>> : ConformanceDefaults {
  static generated::PlanarPendulum<S> make(std::mt19937&) {
    generated::PlanarPendulumParams<S> p;
    p.mass = S(0.8), p.gravity = S(9.81), p.length = S(1.5);
    return generated::PlanarPendulum<S>::make(p).value();
  }
  static Vec<double, 4> sample(std::mt19937& rng, const generated::PlanarPendulum<S>&) {
    Vec<double, 4> x;
    do x = uniform<4>(rng, -2.0, 2.0);
    while (x.head<2>().norm() < 0.5);
    return x;
  }
};

// A random state moved onto the system's constraint set (the adapter's own terms).
template <class Sys>
Vec<double, Sys::N> generated_on_constraint(const Sys& sys, std::mt19937& rng) {
  Vec<double, Sys::N> x = uniform<Sys::N>(rng, -1.5, 1.5);
  const auto t = sys.terms(x);
  x.template tail<Sys::Q>() -= t.m * (t.e * (t.C * t.c));
  return x;
}

template <class S>
struct Conformance<generated::NonholonomicOscillator<S>> : ConformanceDefaults {
  static generated::NonholonomicOscillator<S> make(std::mt19937&) {
    return generated::NonholonomicOscillator<S>::make().value();
  }
  static Vec<double, 6> sample(std::mt19937& rng, const generated::NonholonomicOscillator<S>&) {
    return generated_on_constraint(generated::NonholonomicOscillator<double>::make().value(), rng);
  }
};

template <class S>
struct Conformance<generated::NonholonomicParticle<S>> : ConformanceDefaults {
  static generated::NonholonomicParticle<S> make(std::mt19937&) {
    return generated::NonholonomicParticle<S>::make().value();
  }
  static Vec<double, 6> sample(std::mt19937& rng, const generated::NonholonomicParticle<S>&) {
    return generated_on_constraint(generated::NonholonomicParticle<double>::make().value(), rng);
  }
};

template <class S>
struct Conformance<generated::ChaplyginSleighXY<S>> : ConformanceDefaults {
  // The generated gradient is the symbolic derivative of H~ with the q-dependent mass matrix
  // written out: its products round otherwise than the adapter's generic terms (measured 65 eps
  // x scale in float, 22 in double); a dropped term is still ~1e3 and more away.
  static constexpr double fused_gradient_ulps = 128;
  static generated::ChaplyginSleighXY<S> make(std::mt19937&) { return generated::ChaplyginSleighXY<S>::make().value(); }
  static Vec<double, 6> sample(std::mt19937& rng, const generated::ChaplyginSleighXY<S>&) {
    return generated_on_constraint(generated::ChaplyginSleighXY<double>::make().value(), rng);
  }
};

}  // namespace attractor::test

namespace {
template <class S>
using GeneratedSphericalPendulum = attractor::generated::SphericalPendulum<S>;
template <class S>
using GeneratedPlanarPendulum = attractor::generated::PlanarPendulum<S>;
template <class S>
using GeneratedNonholonomicOscillator = attractor::generated::NonholonomicOscillator<S>;
template <class S>
using GeneratedNonholonomicParticle = attractor::generated::NonholonomicParticle<S>;
template <class S>
using GeneratedChaplyginSleighXY = attractor::generated::ChaplyginSleighXY<S>;
}  // namespace

ATTRACTOR_CONFORMANCE(GeneratedSphericalPendulumConformance, GeneratedSphericalPendulum);
ATTRACTOR_CONFORMANCE(GeneratedPlanarPendulumConformance, GeneratedPlanarPendulum);
ATTRACTOR_CONFORMANCE(GeneratedNonholonomicOscillatorConformance, GeneratedNonholonomicOscillator);
ATTRACTOR_CONFORMANCE(GeneratedNonholonomicParticleConformance, GeneratedNonholonomicParticle);
ATTRACTOR_CONFORMANCE(GeneratedChaplyginSleighXYConformance, GeneratedChaplyginSleighXY);
