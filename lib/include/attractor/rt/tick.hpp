// SPDX-License-Identifier: Apache-2.0
// The deterministic control tick, generic over a board and an application.
//
// ============================== The App interface ==============================
// An App is a plain type; the runtime calls these members and nothing else. Derive from
// rt::AppBase<Scalar, NY, NU> to get the types and the optional members' defaults:
//
//   struct MyApp : rt::AppBase<float, 4, 1> {      // Scalar, sensor count NY, actuator count NU
//     // [sampling ISR, high priority] Read the sensors (drivers, HIL frame) into y.
//     // Return false when no fresh data arrived this tick (the supervisor counts it stale).
//     bool sample(Sensors& y);
//     // [control ISR, low priority] Propagate / fuse the state estimate with a validated,
//     // finite, in-range sample; dt is the tick period in seconds.
//     void estimate(const Sensors& y, Scalar dt);
//     // [control ISR] The control law on the current estimate, before saturation.
//     Command control();
//     // [either ISR] Write the actuators. Called with the zero command in the safe state, also
//     // from the sampling ISR: keep it a short register/buffer write.
//     void actuate(const Command& u);
//
//     // Optional (AppBase defaults in brackets):
//     Sensors sensor_limits() const;     // |y_i| <= limit_i, else out_of_range   [+inf]
//     Command actuator_limits() const;   // u_i clipped to [-limit_i, limit_i]    [+inf]
//     bool in_envelope() const;          // plant estimate inside the envelope    [true]
//     void reset();                      // restart estimator/controller state; called by
//                                        // Tick::rearm() when present (detected at compile time)
//   };
// Limits must be numbers >= 0 (+inf: none); NaN or negative limits are refused at
// configuration (the engine starts safe, reason invalid_parameter).
//
// All members must be allocation-free and have no data-dependent loops.
//
// One tick (sample ISR, then the control ISR it pends, as ODrive splits its loop):
//   sample ISR : count tick, detect a still-running step (missed tick), in the safe state
//                write zero actuators, read sensors, pend the control ISR
//   control ISR: validate (NaN/Inf, range, stale) -> estimate -> envelope -> control law
//                -> NaN check + saturate -> supervise -> actuate -> account cost/overrun
//
// Use from a firmware main():
//   Board::initialize();
//   MyApp app{...};
//   rt::Config cfg = rt::rate_hz(1000);
//   cfg.max_ticks = 5000;                        // 0: run forever (never returns)
//   rt::Report r = rt::run<Board>(app, cfg);     // returns after max_ticks ticks
//   rt::write_report(r, Board::write);
//
// The Board type (boards/common/include/attractor/board/board.hpp: attractor::board::Board;
// a fake one in host-tests/unit/rt_runtime_test.cpp) provides these static members:
//   bool tick_start(uint32_t rate_hz, bool (*sample)(void*), void (*control)(void*), void* ctx)
//        periodic high-priority interrupt calling sample(ctx); when it returns true, pend the
//        low-priority control interrupt that calls control(ctx). false: rate not reachable.
//   void tick_stop();
//   uint32_t cost_now();   // free-running cost clock, wraps modulo cost_mask()+1
//   uint32_t cost_mask();  // 0xFFFFFFFF for a 32-bit clock, 0x00FFFFFF for SysTick...
//   uint32_t cost_hz();    // cost clock frequency
//   void wait_for_interrupt();
//   uint32_t stack_used_bytes(), stack_size_bytes();
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/text.hpp"
#include "attractor/core/types.hpp"
#include "attractor/rt/critical_section.hpp"
#include "attractor/rt/stats.hpp"
#include "attractor/rt/supervisor.hpp"

namespace attractor::rt {

// Types and defaults for an App (see the interface above).
template <class S, int NY, int NU>
struct AppBase {
  using Scalar = S;
  static constexpr int sensor_dim = NY;
  static constexpr int actuator_dim = NU;
  using Sensors = Vec<S, NY>;
  using Command = Vec<S, NU>;

