// SPDX-License-Identifier: Apache-2.0
// Software-in-the-loop sensor source: the reaction-wheel pendulum (systems/reaction_wheel_pendulum.hpp)
// simulated on the target itself. sample() advances the plant one tick under the torque held
// since the last actuate() (zero-order hold) by one RK4 step of its feedback integrator (which
// keeps |Γ| = 1) and reads ideal sensors; actuate() holds the new torque. The start: tilted by
// phi0 at rest, the wheel at rest relative to the arm (π̃ = 0 for any σ). Also WheelPendulumOutcome,
// a run's numbers for rt::Loop's monitor.
#pragma once

#include <cmath>

#include "attractor/core/types.hpp"
#include "attractor/plants/held_torque_sim.hpp"
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
  void hold(const Vec<S, 1>& u) { torque = u[0]; }
  static Vec<S, 4> measure(const Vec<S, 4>& x) { return x; }  // ideal sensors read the state
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
class SimulatedWheelPendulum : public HeldTorqueSim<SimulatedWheelPendulum<S>, WheelPendulumPlant<S>,
                                                    WheelPendulumSignals<S>, SimulatedWheelPendulumConfig<S>> {
 public:
  using HeldTorqueSim<SimulatedWheelPendulum<S>, WheelPendulumPlant<S>, WheelPendulumSignals<S>,
                      SimulatedWheelPendulumConfig<S>>::HeldTorqueSim;
  using Config = SimulatedWheelPendulumConfig<S>;

  static Error config_error(const Config& c, S dt) {
    return sil_config_error(c.params.validate(), is_finite(c.phi0), true, c.feedback_gain, dt);
  }
  static WheelPendulumPlant<S> plant(const Config& c) {
    return WheelPendulumPlant<S>{ReactionWheelPendulum<S>{c.params}};
  }
  static Vec<S, 4> initial_state(const Config& c) { return Vec<S, 4>(S(0), std::sin(c.phi0), std::cos(c.phi0), S(0)); }

  // ---- truth, for reports and tests; state() = (Ω, Γ1, Γ2, θ̇) ----
  S held_torque() const { return this->held_command()[0]; }
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
