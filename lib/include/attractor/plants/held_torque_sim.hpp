// SPDX-License-Identifier: Apache-2.0
// What every plant's software-in-the-loop source shares: the plant under the torque held since
// the last actuate() (zero-order hold), advanced one tick per sample() by one RK4 step of the
// feedback integrator that keeps its one invariant, |Γ|², at 1 in float (paper 000 §2.4), then
// read by ideal sensors. A plant's simulated.hpp states only its configuration, its start and
// the truth it reports.
//
// Plant: a System for Feedback<> (integrate/system.hpp) with M = 1, and
//   void hold(const Command& u);                  // the torque of the coming steps
//   static Measurement measure(const State& x);   // ideal sensors at x
// Derived (the plant's source, which inherits from HeldTorqueSim) states, all static:
//   static Error config_error(const Config&, Scalar dt);  // sil_config_error with its own checks
//   static Plant plant(const Config&);                    // the plant the configuration describes
//   static State initial_state(const Config&);            // where reset() starts
// Config has `feedback_gain`, the gain on |Γ|².
#pragma once

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"

namespace attractor {

// A SIL configuration's verdict, in the order every source reports it: the plant's parameters,
// then any non-finite value, then any value out of its range (a negative feedback gain, dt <= 0,
// or what the plant's own `in_range` refuses).
template <class S>
Error sil_config_error(Error params, bool finite, bool in_range, S feedback_gain, S dt) {
  if (params != Error::none) return params;
  if (!finite || !is_finite(feedback_gain) || !is_finite(dt)) return Error::non_finite;
  if (!in_range || !(feedback_gain >= S(0)) || !(dt > S(0))) return Error::invalid_parameter;
  return Error::none;
}

template <class Derived, class Plant, class Signals, class Config>
class HeldTorqueSim {
 public:
  using Scalar = typename Plant::Scalar;
  using Measurement = typename Signals::Measurement;
  using Command = typename Signals::Command;
  using State = Vec<Scalar, Plant::N>;
  static_assert(Plant::M == 1, "HeldTorqueSim: the feedback integrator keeps one invariant, |Gamma|^2 = 1");

  // The configuration's error (Derived::config_error), or the source at its start.
  [[nodiscard]] static Result<Derived> make(const Config& c, Scalar dt) {
    const Error e = Derived::config_error(c, dt);
    if (e != Error::none) return e;
    return Derived(Checked{}, c, dt);
  }

  HeldTorqueSim() = default;
  // Only HeldTorqueSim can build a Checked: every source comes from make(), its configuration checked.
  class Checked {
    explicit Checked() = default;
    friend class HeldTorqueSim;
  };
  HeldTorqueSim(Checked, const Config& c, Scalar dt)
      : cfg_(c),
        dt_(dt),
        plant_(Derived::plant(c), Vec<Scalar, 1>(Scalar(1)), Vec<Scalar, 1>(c.feedback_gain)),
        x_(Derived::initial_state(c)) {}

  // Back to the configured start, no torque held.
  void reset() {
    x_ = Derived::initial_state(cfg_);
    held_ = Command::Zero();
  }

  // ---- sensor source ----
  bool sample(Measurement& y) {
    plant_.system().hold(held_);
    rk4_step(plant_, x_, dt_);
    y = Plant::measure(x_);
    return true;
  }
  void actuate(const Command& u) { held_ = u; }

  // ---- truth, for reports and tests ----
  const State& state() const { return x_; }
  const Command& held_command() const { return held_; }
  const Config& config() const { return cfg_; }

 private:
  Config cfg_{};
  Scalar dt_ = Scalar(1e-3);
  Feedback<Plant> plant_{};
  State x_ = State::Zero();
  Command held_ = Command::Zero();
};

}  // namespace attractor
