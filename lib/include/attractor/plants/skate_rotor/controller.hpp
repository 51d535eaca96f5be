// SPDX-License-Identifier: Apache-2.0
// The pendulum-skate rotor controller as a component: Γ̂ estimator + rotor law, configured and
// validated once, one update() per tick, reset(), a status for monitoring. It knows nothing of
// where its measurements come from (SIL plant on the target, HIL link, drivers); rt/loop.hpp
// runs it in the runtime's tick with any such sensor source.
//
// Per update:  estimate — Γ̂ by the gyro + vertical fusion feedback integrator (|Γ|=1, Γ₁=0;
//                         estimate/vertical_estimator.hpp, paper 000 §2.4)
//              control  — ζ = (Ω₁, Ω·Γ̂, Y₁, Γ̂₂, Γ̂₃) (paper 003 eq. (33)) → rotor torque, the
//                         controlled-Lagrangian law (56) as corrected in law.hpp
// The runtime validates the measurements against measurement_limits(), supervises
// in_envelope(), saturates the torque to command_limits() and drops to zero torque on any fault.
//
// Measurement and command layout: SkateRotorSignals (systems/pendulum_skate_rotor.hpp).
#pragma once

#include <cmath>

#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/estimate/vertical_estimator.hpp"
#include "attractor/plants/skate_rotor/law.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"

namespace attractor {

template <class S>
struct SkateRotorControllerConfig {
  SkateRotorParams<S> params;            // §7.3 defaults
  S sigma = S(-1e-5);                    // controlled-Lagrangian parameter σ, inside (58)
  S torque_limit = S(50);                // |u| <= torque_limit [N m] (the §7.3 run peaks near 30)
  S tilt_limit = S(0.6);                 // envelope: tilt arccos(Γ̂3) below this [rad]
  VerticalEstimatorConfig<S> estimator;  // κ = 5 /s, feedback gain 50
};

template <class S>
class SkateRotorController {
 public:
  using Scalar = S;
  using Config = SkateRotorControllerConfig<S>;
  using Signals = SkateRotorSignals<S>;
  using Measurement = typename Signals::Measurement;
  using Command = typename Signals::Command;
  struct Status {
    Vec3<S> vertical = Vec3<S>(S(0), S(0), S(1));  // Γ̂
    Vec<S, 5> zeta = Vec<S, 5>::Zero();            // ζ the law saw (33)
    S torque = S(0);                               // last command before saturation [N m]
    bool started = false;                          // an update has run since reset
  };

  // Refuses a σ outside the stability range (58) (Error::outside_stability_range), invalid
  // parameters, limits <= 0 and dt <= 0.
  [[nodiscard]] static Result<SkateRotorController> make(const Config& c, S dt) {
    auto law = SkateRotorLaw<S>::make(c.params, c.sigma);
    if (!law) return law.error();
    if (!(c.torque_limit > S(0)) || !(c.tilt_limit > S(0)) || !(dt > S(0))) return Error::invalid_parameter;
    auto est = VerticalEstimator<S>::make(c.estimator, dt);
    if (!est) return est.error();
    SkateRotorController k;
    k.cfg_ = c;
    k.law_ = *law;
    k.estimator_ = *est;
    k.cos_tilt_limit_ = std::cos(c.tilt_limit);
    return k;
  }

  SkateRotorController() = default;

  // One tick on a validated (finite, in-range) measurement: estimate Γ̂, form ζ (33), law (56).
  Command update(const Measurement& y) {
    const Vec3<S> body_rate = y.template segment<3>(Signals::gyro);
    const Vec3<S>& G = estimator_.update(body_rate, y.template segment<3>(Signals::vertical));
    status_.vertical = G;
    status_.zeta = skate_zeta<S>(body_rate, Vec3<S>(y[Signals::blade_speed], S(0), S(0)), G);  // (33)
    status_.started = true;
    status_.torque = law_.torque(status_.zeta);
    return Command(status_.torque);
  }

  void reset() {
    estimator_.reset();
    status_ = Status{};
  }

  // For the runtime's supervisor: what a valid measurement looks like, the actuator's range,
  // and the tilt envelope of the estimate.
  Measurement measurement_limits() const {
    Measurement l;
    l << S(50), S(50), S(50), S(20), S(1.5), S(1.5), S(1.5), S(5000);
    return l;
  }
  Command command_limits() const { return Command(cfg_.torque_limit); }
  bool in_envelope() const { return status_.vertical[2] > cos_tilt_limit_; }

  const Status& status() const { return status_; }
  const SkateRotorLaw<S>& law() const { return law_; }
  const Config& config() const { return cfg_; }

 private:
  Config cfg_{};
  SkateRotorLaw<S> law_{};
  VerticalEstimator<S> estimator_{};
  S cos_tilt_limit_ = S(0);
  Status status_{};
};

}  // namespace attractor
