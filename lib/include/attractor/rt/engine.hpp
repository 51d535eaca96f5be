// SPDX-License-Identifier: Apache-2.0
// The board-independent engine of the deterministic control tick, rt::Tick<App> (App contract:
// rt/app.hpp). Its two entry points are called from the two interrupts (rt/run.hpp) or
// directly by a host test with a fake clock.
//
// One tick (sample ISR, then the control ISR it pends, as ODrive splits its loop):
//   sample ISR : count tick, detect a still-running step (missed tick), in the safe state
//                write zero actuators, read sensors, pend the control ISR
//   control ISR: validate (NaN/Inf, range, stale) -> estimate -> envelope -> control law
//                -> NaN check + saturate -> supervise -> actuate -> account cost/overrun
#pragma once

#include <atomic>
#include <cstdint>

#include "attractor/core/finite.hpp"
#include "attractor/rt/app.hpp"
#include "attractor/rt/config.hpp"
#include "attractor/rt/critical_section.hpp"
#include "attractor/rt/report.hpp"
#include "attractor/rt/supervisor.hpp"

namespace attractor::rt {

namespace detail {
// An actuator or sensor limit is valid when it is a number >= 0 (+inf: unlimited).
template <class V>
bool limits_valid(const V& v) {
  bool ok = true;
  for (int i = 0; i < v.size(); ++i) ok = ok & (v[i] >= 0);  // false for NaN too
  return ok;
}
}  // namespace detail

// Concurrency rule (docs/runtime.md): on_sample runs in the high-priority sampling ISR,
// on_control in the low-priority control ISR, rearm()/report()/check_stack() in the main
// context. The sampling ISR writes y_, fresh_, t_start_, step_tick_ only while busy_ is false
// and publishes them by setting busy_ after a release fence; the control step reads them after
// an acquire fence and gives them back by clearing busy_ last (after a release fence). Shared
// supervisor state changes only inside rt::CriticalSection. Everything else has one writer.
template <class App>
class Tick {
 public:
  using S = typename App::Scalar;
  using Sensors = typename App::Sensors;
  using Command = typename App::Command;

  // cost_hz / cost_mask describe the cost clock whose readings on_sample/on_control receive.
  // Invalid limits (NaN or negative; app.actuator_limits() or app.sensor_limits()) are refused
  // here: the engine starts in the safe state with reason invalid_parameter and never calls
  // the law (a NaN limit would disable clipping, a negative one pin the output).
  Tick(App& app, const Config& cfg, std::uint32_t cost_hz, std::uint32_t cost_mask)
      : app_(app), cfg_(cfg), supervisor_(cfg.supervisor), mask_(cost_mask) {
    const std::uint32_t rate = cfg.rate_hz ? cfg.rate_hz : 1u;
    period_ = cost_hz / rate;
    budget_ = static_cast<std::uint32_t>(static_cast<std::uint64_t>(period_) * cfg.budget_percent / 100u);
    if (budget_ == 0u) budget_ = 1u;
    dt_ = S(1) / static_cast<S>(rate);
    cost_hz_ = cost_hz;
    // 32 buckets over [0, 2 * period): the overflow bucket holds anything beyond.
    cost_ = Stats(Stats::shift_for_range(2u * (period_ ? period_ : 1u)));
    sensor_limits_ = app.sensor_limits();
    actuator_limits_ = app.actuator_limits();
    y_.setZero();
    y_valid_.setZero();
    if (!detail::limits_valid(actuator_limits_) || !detail::limits_valid(sensor_limits_)) {
      supervisor_.trip(Error::invalid_parameter, 0);
    }
  }

  // Sampling interrupt at cost-clock time `now`. Returns true when the control step must be
  // pended. Constant work except for the safe-state zero write.
  bool on_sample(std::uint32_t now) {
    const std::uint64_t tick = ticks_ + 1u;
    ticks_ = tick;
    if (busy_) {
      // The previous step has not finished: this tick is missed (its step is not started).
      ++missed_;
      if (++busy_ticks_ >= supervisor_.config().overrun_streak_limit) {
        supervisor_.fault(Error::overrun, tick);
      }
    } else {
      busy_ticks_ = 0;
    }
    if (supervisor_.safe()) app_.actuate(Command::Zero());
    if (busy_) return false;
    if (cfg_.max_ticks != 0u && tick > cfg_.max_ticks) {
      finished_ = true;
      return false;
    }
    t_start_ = now;
    step_tick_ = tick;
    fresh_ = app_.sample(y_);
    std::atomic_signal_fence(std::memory_order_release);  // y_, fresh_, t_start_ before busy_
    busy_ = true;
    return true;
  }

