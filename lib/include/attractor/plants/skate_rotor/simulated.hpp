// SPDX-License-Identifier: Apache-2.0
// Software-in-the-loop sensor source: the rotor skate (44) simulated on the target itself.
// sample() advances the plant one tick under the torque held since the last actuate() (zero-order
// hold) by one RK4 step of its feedback integrator (SkateRotorPlant keeps Γ2²+Γ3² = 1 in float)
// and reads ideal sensors; actuate() holds the new torque. A HIL link is the other source of the
// same measurements (SkateRotorSignals), with the controller and the app unchanged.
#pragma once

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"

namespace attractor {

template <class S>
struct SimulatedSkateRotorConfig {
  SkateRotorParams<S> params;  // §7.3 defaults
  S feedback_gain = S(50);     // feedback gain on Γ2² + Γ3² (paper 000 §2.4)
  S phi0 = S(0.1);             // initial tilt of (59) [rad]
};

template <class S>
class SimulatedSkateRotor {
 public:
  using Scalar = S;
  using Config = SimulatedSkateRotorConfig<S>;
  using Measurement = typename SkateRotorSignals<S>::Measurement;
  using Command = typename SkateRotorSignals<S>::Command;

  [[nodiscard]] static Result<SimulatedSkateRotor> make(const Config& c, S dt) {
    const Error e = c.params.validate();
    if (e != Error::none) return e;
    if (!is_finite(c.feedback_gain) || !is_finite(c.phi0) || !is_finite(dt)) return Error::non_finite;
    if (!(c.feedback_gain >= S(0)) || !(dt > S(0))) return Error::invalid_parameter;
    SimulatedSkateRotor p;
    p.cfg_ = c;
    p.dt_ = dt;
    p.plant_ = Feedback<SkateRotorPlant<S>>(SkateRotorPlant<S>{PendulumSkateRotor<S>{c.params}}, Vec<S, 1>(S(1)),
                                            Vec<S, 1>(c.feedback_gain));
    p.reset();
    return p;
  }

  SimulatedSkateRotor() = default;

  // Back to the initial condition (59) (Ω1 = Ω3 = 0.1, Y1 = 1), rotor at rest relative to the
  // body, no torque held.
  void reset() {
    const Vec<S, 5> q = skate_zeta<S>(skate_tilted_sliding_state<S>(cfg_.phi0));
    x_ << q, S(0);
    held_torque_ = S(0);
  }

  // ---- sensor source ----
  bool sample(Measurement& y) {
    plant_.system().skate.torque = held_torque_;
    rk4_step(plant_, x_, dt_);
    y = skate_rotor_measurement<S>(x_);
    return true;
  }
  void actuate(const Command& u) { held_torque_ = u[0]; }

  // ---- truth, for reports and tests ----
  const Vec<S, 6>& state() const { return x_; }                     // (v1, v2, v3, Γ2, Γ3, θ̇)
  Vec3<S> vertical() const { return Vec3<S>(S(0), x_[3], x_[4]); }  // Γ
  S held_torque() const { return held_torque_; }

 private:
  Config cfg_{};
  S dt_ = S(1e-3);
  Feedback<SkateRotorPlant<S>> plant_{};
  Vec<S, 6> x_ = Vec<S, 6>::Zero();
  S held_torque_ = S(0);
};

// What a SIL run did to the plant and the actuator, kept by rt::Loop's monitor hook at every
// actuation. Branch-free (ternaries compile to VSEL/IT on the FPU, not libm fmax/fmin whose NaN
// branches would make the tick's cost depend on the data).
template <class S>
struct SkateRotorOutcome {
  S min_gamma3 = S(1);       // lowest Γ3 of the plant (cos of the largest tilt)
  S max_abs_torque = S(0);   // largest |u| commanded [N m]
  S max_gamma_error = S(0);  // largest |Γ̂ − Γ| of the estimator
  S max_constraint = S(0);   // largest max(||Γ̂|² − 1|, |Γ̂1|) of the estimator

  // Controller: anything whose status() has `vertical` (Γ̂) and `started`.
  template <class Controller>
  void observe(const SimulatedSkateRotor<S>& plant, const Controller& ctrl, const Vec<S, 1>& u) {
    const Vec3<S>& gamma = ctrl.status().vertical;
    const bool started = ctrl.status().started;
    const S g3 = plant.state()[4];
    const S au = u[0] < S(0) ? -u[0] : u[0];
    const S err = (gamma - plant.vertical()).norm();
    const S n = gamma.squaredNorm() - S(1);
    const S an = n < S(0) ? -n : n;
    const S a1 = gamma[0] < S(0) ? -gamma[0] : gamma[0];
    const S c = an > a1 ? an : a1;
    min_gamma3 = g3 < min_gamma3 ? g3 : min_gamma3;
    max_abs_torque = au > max_abs_torque ? au : max_abs_torque;
    const S e = started ? err : S(0);
    const S k = started ? c : S(0);
    max_gamma_error = e > max_gamma_error ? e : max_gamma_error;
    max_constraint = k > max_constraint ? k : max_constraint;
  }
};

}  // namespace attractor
