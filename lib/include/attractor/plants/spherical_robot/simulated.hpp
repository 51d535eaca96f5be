// SPDX-License-Identifier: Apache-2.0
// Software-in-the-loop sensor source: the spherical robot (systems/spherical_robot.hpp, paper 004
// (0.29)–(0.30)) simulated on the target itself. sample() advances the plant one tick under the
// torques held since the last actuate() (zero-order hold) by one RK4 step of its feedback
// integrator (SphericalRobotPlant keeps |Γ| = 1 in float) and reads ideal sensors; actuate()
// holds the new torques. (The path on the plane is for host tools: systems/spherical_robot_pose.hpp,
// whose exp_so3 branches on the angle; the tick here costs the same for every state.) A HIL link is the
// other source of the same measurements (SphericalRobotSignals), with the controller and the app
// unchanged. The same shape as plants/skate_rotor/simulated.hpp.
#pragma once

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
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
class SimulatedSphericalRobot {
 public:
  using Scalar = S;
  using Config = SimulatedSphericalRobotConfig<S>;
  using Measurement = typename SphericalRobotSignals<S>::Measurement;
  using Command = typename SphericalRobotSignals<S>::Command;

  // Error::non_finite / invalid_parameter for bad parameters, a negative gain, |φ0| >= π/2
  // (starting at or below the horizon) or dt <= 0.
  [[nodiscard]] static Result<SimulatedSphericalRobot> make(const Config& c, S dt) {
    const Error e = c.params.validate();
    if (e != Error::none) return e;
    if (!is_finite(c.feedback_gain) || !is_finite(c.phi0) || !all_finite(c.omega) || !all_finite(c.rotor_rates) ||
        !is_finite(dt))
      return Error::non_finite;
    if (!(c.feedback_gain >= S(0)) || !(dt > S(0)) || !(c.phi0 < S(1.5707963)) || !(c.phi0 > S(-1.5707963)))
      return Error::invalid_parameter;
    SimulatedSphericalRobot p;
    p.cfg_ = c;
    p.dt_ = dt;
    p.plant_ = Feedback<SphericalRobotPlant<S>>(SphericalRobotPlant<S>{SphericalRobot<S>{c.params}}, Vec<S, 1>(S(1)),
                                                Vec<S, 1>(c.feedback_gain));
    p.reset();
    return p;
  }

  SimulatedSphericalRobot() = default;

  // Back to the configured initial state, no torque held.
  void reset() {
    x_ = spherical_robot_initial_state(cfg_.phi0, cfg_.omega, cfg_.rotor_rates);
    held_torque_ = Command::Zero();
  }

  // ---- sensor source ----
  bool sample(Measurement& y) {
    plant_.system().robot.torque = held_torque_;
    rk4_step(plant_, x_, dt_);
    y = spherical_robot_measurement<S>(x_);
    return true;
  }
  void actuate(const Command& u) { held_torque_ = u; }

  // ---- truth, for reports and tests ----
  const Vec<S, 8>& state() const { return x_; }                   // (Ω, Γ, θ̇)
  Vec3<S> vertical() const { return x_.template segment<3>(3); }  // Γ
  const Command& held_torque() const { return held_torque_; }
  const Config& config() const { return cfg_; }

 private:
  Config cfg_{};
  S dt_ = S(1e-3);
  Feedback<SphericalRobotPlant<S>> plant_{};
  Vec<S, 8> x_ = Vec<S, 8>::Zero();
  Command held_torque_ = Command::Zero();
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