  // Control interrupt. `clock` is a callable returning the cost clock, read once at the end.
  template <class Clock>
  void on_control(Clock&& clock) {
    std::atomic_signal_fence(std::memory_order_acquire);  // busy_ seen -> the sample is complete
    const std::uint64_t tick = step_tick_;
    Error sensor = Error::stale;  // this tick's verdict on its sample
    if (fresh_) {
      // &=, not &&: every channel is checked every tick (constant cost).
      bool finite = true;
      bool in_range = true;
      for (int i = 0; i < App::sensor_dim; ++i) {
        finite &= is_finite(y_[i]);
        in_range &= y_[i] <= sensor_limits_[i];
        in_range &= y_[i] >= -sensor_limits_[i];
      }
      sensor = !finite ? Error::non_finite : (!in_range ? Error::out_of_range : Error::none);
      if (sensor == Error::none) {
        y_valid_ = y_;
        have_valid_ = true;
        stale_streak_ = 0;
      }
    }
    sensor_error_ = sensor;
    // One rule for a tick without a usable sample, none fresh or one out of range (a spike, a
    // saturated sensor; the HIL link's wire range alike, docs/runtime.md): the last valid sample
    // is held and the tick counted in its class; more than stale_limit in a row trip. NaN/Inf
    // trips at once. One supervisor call every tick, whatever the verdict.
    const bool held = sensor == Error::stale || sensor == Error::out_of_range;
    if (held) ++stale_streak_;
    const bool trips = sensor == Error::non_finite || (held && stale_streak_ > supervisor_.config().stale_limit);
    supervisor_.record(sensor, trips, tick);
    preemption_point();

    Command u = Command::Zero();
    // Hold-off: until the first valid sample of the run there is nothing to hold; the command
    // stays zero (the streak rule above still trips after stale_limit such ticks).
    if (!supervisor_.safe() && have_valid_) {
      // Zero-order hold: a stale tick within the limit reuses the last valid sample.
      app_.estimate(y_valid_, dt_);
      preemption_point();
      if (!app_.in_envelope()) supervisor_.fault(Error::envelope, tick);
      preemption_point();
    }
    if (!supervisor_.safe() && have_valid_) {  // the law: the same hold-off
      u = app_.control();
      preemption_point();
      if (!all_finite(u)) {
        supervisor_.fault(Error::non_finite, tick);
      } else {
        bool clipped = false;  // |=, as above: constant cost
        for (int i = 0; i < App::actuator_dim; ++i) {
          const S lim = actuator_limits_[i];
          clipped |= u[i] > lim;
          clipped |= u[i] < -lim;
          u[i] = u[i] > lim ? lim : (u[i] < -lim ? -lim : u[i]);
        }
        if (clipped) supervisor_.count_saturated();
      }
      preemption_point();
    }
    if (supervisor_.safe()) u.setZero();
    app_.actuate(u);
    last_command_ = u;
    preemption_point();

    // Account: cost from the tick instant to here (the mask makes a narrow clock's wrap exact).
    const std::uint32_t cost = (clock() - t_start_) & mask_;
    cost_.add(cost);
    if (cost > budget_) {
      ++overruns_;
      supervisor_.count_overrun();
      if (++overrun_streak_ >= supervisor_.config().overrun_streak_limit) {
        supervisor_.trip(Error::overrun, tick);
      }
    } else {
      overrun_streak_ = 0;
    }
    ++steps_;
    if (cfg_.max_ticks != 0u && tick >= cfg_.max_ticks) finished_ = true;
    std::atomic_signal_fence(std::memory_order_release);  // everything above before busy_
    busy_ = false;
  }