  Sensors sensor_limits() const { return Sensors::Constant(std::numeric_limits<S>::infinity()); }
  Command actuator_limits() const { return Command::Constant(std::numeric_limits<S>::infinity()); }
  bool in_envelope() const { return true; }
};

struct Config {
  std::uint32_t rate_hz = 1000;        // tick rate
  std::uint32_t max_ticks = 0;         // stop after this many ticks and return a Report; 0 = never
  std::uint32_t budget_percent = 100;  // a control step over this share of the period overruns
  // Stack high-water limit checked from the idle loop (about once a second of ticks) in both
  // run modes: above it the supervisor trips with Error::stack. 0 disables the check.
  std::uint32_t stack_limit_percent = 75;
  // Hardware watchdog timeout (board/watchdog.hpp), fed after every completed control step:
  // a step that hangs longer than this ends in the board's watchdog path. 0: not started.
  std::uint32_t watchdog_ms = 0;
  SupervisorConfig supervisor;
};

inline Config rate_hz(std::uint32_t hz) {
  Config c;
  c.rate_hz = hz;
  return c;
}

using Stats = CostStats<32>;

// Everything the runtime knows after (or during) a run. Tick and step counts are 64-bit: at
// 1 kHz a 32-bit count wrapped after 49.7 days.
struct Report {
  std::uint32_t rate_hz = 0;
  std::uint64_t ticks = 0;         // tick interrupts taken
  std::uint64_t steps = 0;         // control steps completed
  std::uint64_t missed_ticks = 0;  // tick interrupts that found the previous step still running
  std::uint64_t overruns = 0;      // control steps whose cost exceeded the budget
  std::uint32_t budget = 0;        // cost budget per step, cost-clock counts
  std::uint32_t cost_hz = 0;       // cost clock frequency
  Stats cost;                      // per-step cost from the tick instant to the end of actuate
  Mode mode = Mode::running;
  Error reason = Error::none;
  std::uint64_t trip_tick = 0;
  FaultCounts faults;
  std::uint32_t stack_used = 0;  // stack high-water mark (painted stack), bytes
  std::uint32_t stack_size = 0;
};

namespace detail {
// Optional App::reset(): detected at compile time (Tick::rearm calls it when present).
template <class A, class = void>
struct has_reset : std::false_type {};
template <class A>
struct has_reset<A, std::void_t<decltype(std::declval<A&>().reset())>> : std::true_type {};

// An actuator or sensor limit is valid when it is a number >= 0 (+inf: unlimited).
template <class V>
bool limits_valid(const V& v) {
  bool ok = true;
  for (int i = 0; i < v.size(); ++i) ok = ok & (v[i] >= 0);  // false for NaN too
  return ok;
}
}  // namespace detail

// The board-independent engine. The two entry points are called from the two interrupts
// (or directly by a host test with a fake clock).
//
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
    Error sensor = Error::none;
    if (!fresh_) {
      supervisor_.count_stale();
      if (++stale_streak_ > supervisor_.config().stale_limit) supervisor_.trip(Error::stale, tick);
      sensor_error_ = Error::stale;
    } else {
      // &=, not &&: every channel is checked every tick (constant cost).
      bool finite = true;
      bool in_range = true;
      for (int i = 0; i < App::sensor_dim; ++i) {
        finite &= is_finite(y_[i]);
        in_range &= y_[i] <= sensor_limits_[i];
        in_range &= y_[i] >= -sensor_limits_[i];
      }
      if (!finite) {
        sensor = Error::non_finite;
      } else if (!in_range) {
        sensor = Error::out_of_range;
      } else {
        y_valid_ = y_;
        stale_streak_ = 0;
      }
      sensor_error_ = sensor;
    }
    if (sensor != Error::none) supervisor_.fault(sensor, tick);
    preemption_point();

