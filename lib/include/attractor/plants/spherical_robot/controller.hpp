// SPDX-License-Identifier: Apache-2.0
// The spherical robot's rotor controller as a component: Γ̂ estimator + controlled-Lagrangian
// law, configured and validated once, one update() per tick, reset(), a status for monitoring.
// It knows nothing of where its measurements come from (SIL plant on the target, HIL link,
// drivers); rt/loop.hpp runs it in the runtime's tick with any such source. The same shape as
// plants/skate_rotor/controller.hpp.
//
// Per update:  estimate — Γ̂ by gyro + measured-vertical fusion on the advected vertical
//                         Γ̇ = Γ×Ω (paper 003 (17b)), one RK4 step of its feedback integrator
//                         keeping |Γ̂| = 1 in float (paper 000 §2.4; estimate/advected_vertical.hpp)
//              control  — x̂ = (Ω, Γ̂, θ̇) → (A(Γ̂) − J + K)Ω̇ = f, u_a = k_a Ω̇_a: paper 003 law (53)
//                         with Ω̇ eliminated (Remark 14), plants/spherical_robot/law.hpp
// The runtime validates the measurements against measurement_limits(), supervises
// in_envelope(), saturates the torques to command_limits() and drops to zero torque on any fault.
// A closed-loop matrix found singular by the law (only possible outside the stability range, or
// with a Γ̂ far from any reachable one) gives zero torque for that tick, counted in the status.
//
// Measurement and command layout: SphericalRobotSignals (plants/spherical_robot/signals.hpp).
#pragma once

#include <cmath>
#include <cstdint>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/estimate/vertical_estimator.hpp"  // VerticalEstimatorConfig
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/plants/spherical_robot/law.hpp"
#include "attractor/plants/spherical_robot/signals.hpp"
#include "attractor/systems/spherical_robot.hpp"

namespace attractor {

template <class S>
struct SphericalRobotControllerConfig {
  SphericalRobotParams<S> params;                     // the reference robot (spherical-robot.md)
  Vec<S, 2> sigma = Vec<S, 2>::Constant(S(-1.5e-4));  // σ_a, inside −J_a²/I_P,a < σ_a < 0
  S torque_limit = S(1);         // |u_a| <= torque_limit [N m] (the reference run C1 peaks at 0.431)
  S tilt_limit = S(0.5);         // envelope: tilt arccos(Γ̂3) below this [rad]
  S rate_limit = S(50);          // a valid gyro reads |Ω_i| below this [rad/s]
  S rotor_rate_limit = S(1000);  // a valid encoder reads |θ̇_a| below this [rad/s]
  // κ and the |Γ̂|² feedback gain. The robot's Γ1 is free (the skate's estimator also pins
  // Γ̂1 = 0), so only |Γ̂|² is fed back here.
  VerticalEstimatorConfig<S> estimator;
};

template <class S>
class SphericalRobotController {
 public:
  using Scalar = S;
  using Config = SphericalRobotControllerConfig<S>;
  using Signals = SphericalRobotSignals<S>;
  using Measurement = typename Signals::Measurement;
  using Command = typename Signals::Command;
  struct Status {
    Vec3<S> vertical = Vec3<S>(S(0), S(0), S(1));            // Γ̂
    Command torque = Command::Zero();                        // last command before saturation [N m]
    S closed_loop_energy = S(0);                             // Ẽ(x̂): constant while the model matches
    Vec<S, 2> controlled_rotor_momenta = Vec<S, 2>::Zero();  // π̃(x̂): constant likewise
    std::uint32_t singular_ticks = 0;  // ticks the law gave zero torque (singular Ã or non-finite x̂)
    bool started = false;              // an update has run since reset
  };

  // Refuses σ outside the stability range (Error::outside_stability_range), invalid or
  // bottom-heavy parameters, non-finite values, limits <= 0, a negative estimator rate or gain
  // and dt <= 0.
  [[nodiscard]] static Result<SphericalRobotController> make(const Config& c, S dt) {
    auto law = SphericalRobotLaw<S>::make(c.params, c.sigma);
    if (!law) return law.error();
    const S v[7] = {c.torque_limit,
                    c.tilt_limit,
                    c.rate_limit,
                    c.rotor_rate_limit,
                    c.estimator.fusion_rate,
                    c.estimator.feedback_gain,
                    dt};
    for (const S x : v)
      if (!is_finite(x)) return Error::non_finite;
    if (!(c.torque_limit > S(0)) || !(c.tilt_limit > S(0)) || !(c.rate_limit > S(0)) || !(c.rotor_rate_limit > S(0)) ||
        !(c.estimator.fusion_rate >= S(0)) || !(c.estimator.feedback_gain >= S(0)) || !(dt > S(0)))
      return Error::invalid_parameter;
    SphericalRobotController k;
    k.cfg_ = c;
    k.law_ = *law;
    AdvectedGamma<S> field;
    field.kappa = c.estimator.fusion_rate;
    // invariants (|Γ|², Γ1): reference |Γ|² = 1 with the configured gain, Γ1 not fed back.
    k.estimator_ = Feedback<AdvectedGamma<S>>(field, Vec<S, 2>(S(1), S(0)), Vec<S, 2>(c.estimator.feedback_gain, S(0)));
    k.dt_ = dt;
    k.cos_tilt_limit_ = std::cos(c.tilt_limit);
    return k;
  }

  SphericalRobotController() = default;

  // One tick on a validated (finite, in-range) measurement: estimate Γ̂, then the law.
  Command update(const Measurement& y) {
    const Vec3<S> body_rate = y.template segment<3>(Signals::gyro);
    AdvectedGamma<S>& g = estimator_.system();
    g.omega = body_rate;
    g.measured = y.template segment<3>(Signals::vertical);
    // The first valid sample starts the estimate at the measured vertical (branch-free select).
    status_.vertical = status_.started ? status_.vertical : g.measured;
    status_.started = true;
    rk4_step(estimator_, status_.vertical, dt_);
    Vec<S, 8> x;
    x << body_rate, status_.vertical, y.template segment<2>(Signals::rotor_rate);
    bool ok = false;
    status_.torque = law_.torque(x, ok);  // zero when singular or non-finite
    status_.singular_ticks += ok ? 0u : 1u;
    status_.closed_loop_energy = law_.closed_loop_energy(x);
    status_.controlled_rotor_momenta = law_.controlled_rotor_momenta(x);
    return status_.torque;
  }

  void reset() { status_ = Status{}; }

  // For the runtime's supervisor: what a valid measurement looks like, the actuators' range,
  // and the tilt envelope of the estimate.
  Measurement measurement_limits() const {
    Measurement l;
    l << cfg_.rate_limit, cfg_.rate_limit, cfg_.rate_limit, S(1.5), S(1.5), S(1.5), cfg_.rotor_rate_limit,
        cfg_.rotor_rate_limit;
    return l;
  }
  Command command_limits() const { return Command::Constant(cfg_.torque_limit); }
  bool in_envelope() const { return status_.vertical[2] > cos_tilt_limit_; }

  const Status& status() const { return status_; }
  const SphericalRobotLaw<S>& law() const { return law_; }
  const Config& config() const { return cfg_; }

 private:
  Config cfg_{};
  SphericalRobotLaw<S> law_{};
  Feedback<AdvectedGamma<S>> estimator_{};
  S dt_ = S(1e-3);
  S cos_tilt_limit_ = S(0);
  Status status_{};
};

}  // namespace attractor
