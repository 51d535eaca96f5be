// The tick's supervisor: decides, from per-tick verdicts, whether the controller may drive the
// actuators, and latches the first reason it stopped.
//
// Safe state (documented contract, docs/runtime.md):
//   - every actuator command is zero from the tick that trips until an explicit rearm();
//     the runtime writes the zero command from the high-priority sampling interrupt as well,
//     so even a control step that never returns cannot keep a non-zero command for more
//     than one tick period;
//   - the estimator and the control law are no longer called (nothing to trust);
//   - the reason (an Error code) and the tick at which it tripped are latched and reported;
//     later faults are still counted but never overwrite the first reason.
//
// Trip rules (thresholds in SupervisorConfig):
//   Error::non_finite    a NaN/Inf sensor value or control output         immediately
//   Error::out_of_range  a sensor value beyond its limit                  immediately
//   Error::stale         more than stale_limit consecutive ticks without fresh sensor data
//   Error::overrun       overrun_streak_limit consecutive control steps over budget, or the
//                        same number of tick interrupts finding the step still running
//   Error::envelope      the plant state estimate outside the app's envelope  immediately
#pragma once

#include <cstdint>

#include "attractor/core/result.hpp"

namespace attractor::rt {

struct SupervisorConfig {
  std::uint32_t overrun_streak_limit = 3;  // consecutive overruns that trip (>= 1)
  std::uint32_t stale_limit = 3;           // consecutive stale ticks tolerated (held sample)
};

enum class Mode : std::uint8_t {
  running = 0,  // control law drives the actuators
  safe = 1,     // actuators at zero, reason latched
};

constexpr const char* to_string(Mode m) { return m == Mode::running ? "running" : "safe"; }

// Counters of every fault seen, whether or not it tripped the supervisor.
struct FaultCounts {
  std::uint32_t non_finite = 0;
  std::uint32_t out_of_range = 0;
  std::uint32_t stale = 0;
  std::uint32_t overrun = 0;
  std::uint32_t envelope = 0;
  std::uint32_t saturated = 0;  // control steps where at least one command was clipped
};

class Supervisor {
 public:
  explicit Supervisor(const SupervisorConfig& cfg = {}) : cfg_(cfg) {
    if (cfg_.overrun_streak_limit < 1u) cfg_.overrun_streak_limit = 1u;
  }

  const SupervisorConfig& config() const { return cfg_; }
  Mode mode() const { return mode_; }
  bool safe() const { return mode_ == Mode::safe; }
  // The latched reason (Error::none while running).
  Error reason() const { return reason_; }
  // Tick index at which the supervisor tripped (0 while running).
  std::uint32_t trip_tick() const { return trip_tick_; }
  const FaultCounts& faults() const { return faults_; }

  // Latch the safe state with `why` unless already safe. The reason is written before the
  // mode, so an interrupt that reads safe() == true always sees the reason.
  void trip(Error why, std::uint32_t tick) {
    if (mode_ == Mode::safe) return;
    reason_ = why;
    trip_tick_ = tick;
    mode_ = Mode::safe;
  }

  // Record one fault and trip if the rule for it says so.
  void fault(Error why, std::uint32_t tick) {
    switch (why) {
      case Error::non_finite: ++faults_.non_finite; break;
      case Error::out_of_range: ++faults_.out_of_range; break;
      case Error::stale: ++faults_.stale; break;
      case Error::overrun: ++faults_.overrun; break;
      case Error::envelope: ++faults_.envelope; break;
      default: break;
    }
    if (why != Error::none) trip(why, tick);
  }

  void count_overrun() { ++faults_.overrun; }
  void count_stale() { ++faults_.stale; }
  void count_saturated() { ++faults_.saturated; }

  // Leave the safe state (from the main context, never from the tick): counters are kept,
  // the reason is cleared.
  void rearm() {
    mode_ = Mode::running;
    reason_ = Error::none;
    trip_tick_ = 0;
  }

 private:
  SupervisorConfig cfg_;
  volatile Mode mode_ = Mode::running;
  volatile Error reason_ = Error::none;
  std::uint32_t trip_tick_ = 0;
  FaultCounts faults_;
};

}  // namespace attractor::rt
