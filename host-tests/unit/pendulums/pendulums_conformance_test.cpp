// SPDX-License-Identifier: Apache-2.0
// The pendulums (paper 002 §2.3, §2.4) through the conformance harness (conformance.hpp): the
// Dirac-extended field conserves f1, f2, H (and J) on all of T*R^D minus {q = 0}, not only on
// T*S^{D-1}, so the samples are anywhere with |q| >= 0.5 (the field divides by |q|²).
#include "conformance.hpp"

#include "attractor/systems/harmonic_oscillator.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"

namespace attractor::test {

template <int D>
Vec<double, 2 * D> pendulum_sample(std::mt19937& rng) {
  Vec<double, 2 * D> x;
  do x = uniform<2 * D>(rng, -2.0, 2.0);
  while (x.template head<D>().norm() < 0.5);
  return x;
}

template <class S>
struct Conformance<PlanarPendulum<S>> : ConformanceDefaults {
  static PlanarPendulum<S> make(std::mt19937&) { return PlanarPendulum<S>::make(S(0.8), S(9.81), S(1.5)).value(); }
  static Vec<double, 4> sample(std::mt19937& rng, const PlanarPendulum<S>&) { return pendulum_sample<2>(rng); }
};

template <class S>
struct Conformance<SphericalPendulum<S>> : ConformanceDefaults {
  static SphericalPendulum<S> make(std::mt19937&) {
    return SphericalPendulum<S>::make(S(1.3), S(9.81), S(0.7)).value();
  }
  static Vec<double, 6> sample(std::mt19937& rng, const SphericalPendulum<S>&) { return pendulum_sample<3>(rng); }
};

// The worked example of docs/adding-a-feedback-system.md: H is conserved everywhere.
template <class S>
struct Conformance<HarmonicOscillator<S>> : ConformanceDefaults {
  static HarmonicOscillator<S> make(std::mt19937&) { return HarmonicOscillator<S>::make(S(0.7), S(3)).value(); }
  static Vec<double, 2> sample(std::mt19937& rng, const HarmonicOscillator<S>&) { return uniform<2>(rng, -2.0, 2.0); }
};

}  // namespace attractor::test

ATTRACTOR_CONFORMANCE(PlanarPendulumConformance, attractor::PlanarPendulum);
ATTRACTOR_CONFORMANCE(SphericalPendulumConformance, attractor::SphericalPendulum);
ATTRACTOR_CONFORMANCE(HarmonicOscillatorConformance, attractor::HarmonicOscillator);