    Command u = Command::Zero();
    if (!supervisor_.safe()) {
      // Zero-order hold: a stale tick within the limit reuses the last valid sample.
      app_.estimate(y_valid_, dt_);
      preemption_point();
      if (!app_.in_envelope()) supervisor_.fault(Error::envelope, tick);
      preemption_point();
    }
    if (!supervisor_.safe()) {
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
    if (busy_) return Error::overrun;     // a step still running (or stuck): stay safe
    reset_app(detail::has_reset<App>{});  // the step is idle and, while safe, never calls the law
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
  void reset_app(std::true_type) { app_.reset(); }
  void reset_app(std::false_type) {}

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
  Sensors y_;        // written by the sampling ISR only while !busy_
  Sensors y_valid_;  // last validated sample (control ISR only)
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

namespace detail {
template <class Board, class App>
bool sample_trampoline(void* ctx) {
  return static_cast<Tick<App>*>(ctx)->on_sample(Board::cost_now());
}
// The watchdog when the board has one (real boards), nothing otherwise (fakes).
template <class Board>
auto watchdog_feed(int) -> decltype(Board::watchdog_feed(), void()) {
  Board::watchdog_feed();
}
template <class Board>
void watchdog_feed(long) {}
template <class Board>
auto watchdog_start(int, std::uint32_t ms) -> decltype(Board::watchdog_start(ms)) {
  return Board::watchdog_start(ms);
}
template <class Board>
bool watchdog_start(long, std::uint32_t) {
  return false;
}
template <class Board>
auto watchdog_stop(int) -> decltype(Board::watchdog_stop(), void()) {
  Board::watchdog_stop();
}
template <class Board>
void watchdog_stop(long) {}

template <class Board, class App>
void control_trampoline(void* ctx) {
  static_cast<Tick<App>*>(ctx)->on_control([] { return Board::cost_now(); });
  watchdog_feed<Board>(0);  // fed only when a control step completes
}
// The fault handlers' safe-output hook: the app's zero command (board/fault.hpp).
template <class App>
void safe_output_trampoline(void* ctx) {
  static_cast<App*>(ctx)->actuate(typename App::Command(App::Command::Zero()));
}
// Board::set_safe_output when the board has one (real boards), nothing otherwise (fakes).
template <class Board>
auto set_safe_output(int, void (*hook)(void*), void* ctx) -> decltype(Board::set_safe_output(hook, ctx), void()) {
  Board::set_safe_output(hook, ctx);
}
template <class Board>
void set_safe_output(long, void (*)(void*), void*) {}
}  // namespace detail

// Run the app on the board's tick. With cfg.max_ticks == 0 this never returns; otherwise it
// returns the report after max_ticks ticks (SIL runs, tests, benchmarks). If the board cannot
// produce the rate, returns at once with mode safe and reason invalid_parameter.
template <class Board, class App>
Report run(App& app, const Config& cfg) {
  Tick<App> engine(app, cfg, Board::cost_hz(), Board::cost_mask());
  // Any CPU fault from here on writes the zero command before anything else.
  detail::set_safe_output<Board>(0, &detail::safe_output_trampoline<App>, &app);
  if (cfg.watchdog_ms != 0u) detail::watchdog_start<Board>(0, cfg.watchdog_ms);
  if (!Board::tick_start(cfg.rate_hz, &detail::sample_trampoline<Board, App>, &detail::control_trampoline<Board, App>,
                         &engine)) {
    engine.supervisor().trip(Error::invalid_parameter, 0);
    app.actuate(typename App::Command(App::Command::Zero()));
    Report r = engine.report();
    r.stack_used = Board::stack_used_bytes();
    r.stack_size = Board::stack_size_bytes();
    if (cfg.watchdog_ms != 0u) detail::watchdog_stop<Board>(0);
    detail::set_safe_output<Board>(0, nullptr, nullptr);
    return r;
  }
  // Idle loop. About once a second of ticks (and once at the end) the stack high-water mark
  // is checked against cfg.stack_limit_percent, in run-forever mode too.
  const std::uint64_t every = cfg.rate_hz ? cfg.rate_hz : 1u;
  std::uint64_t next_check = every;
  while (!engine.finished()) {
    Board::wait_for_interrupt();
    if (engine.ticks() >= next_check) {
      next_check += every;
      engine.check_stack(Board::stack_used_bytes(), Board::stack_size_bytes());
    }
  }
  Board::tick_stop();
  if (cfg.watchdog_ms != 0u) detail::watchdog_stop<Board>(0);
  detail::set_safe_output<Board>(0, nullptr, nullptr);  // `app` may go out of scope now
  engine.check_stack(Board::stack_used_bytes(), Board::stack_size_bytes());
  Report r = engine.report();
  r.stack_used = Board::stack_used_bytes();
  r.stack_size = Board::stack_size_bytes();
  return r;
}

// Rvalue app (rt::run<Board>(MyApp{...}, rt::rate_hz(1000))): kept alive inside run().
template <class Board, class App>
Report run(App&& app, const Config& cfg) {
  App local(std::move(app));
  return run<Board>(local, cfg);
}

// Cost in nanoseconds of the cost clock; under QEMU with -icount shift=0 one nanosecond of
// virtual time is one guest instruction (docs/runtime.md).
inline double counts_to_ns(double counts, std::uint32_t cost_hz) {
  return cost_hz ? counts * 1e9 / static_cast<double>(cost_hz) : 0.0;
}

// Print a report line by line through write(const char*) (e.g. Board::write).
template <class Write>
void write_report(const Report& r, Write&& write) {
  Text<160> t;
  t << "rt: " << r.ticks << " ticks at " << r.rate_hz << " Hz, " << r.steps << " steps, " << r.missed_ticks
    << " missed, " << r.overruns << " overruns\n";
  write(t.c_str());
  t.clear();
  t << "rt: mode " << to_string(r.mode) << ", reason " << to_string(r.reason) << " at tick " << r.trip_tick << "\n";
  write(t.c_str());
  t.clear();
  t << "rt: faults non_finite " << r.faults.non_finite << " out_of_range " << r.faults.out_of_range << " stale "
    << r.faults.stale << " overrun " << r.faults.overrun << " envelope " << r.faults.envelope << " saturated "
    << r.faults.saturated << "\n";
  write(t.c_str());
  t.clear();
  t << "rt: cost counts min " << r.cost.min() << " median~ " << r.cost.median_estimate() << " max " << r.cost.max()
    << " mean ";
  t.fixed(r.cost.mean(), 2);
  t << " budget " << r.budget << " @ " << r.cost_hz << " Hz\n";
  write(t.c_str());
  t.clear();
  t << "rt: cost ns min ";
  t.fixed(counts_to_ns(r.cost.min(), r.cost_hz), 0);
  t << " mean ";
  t.fixed(counts_to_ns(r.cost.mean(), r.cost_hz), 1);
  t << " max ";
  t.fixed(counts_to_ns(r.cost.max(), r.cost_hz), 0);
  t << " (= instructions under QEMU -icount shift=0)\n";
  write(t.c_str());
  t.clear();
  t << "rt: histogram (bucket " << r.cost.bin_width() << " counts):";
  for (int i = 0; i < Stats::bins; ++i) {
    if (r.cost.bin(i) != 0u) t << " [" << r.cost.bin_low(i) << "]=" << r.cost.bin(i);
  }
  t << "\n";
  write(t.c_str());
  t.clear();
  t << "rt: stack " << r.stack_used << " of " << r.stack_size << " bytes\n";
  write(t.c_str());
}

}  // namespace attractor::rt
