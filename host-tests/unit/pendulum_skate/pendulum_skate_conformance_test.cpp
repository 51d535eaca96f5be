// SPDX-License-Identifier: Apache-2.0
// The pendulum skate family (paper 003) through the conformance harness (conformance.hpp): the
// reduced skate (35)/(38), the full skate (21) with the multipliers eliminated, the rotor skate's
// plant (44) under a held torque, and the advected vertical (Γ̇ = Γ × Ω) of its estimator.
#include <cmath>

#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"
#include "conformance.hpp"

namespace attractor::test {

// ζ = (v1, v2, v3, Γ2, Γ3) with Γ2² + Γ3² = 1: (38) is (35) only there, and E, C1, C2 are its
// first integrals there (tilt within ±1.4 rad of upright).
inline Vec<double, 5> skate_sample(std::mt19937& rng) {
  Vec<double, 5> z = uniform<5>(rng, -2.0, 2.0);
  const double phi = 0.7 * z[3];
  z[3] = std::sin(phi);
  z[4] = std::cos(phi);
  return z;
}

template <class S>
struct Conformance<PendulumSkate<S>> : ConformanceDefaults {
  static Vec<double, 5> sample(std::mt19937& rng, const PendulumSkate<S>&) { return skate_sample(rng); }
};

// On the constraint manifold (v4 = v5 = v6 = 0, Γ1 = 0, |Γ| = 1), where all eight rows are
// conserved (off it only v4, v5, v6 are).
template <class S>
struct Conformance<PendulumSkateFull<S>> : ConformanceDefaults {
  static Vec<double, 9> sample(std::mt19937& rng, const PendulumSkateFull<S>&) {
    return skate_full<double>(skate_sample(rng));
  }
};

// Γ2² + Γ3² is conserved for any ζ and any held torque.
template <class S>
struct Conformance<SkateRotorPlant<S>> : ConformanceDefaults {
  static SkateRotorPlant<S> make(std::mt19937& rng) {
    SkateRotorPlant<S> plant{};
    plant.skate.torque = S(std::uniform_real_distribution<double>(-0.5, 0.5)(rng));
    return plant;
  }
  static Vec<double, 6> sample(std::mt19937& rng, const SkateRotorPlant<S>&) { return uniform<6>(rng, -2.0, 2.0); }
};

// |Γ|² is conserved on the unit sphere for any measured rate and vertical (the fusion pull is
// tangent there); Γ1 = 0 is not (Γ̇1 = (E1×Γ)·Ω): only the feedback term keeps it.
template <class S>
struct Conformance<AdvectedGamma<S>> : ConformanceDefaults {
  static constexpr bool first_integral(int row) { return row == 0; }
  static AdvectedGamma<S> make(std::mt19937& rng) {
    AdvectedGamma<S> g;
    g.omega = uniform<3>(rng, -2.0, 2.0).cast<S>();
    g.measured = unit_vector(rng).cast<S>();
    g.kappa = S(std::uniform_real_distribution<double>(0.0, 10.0)(rng));
    return g;
  }
  static Vec<double, 3> sample(std::mt19937& rng, const AdvectedGamma<S>&) { return unit_vector(rng); }
};

}  // namespace attractor::test

ATTRACTOR_CONFORMANCE(PendulumSkateConformance, attractor::PendulumSkate);
ATTRACTOR_CONFORMANCE(PendulumSkateFullConformance, attractor::PendulumSkateFull);
ATTRACTOR_CONFORMANCE(SkateRotorPlantConformance, attractor::SkateRotorPlant);
ATTRACTOR_CONFORMANCE(AdvectedGammaConformance, attractor::AdvectedGamma);
