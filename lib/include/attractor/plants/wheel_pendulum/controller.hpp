// SPDX-License-Identifier: Apache-2.0
// The reaction-wheel pendulum's controller as a component (the interface of the skate's and the
// robot's): configured and validated once, one update() per tick at a fixed cost, reset(), a
// status. Two laws, chosen in the configuration:
//   controlled_lagrangian  u = k M g Γ1 (control/reaction_wheel_law.hpp), σ checked against the
//                          stability range −I_w²/𝕀 < σ < 0 before the controller exists,
//                          evaluated at the middle of the hold: Γ1 + (dt/2) Ω Γ2 (Γ̇1 = Ω Γ2).
//                          The closed loop is conservative (no damping), and a torque held from
//                          the start of each tick lags the continuous law by dt/2, which pumps
//                          energy in: at 1 kHz from 0.1 rad the tilt grows to 0.145 rad in 10 s
//                          and the arm falls within 60 s; at mid-hold it stays within 0.1006 rad
//                          for 60 s (the residual lag is O(dt²)).
//   lqr                    u = −K (φ, Ω, θ̇), K the discrete LQR gain of the linearization at
//                          upright (control/linearize.hpp, control/lqr.hpp), computed in make()
// The measured vertical is normalized before use (its length is the sensor's, not the plant's);
// φ = atan2(Γ1, Γ2). The runtime validates the measurements against measurement_limits(),
// supervises in_envelope(), saturates to command_limits() and drops to zero torque on any fault.
#pragma once

#include <cmath>
#include <limits>

#include "attractor/control/linearize.hpp"
#include "attractor/control/lqr.hpp"
#include "attractor/control/reaction_wheel_law.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/plants/wheel_pendulum/signals.hpp"
#include "attractor/systems/reaction_wheel_pendulum.hpp"

namespace attractor {

enum class WheelPendulumLaw : unsigned char { controlled_lagrangian, lqr };

template <class S>
struct WheelPendulumControllerConfig {
  ReactionWheelParams<S> params;  // systems/reaction_wheel_pendulum.hpp defaults
  WheelPendulumLaw law = WheelPendulumLaw::controlled_lagrangian;
  S sigma = S(-1e-5);  // inside −I_w²/𝕀 < σ < 0 (−1.86e-5 for the defaults): k = 2.17
  Vec<S, 3> lqr_q = Vec<S, 3>(S(10), S(1), S(1e-3));  // LQR weights on (φ, Ω, θ̇), times dt
  S lqr_r = S(100);                                   // LQR weight on u, times dt
  S torque_limit = S(0.5);                            // |u| <= torque_limit [N m]
  S tilt_limit = S(0.5);                              // envelope: |φ| below this [rad]
};

template <class S>
class WheelPendulumController {
 public:
  using Scalar = S;
  using Config = WheelPendulumControllerConfig<S>;
  using Signals = WheelPendulumSignals<S>;
  using Measurement = typename Signals::Measurement;
  using Command = typename Signals::Command;
  struct Status {
    S angle = S(0);      // φ the law saw [rad]
    S cos_angle = S(1);  // cos φ = the normalized Γ2
    S torque = S(0);     // last command before saturation [N m]
    bool started = false;
  };

  // Refuses σ outside the stability range (Error::outside_stability_range, controlled_lagrangian
  // only), invalid parameters, LQR weights the Riccati solver refuses, limits <= 0 and dt <= 0.
  [[nodiscard]] static Result<WheelPendulumController> make(const Config& c, S dt) {
    if (c.law == WheelPendulumLaw::controlled_lagrangian) return make_controlled_lagrangian(c, dt);
    auto k = with_limits(c, dt);
    if (!k) return k.error();
    const Error e = c.params.validate();
    if (e != Error::none) return e;
    const ReactionWheelAngles<S> plant{c.params};
    auto f = [&](const Vec<S, 3>& x, const Vec<S, 1>& u) { return plant.field(x, u); };
    auto ab = linearize<S, 3, 1>(f, Vec<S, 3>::Zero(), Vec<S, 1>::Zero());
    if (!ab) return ab.error();
    const Mat<S, 3, 3> Q = Mat<S, 3, 3>(c.lqr_q.asDiagonal()) * dt;
    const Mat<S, 1, 1> R = Mat<S, 1, 1>::Constant(c.lqr_r * dt);
    auto lqr = lqr_zoh<S, 3, 1>(ab->A, ab->B, Q, R, dt);
    if (!lqr) return lqr.error();
    k->lqr_gain_ = lqr->K;
    return k;
  }

