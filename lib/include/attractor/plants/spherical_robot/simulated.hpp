// SPDX-License-Identifier: Apache-2.0
// Software-in-the-loop sensor source: the spherical robot (systems/spherical_robot.hpp, paper 004
// (0.29)–(0.30)) simulated on the target itself. sample() advances the plant one tick under the
// torques held since the last actuate() (zero-order hold) by one RK4 step of its feedback
// integrator (SphericalRobotPlant keeps |Γ| = 1 in float) and reads ideal sensors; actuate()
// holds the new torques. (The path on the plane is for host tools: systems/spherical_robot_pose.hpp,
// whose exp_so3 branches on the angle; the tick here costs the same for every state.) A HIL link is the
// other source of the same measurements (SphericalRobotSignals), with the controller and the app
// unchanged. The stepping is plants/held_torque_sim.hpp's.
#pragma once

#include "attractor/core/types.hpp"
#include "attractor/plants/held_torque_sim.hpp"
#include "attractor/plants/spherical_robot/signals.hpp"
#include "attractor/systems/spherical_robot.hpp"

namespace attractor {

// The robot under held rotor torques as a System for Feedback<>: with u ≠ 0 the energy and the
// rotor momenta are not invariants, |Γ|² (the Casimir, Γ̇ = Γ×Ω) still is.
template <class S>
struct SphericalRobotPlant {
  using Scalar = S;
  static constexpr int N = 8;
  static constexpr int M = 1;
  SphericalRobot<S> robot;  // robot.torque: the held (u1, u2)
  void hold(const Vec<S, 2>& u) { robot.torque = u; }
  static Vec<S, 8> measure(const Vec<S, 8>& x) { return spherical_robot_measurement<S>(x); }
  Vec<S, 8> field(const Vec<S, 8>& x) const { return robot.field(x); }
  Vec<S, 8> operator()(const Vec<S, 8>& x) const { return robot.field(x); }
  Vec<S, 1> invariants(const Vec<S, 8>& x) const { return Vec<S, 1>(x.template segment<3>(3).squaredNorm()); }
  Mat<S, 1, 8> invariants_jacobian(const Vec<S, 8>& x) const {
    Mat<S, 1, 8> J = Mat<S, 1, 8>::Zero();
    J.template block<1, 3>(0, 3) = S(2) * x.template segment<3>(3).transpose();
    return J;
  }
};

template <class S>
struct SimulatedSphericalRobotConfig {
  SphericalRobotParams<S> params;  // the reference robot (spherical-robot.md)
  S feedback_gain = S(50);         // feedback gain on |Γ|² (paper 000 §2.4)
  // Initial state (spherical-robot.md): tilt phi0 about E1, Γ = (0, sin φ0, cos φ0), body rate Ω,
  // rotor rates θ̇ relative to the shell (at rest by default; the reference run C1 starts on
  // π̃ = 0, θ̇ = (J_a/σ_a − 1)Ω_a: SphericalRobotLaw::zero_momentum_rotor_rates).
  S phi0 = S(0.1);
  Vec3<S> omega = Vec3<S>(S(0.1), S(0), S(0.1));
  Vec<S, 2> rotor_rates = Vec<S, 2>::Zero();
};

template <class S>
class SimulatedSphericalRobot : public HeldTorqueSim<SimulatedSphericalRobot<S>, SphericalRobotPlant<S>,
                                                     SphericalRobotSignals<S>, SimulatedSphericalRobotConfig<S>> {
 public:
  using HeldTorqueSim<SimulatedSphericalRobot<S>, SphericalRobotPlant<S>, SphericalRobotSignals<S>,
                      SimulatedSphericalRobotConfig<S>>::HeldTorqueSim;
  using Config = SimulatedSphericalRobotConfig<S>;
  using Command = typename SphericalRobotSignals<S>::Command;

  // Error::non_finite / invalid_parameter for bad parameters, a negative gain, |φ0| >= π/2
  // (starting at or below the horizon) or dt <= 0.
  static Error config_error(const Config& c, S dt) {
    const bool finite = is_finite(c.phi0) && all_finite(c.omega) && all_finite(c.rotor_rates);
    const bool above_horizon = c.phi0 < S(1.5707963) && c.phi0 > S(-1.5707963);
    return sil_config_error(c.params.validate(), finite, above_horizon, c.feedback_gain, dt);
  }
  static SphericalRobotPlant<S> plant(const Config& c) { return SphericalRobotPlant<S>{SphericalRobot<S>{c.params}}; }
  static Vec<S, 8> initial_state(const Config& c) {
    return spherical_robot_initial_state(c.phi0, c.omega, c.rotor_rates);
  }

  // ---- truth, for reports and tests; state() = (Ω, Γ, θ̇) ----
  Vec3<S> vertical() const { return this->state().template segment<3>(3); }  // Γ
  const Command& held_torque() const { return this->held_command(); }
};

// What a SIL run did to the plant and the actuators, kept by rt::Loop's monitor hook at every
// actuation. Branch-free (ternaries compile to selects on the FPU, not libm fmax/fmin whose NaN
// branches would make the tick's cost depend on the data).
template <class S>
struct SphericalRobotOutcome {
  S min_gamma3 = S(1);       // lowest Γ3 of the plant (cos of the largest tilt)
  S max_abs_torque = S(0);   // largest |u_a| commanded [N m]
  S max_gamma_error = S(0);  // largest |Γ̂ − Γ| of the estimator
  S max_rotor_rate = S(0);   // largest |θ̇_a| of the plant [rad/s]

  // Controller: anything whose status() has `vertical` (Γ̂) and `started`.
  template <class Controller>
  void observe(const SimulatedSphericalRobot<S>& plant, const Controller& ctrl, const Vec<S, 2>& u) {
    const Vec<S, 8>& x = plant.state();
    const S g3 = x[5] / x.template segment<3>(3).norm();
    const S u0 = u[0] < S(0) ? -u[0] : u[0], u1 = u[1] < S(0) ? -u[1] : u[1];
    const S au = u0 > u1 ? u0 : u1;
    const S r0 = x[6] < S(0) ? -x[6] : x[6], r1 = x[7] < S(0) ? -x[7] : x[7];
    const S ar = r0 > r1 ? r0 : r1;
    const S e = (ctrl.status().vertical - plant.vertical()).norm();
    const S err = ctrl.status().started ? e : S(0);
    min_gamma3 = g3 < min_gamma3 ? g3 : min_gamma3;
    max_abs_torque = au > max_abs_torque ? au : max_abs_torque;
    max_rotor_rate = ar > max_rotor_rate ? ar : max_rotor_rate;
    max_gamma_error = err > max_gamma_error ? err : max_gamma_error;
  }
};

}  // namespace attractor
