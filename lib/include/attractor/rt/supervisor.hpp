// SPDX-License-Identifier: Apache-2.0
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
//   Error::out_of_range  a sensor value beyond its limit: held like a stale sample; trips when
//                        more than stale_limit consecutive ticks have no usable sample
//   Error::stale         more than stale_limit consecutive ticks without fresh sensor data
//   Error::overrun       overrun_streak_limit consecutive control steps over budget, or the
//                        same number of tick interrupts finding the step still running
//   Error::envelope      the plant state estimate outside the app's envelope  immediately
#pragma once

#include <cstdint>

#include "attractor/core/result.hpp"
#include "attractor/rt/critical_section.hpp"

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

// Concurrency (docs/runtime.md, "Concurrency rule"): both interrupts of the tick write the
// supervisor (the sampling ISR trips `overrun` for a stuck step). Every write is one short
// CriticalSection, so a trip's check-then-act and a count's read-modify-write are atomic with
// respect to the other interrupt: the first reason wins, its tick goes with it, no count is
// lost. Readers in the main context read mode first; a trip writes mode last.
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
  std::uint64_t trip_tick() const { return trip_tick_; }
  const FaultCounts& faults() const { return faults_; }

  // Latch the safe state with `why` unless already safe (first reason wins). Atomic.
  void trip(Error why, std::uint64_t tick) {
    CriticalSection cs;
    trip_locked(why, tick);
  }

  // Record one fault and trip if the rule for it says so. Atomic.
  void fault(Error why, std::uint64_t tick) {
    CriticalSection cs;
    count_locked(why);
    if (why != Error::none) trip_locked(why, tick);
  }

  // Count `why` (Error::none: nothing) and trip with it when the caller's rule says so. Atomic;
  // the tick's sample verdict, one call per tick whatever it is.
  void record(Error why, bool trips, std::uint64_t tick) {
    CriticalSection cs;
    count_locked(why);
    if (trips) trip_locked(why, tick);
  }

  void count_overrun() {
    CriticalSection cs;
    add(faults_.overrun);
  }
  void count_saturated() {
    CriticalSection cs;
    add(faults_.saturated);
  }

  // Leave the safe state (main context, never from the tick; rt::Tick::rearm() checks first
  // that the trip condition has cleared and resets the streaks). Counters are kept. The reason
  // and trip tick are cleared while the mode still says safe (a trip landing there is a no-op:
  // the state is already safe); the mode is written last, so no interleaving leaves
  // "safe, reason none". The order is the guard (tested with an ISR injected at each point).
  void rearm() {
    reason_ = Error::none;
    preemption_point();
    trip_tick_ = 0;
    preemption_point();
    mode_ = Mode::running;
  }

 private:
  void trip_locked(Error why, std::uint64_t tick) {
    if (mode_ == Mode::safe) return;
    preemption_point();  // the window a non-atomic check-then-act would leave open
    reason_ = why;
    trip_tick_ = tick;
    mode_ = Mode::safe;
  }
  void count_locked(Error why) {
    switch (why) {
      case Error::non_finite: add(faults_.non_finite); break;
      case Error::out_of_range: add(faults_.out_of_range); break;
      case Error::stale: add(faults_.stale); break;
      case Error::overrun: add(faults_.overrun); break;
      case Error::envelope: add(faults_.envelope); break;
      default: break;
    }
  }
  static void add(std::uint32_t& c) { bump(c); }

  SupervisorConfig cfg_;
  volatile Mode mode_ = Mode::running;
  volatile Error reason_ = Error::none;
  std::uint64_t trip_tick_ = 0;
  FaultCounts faults_;
};

}  // namespace attractor::rt
