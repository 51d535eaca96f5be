// SPDX-License-Identifier: Apache-2.0
// Software-in-the-loop sensor source: the reaction-wheel pendulum (systems/reaction_wheel_pendulum.hpp)
// simulated on the target itself. sample() advances the plant one tick under the torque held
// since the last actuate() (zero-order hold) by one RK4 step of its feedback integrator (which
// keeps |Γ| = 1) and reads ideal sensors; actuate() holds the new torque. The start: tilted by
// phi0 at rest, the wheel at rest relative to the arm (π̃ = 0 for any σ). Also WheelPendulumOutcome,
// a run's numbers for rt::Loop's monitor.
#pragma once

#include <cmath>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/plants/wheel_pendulum/signals.hpp"
#include "attractor/systems/reaction_wheel_pendulum.hpp"

namespace attractor {

// The torque-driven plant as a feedback-integrable system: x = (Ω, Γ1, Γ2, θ̇), invariant |Γ|².
template <class S>
struct WheelPendulumPlant {
  using Scalar = S;
  static constexpr int N = 4;
  static constexpr int M = 1;
  ReactionWheelPendulum<S> pendulum{};
  S torque = S(0);  // held over a step
  Vec<S, 4> field(const Vec<S, 4>& x) const { return pendulum.field(x, torque); }
  Vec<S, 1> invariants(const Vec<S, 4>& x) const { return Vec<S, 1>(x[1] * x[1] + x[2] * x[2]); }
  Mat<S, 1, 4> invariants_jacobian(const Vec<S, 4>& x) const {
    Mat<S, 1, 4> J;
    J << S(0), S(2) * x[1], S(2) * x[2], S(0);
    return J;
  }
};

template <class S>
struct SimulatedWheelPendulumConfig {
  ReactionWheelParams<S> params;  // the controller's defaults
  S feedback_gain = S(50);        // feedback gain on |Γ|² (paper 000 §2.4)
  S phi0 = S(0.1);                // initial tilt [rad]
};

template <class S>
class SimulatedWheelPendulum {
 public:
  using Scalar = S;
  using Config = SimulatedWheelPendulumConfig<S>;
  using Measurement = typename WheelPendulumSignals<S>::Measurement;
  using Command = typename WheelPendulumSignals<S>::Command;

  [[nodiscard]] static Result<SimulatedWheelPendulum> make(const Config& c, S dt) {
    const Error e = c.params.validate();
    if (e != Error::none) return e;
    if (!is_finite(c.feedback_gain) || !is_finite(c.phi0) || !is_finite(dt)) return Error::non_finite;
    if (!(c.feedback_gain >= S(0)) || !(dt > S(0))) return Error::invalid_parameter;
    SimulatedWheelPendulum p;
    p.cfg_ = c;
    p.dt_ = dt;
    p.plant_ = Feedback<WheelPendulumPlant<S>>(WheelPendulumPlant<S>{ReactionWheelPendulum<S>{c.params}},
                                               Vec<S, 1>(S(1)), Vec<S, 1>(c.feedback_gain));
    p.reset();
    return p;
  }

  SimulatedWheelPendulum() = default;

  void reset() {
    x_ << S(0), std::sin(cfg_.phi0), std::cos(cfg_.phi0), S(0);
    held_torque_ = S(0);
  }

  // ---- sensor source ----
  bool sample(Measurement& y) {
    plant_.system().torque = held_torque_;
    rk4_step(plant_, x_, dt_);
    y = x_;
    return true;
  }
  void actuate(const Command& u) { held_torque_ = u[0]; }

  // ---- truth, for reports and tests ----
  const Vec<S, 4>& state() const { return x_; }  // (Ω, Γ1, Γ2, θ̇)
  S held_torque() const { return held_torque_; }

 private:
  Config cfg_{};
  S dt_ = S(1e-3);
  Feedback<WheelPendulumPlant<S>> plant_{};
  Vec<S, 4> x_ = Vec<S, 4>::Zero();
  S held_torque_ = S(0);
};

// What a SIL run did to the plant and the actuator, kept by rt::Loop's monitor hook every tick.
template <class S>
struct WheelPendulumOutcome {
  S min_gamma2 = S(1);      // lowest Γ2 of the plant (cos of the largest tilt)
  S max_abs_torque = S(0);  // largest |u| commanded [N m]
  S max_wheel_rate = S(0);  // largest |θ̇| of the plant [rad/s]
  S max_norm_error = S(0);  // largest ||Γ|² − 1| of the plant (the feedback integrator's)

  template <class Controller>
  void observe(const SimulatedWheelPendulum<S>& plant, const Controller&, const Vec<S, 1>& u) {
    const Vec<S, 4>& x = plant.state();
    const S g2 = x[2] / std::sqrt(x[1] * x[1] + x[2] * x[2]);
    min_gamma2 = g2 < min_gamma2 ? g2 : min_gamma2;
    const S au = u[0] < S(0) ? -u[0] : u[0];
    max_abs_torque = au > max_abs_torque ? au : max_abs_torque;
    const S aw = x[3] < S(0) ? -x[3] : x[3];
    max_wheel_rate = aw > max_wheel_rate ? aw : max_wheel_rate;
    const S ne = x[1] * x[1] + x[2] * x[2] - S(1);
    const S ane = ne < S(0) ? -ne : ne;
    max_norm_error = ane > max_norm_error ? ane : max_norm_error;
  }
};

}  // namespace attractor