  // Leave the safe state (main context). Refused — returning the reason, state unchanged —
  // while the trip condition still holds: the step is still running (busy), or the latest
  // sample is not fresh, finite and in range, or the limits were invalid from the start.
  // Otherwise, with the sampling ISR masked and the step idle: the app's optional reset()
  // restarts the controller/estimator, the streaks are reset and the supervisor re-armed
  // (reason cleared before the mode says running). Conditions the
  // last sample cannot show (envelope, NaN output, overrun) are re-checked by the next step.
  Error rearm() {
    if (!supervisor_.safe()) return Error::none;
    if (supervisor_.reason() == Error::invalid_parameter) return Error::invalid_parameter;
    // A valid latest sample implies stale_streak_ == 0 (the control step reset it).
    if (sensor_error_ != Error::none) return sensor_error_;
    CriticalSection cs;
    if (busy_) return Error::overrun;  // a step still running (or stuck): stay safe
    // The step is idle and, while safe, never calls the law.
    if constexpr (has_member<app_reset_member, App>) app_.reset();
    overrun_streak_ = 0;
    // busy_ticks_ needs no reset: it is only read while busy_, and the first on_sample that
    // finds the step idle zeroes it (the mutation check found a reset here changed nothing).
    supervisor_.rearm();
    return Error::none;
  }

  // Idle-loop stack check (main context): trips with Error::stack when the high-water mark
  // `used` is above cfg.stack_limit_percent of `size`. Returns true while within the limit.
  bool check_stack(std::uint32_t used, std::uint32_t size) {
    stack_used_ = used;
    if (cfg_.stack_limit_percent == 0u) return true;
    const std::uint64_t limit = static_cast<std::uint64_t>(size) * cfg_.stack_limit_percent / 100u;
    if (used <= limit) return true;
    supervisor_.trip(Error::stack, ticks());
    return false;
  }

  bool finished() const { return finished_; }
  bool busy() const { return busy_; }
  const Supervisor& supervisor() const { return supervisor_; }
  Supervisor& supervisor() { return supervisor_; }
  const Stats& cost() const { return cost_; }
  const Command& last_command() const { return last_command_; }
  // The last control step's verdict on its sample: none when it was used, else why it was held
  // (stale, out_of_range) or tripped (non_finite). Read after the step (control ISR or lockstep).
  Error sample_error() const { return sensor_error_; }
  // Tick count; consistent from any context (retried if the sampling ISR changed it meanwhile).
  std::uint64_t ticks() const {
    std::uint64_t a, b;
    do {
      a = ticks_;
      b = ticks_;
    } while (a != b);
    return a;
  }
  std::uint32_t budget() const { return budget_; }
  std::uint32_t period() const { return period_; }

  Report report() const {
    Report r;
    r.rate_hz = cfg_.rate_hz;
    r.ticks = ticks();
    r.steps = steps_;
    r.missed_ticks = missed_;
    r.overruns = overruns_;
    r.budget = budget_;
    r.cost_hz = cost_hz_;
    r.cost = cost_;
    r.mode = supervisor_.mode();
    r.reason = supervisor_.reason();
    r.trip_tick = supervisor_.trip_tick();
    r.faults = supervisor_.faults();
    return r;
  }

 private:
  App& app_;
  Config cfg_;
  Supervisor supervisor_;
  std::uint32_t mask_;
  std::uint32_t period_ = 0;
  std::uint32_t budget_ = 0;
  std::uint32_t cost_hz_ = 0;
  S dt_;
  Sensors sensor_limits_;
  Command actuator_limits_;
  Sensors y_;                // written by the sampling ISR only while !busy_
  Sensors y_valid_;          // last validated sample (control ISR only)
  bool have_valid_ = false;  // y_valid_ holds a sample (control ISR only)
  Command last_command_ = Command::Zero();
  bool fresh_ = false;                // sampling ISR, while !busy_
  Error sensor_error_ = Error::none;  // control ISR: verdict on the latest sample
  Stats cost_;
  volatile bool busy_ = false;  // set by the sampling ISR, cleared by the control ISR
  volatile bool finished_ = false;
  volatile std::uint64_t ticks_ = 0;  // sampling ISR only
  std::uint64_t step_tick_ = 0;       // sampling ISR, while !busy_: the step's tick
  std::uint32_t t_start_ = 0;         // sampling ISR, while !busy_
  std::uint64_t steps_ = 0;           // control ISR only
  std::uint64_t missed_ = 0;          // sampling ISR only
  std::uint32_t busy_ticks_ = 0;      // sampling ISR only (zeroed when it finds the step idle)
  std::uint64_t overruns_ = 0;        // control ISR only
  std::uint32_t overrun_streak_ = 0;  // control ISR (reset by rearm, masked)
  std::uint32_t stale_streak_ = 0;    // control ISR (reset by rearm, masked)
  std::uint32_t stack_used_ = 0;      // main context
};

}  // namespace attractor::rt