  // The controlled-Lagrangian law alone (Error::invalid_parameter for law == lqr): what firmware
  // that never runs the LQR baseline builds, so that it does not compile the Riccati design
  // (linearization, matrix exponential, Cholesky) it would never call.
  [[nodiscard]] static Result<WheelPendulumController> make_controlled_lagrangian(const Config& c, S dt) {
    if (c.law != WheelPendulumLaw::controlled_lagrangian) return Error::invalid_parameter;
    auto k = with_limits(c, dt);
    if (!k) return k.error();
    auto law = ReactionWheelLaw<S>::make(c.params, c.sigma);
    if (!law) return law.error();
    k->law_ = *law;
    return k;
  }

  WheelPendulumController() = default;

  // One tick on a validated (finite, in-range) measurement. A vertical shorter than 1/2 is no
  // direction: the torque is NaN on purpose, for the runtime's non-finite trip (counted, safe state).
  Command update(const Measurement& y) {
    const S n = std::sqrt(y[1] * y[1] + y[2] * y[2]);
    const S inv = n > S(0.5) ? S(1) / n : std::numeric_limits<S>::quiet_NaN();
    const Vec<S, 4> x(y[0], y[1] * inv, y[2] * inv, y[3]);
    status_.angle = std::atan2(x[1], x[2]);
    status_.cos_angle = x[2];
    const Vec<S, 4> mid(x[0], x[1] + half_dt_ * x[0] * x[2], x[2], x[3]);
    status_.torque = cfg_.law == WheelPendulumLaw::controlled_lagrangian
                         ? law_.torque(mid)
                         : -(lqr_gain_ * Vec<S, 3>(status_.angle, x[0], x[3]))[0];
    status_.started = true;
    return Command(status_.torque);
  }

  void reset() { status_ = Status{}; }

  // For the runtime's supervisor: what a valid measurement looks like, the actuator's range, and
  // the tilt envelope.
  Measurement measurement_limits() const {
    Measurement l;
    l << S(50), S(1.5), S(1.5), S(5000);
    return l;
  }
  Command command_limits() const { return Command(cfg_.torque_limit); }
  bool in_envelope() const { return status_.cos_angle > cos_tilt_limit_; }

  const Status& status() const { return status_; }
  const ReactionWheelLaw<S>& law() const { return law_; }
  const Mat<S, 1, 3>& lqr_gain() const { return lqr_gain_; }
  const Config& config() const { return cfg_; }

 private:
  Config cfg_{};
  ReactionWheelLaw<S> law_{};
  Mat<S, 1, 3> lqr_gain_ = Mat<S, 1, 3>::Zero();
  S cos_tilt_limit_ = S(0);
  S half_dt_ = S(0);
  Status status_{};

  // What either law needs: the limits and dt checked, the envelope and the half hold.
  static Result<WheelPendulumController> with_limits(const Config& c, S dt) {
    if (!(c.torque_limit > S(0)) || !(c.tilt_limit > S(0)) || !(dt > S(0))) return Error::invalid_parameter;
    WheelPendulumController k;
    k.cfg_ = c;
    k.cos_tilt_limit_ = std::cos(c.tilt_limit);
    k.half_dt_ = dt / S(2);
    return k;
  }
};

}  // namespace attractor
