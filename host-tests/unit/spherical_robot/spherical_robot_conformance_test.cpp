// SPDX-License-Identifier: Apache-2.0
// The spherical robot (paper 004 (0.29)–(0.30)) through the conformance harness (conformance.hpp):
// open loop, closed loop under the controlled-Lagrangian law (paper 003 (53)), and the plant under
// held torques that the SIL source integrates.
#include <cmath>

#include "attractor/plants/spherical_robot/law.hpp"
#include "attractor/plants/spherical_robot/simulated.hpp"
#include "attractor/systems/spherical_robot.hpp"
#include "conformance.hpp"

namespace attractor::test {

// (Ω, Γ, θ̇) with |Ω| ≤ 2√3 rad/s, Γ a unit vector within `tilt` of upright, θ̇ ∈ [−30, 30].
inline Vec<double, 8> robot_sample(std::mt19937& rng, double tilt) {
  std::uniform_real_distribution<double> U(-1, 1);
  const double th = tilt * std::abs(U(rng)), ph = 3.2 * U(rng);
  Vec<double, 8> x;
  x << 2 * U(rng), 2 * U(rng), 2 * U(rng), std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th),
      30 * U(rng), 30 * U(rng);
  return x;
}

// u = 0 and π = 0 (θ̇_a = −Ω_a): there the Jellett integral is one too (the reference robot has
// I1 − J1 = I2 − J2); any tilt.
template <class S>
struct Conformance<SphericalRobot<S>> : ConformanceDefaults {
  static Vec<double, 8> sample(std::mt19937& rng, const SphericalRobot<S>&) {
    Vec<double, 8> x = robot_sample(rng, 3.1);
    x.tail<2>() = -x.head<2>();
    return x;
  }
};

// The reference law (σ = −1.5e-4, inside the range), unsaturated, π̃ = 0 (Jellett 𝒥̃ conserved);
// tilt ≤ 1.2 rad.
template <class S>
struct Conformance<SphericalRobotClosedLoop<S>> : ConformanceDefaults {
  static SphericalRobotClosedLoop<S> make(std::mt19937&) {
    const SphericalRobotParams<S> p{};
    return {SphericalRobot<S>{p}, SphericalRobotLaw<S>::make(p, S(-1.5e-4)).value()};
  }
  static Vec<double, 8> sample(std::mt19937& rng, const SphericalRobotClosedLoop<S>& cl) {
    Vec<double, 8> x = robot_sample(rng, 1.2);
    x.tail<2>() = cl.law.zero_momentum_rotor_rates(Vec3<double>(x.head<3>()).cast<S>()).template cast<double>();
    return x;
  }
};

// |Γ|² under any held torque, any state.
template <class S>
struct Conformance<SphericalRobotPlant<S>> : ConformanceDefaults {
  static SphericalRobotPlant<S> make(std::mt19937& rng) {
    SphericalRobotPlant<S> plant{};
    plant.robot.torque = uniform<2>(rng, -0.5, 0.5).cast<S>();
    return plant;
  }
  static Vec<double, 8> sample(std::mt19937& rng, const SphericalRobotPlant<S>&) { return robot_sample(rng, 3.1); }
};

}  // namespace attractor::test

ATTRACTOR_CONFORMANCE(SphericalRobotConformance, attractor::SphericalRobot);
ATTRACTOR_CONFORMANCE(SphericalRobotClosedLoopConformance, attractor::SphericalRobotClosedLoop);
ATTRACTOR_CONFORMANCE(SphericalRobotPlantConformance, attractor::SphericalRobotPlant);
