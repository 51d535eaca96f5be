// SPDX-License-Identifier: Apache-2.0
// Estimator of the body-frame vertical Γ (a unit vector with Γ1 = 0 for the skate) from a gyro
// and a measured vertical (accelerometer direction): one RK4 step per update of the feedback
// integrator on AdvectedGamma (estimate/advected_vertical.hpp; paper 000 §2.4, paper 003 (21)),
// which keeps |Γ̂| = 1 and Γ̂1 = 0 in float. A component: configure once (make), update per tick,
// reset, status. Fixed cost per update (no data-dependent loop).
#pragma once

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"

namespace attractor {

template <class S>
struct VerticalEstimatorConfig {
  S fusion_rate = S(5);     // κ [1/s]: pull toward the measured vertical (0: gyro only)
  S feedback_gain = S(50);  // feedback gains on |Γ|² and Γ1 (paper 000 §2.4)
};

template <class S>
class VerticalEstimator {
 public:
  using Config = VerticalEstimatorConfig<S>;
  struct Status {
    Vec3<S> vertical = Vec3<S>(S(0), S(0), S(1));  // Γ̂
    bool started = false;                          // false until the first update
  };

  // Refuses non-finite values, a negative rate or gain, and dt <= 0.
  [[nodiscard]] static Result<VerticalEstimator> make(const Config& c, S dt) {
    if (!is_finite(c.fusion_rate) || !is_finite(c.feedback_gain) || !is_finite(dt)) return Error::non_finite;
    if (!(c.fusion_rate >= S(0)) || !(c.feedback_gain >= S(0)) || !(dt > S(0))) return Error::invalid_parameter;
    VerticalEstimator e;
    AdvectedGamma<S> field;
    field.kappa = c.fusion_rate;  // configuration: set once, not every tick
    e.fb_ = Feedback<AdvectedGamma<S>>(field, Vec<S, 2>(S(1), S(0)), Vec<S, 2>(c.feedback_gain, c.feedback_gain));
    e.dt_ = dt;
    return e;
  }

  VerticalEstimator() = default;

  // One step with the body rate Ω held over dt and the measured vertical Γm. The first update
  // starts from Γm. Returns Γ̂.
  const Vec3<S>& update(const Vec3<S>& body_rate, const Vec3<S>& measured_vertical) {
    AdvectedGamma<S>& g = fb_.system();
    g.omega = body_rate;
    g.measured = measured_vertical;
    if (!status_.started) {  // first valid sample: start from the measured vertical
      status_.vertical = g.measured;
      status_.started = true;
    }
    rk4_step(fb_, status_.vertical, dt_);
    return status_.vertical;
  }

  void reset() { status_ = Status{}; }
  const Status& status() const { return status_; }
  const Vec3<S>& vertical() const { return status_.vertical; }

 private:
  Feedback<AdvectedGamma<S>> fb_{};
  S dt_ = S(1e-3);
  Status status_{};
};

}  // namespace attractor
