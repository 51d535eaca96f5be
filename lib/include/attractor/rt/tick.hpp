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
//   };
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

#include <cstdint>
#include <limits>
#include <utility>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/text.hpp"
#include "attractor/core/types.hpp"
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
  std::uint32_t rate_hz = 1000;     // tick rate
  std::uint32_t max_ticks = 0;      // stop after this many ticks and return a Report; 0 = never
  std::uint32_t budget_percent = 100;  // a control step over this share of the period overruns
  SupervisorConfig supervisor;
};

inline Config rate_hz(std::uint32_t hz) {
  Config c;
  c.rate_hz = hz;
  return c;
}

using Stats = CostStats<32>;

// Everything the runtime knows after (or during) a run.
struct Report {
  std::uint32_t rate_hz = 0;
  std::uint32_t ticks = 0;          // tick interrupts taken
  std::uint32_t steps = 0;          // control steps completed
  std::uint32_t missed_ticks = 0;   // tick interrupts that found the previous step still running
  std::uint32_t overruns = 0;       // control steps whose cost exceeded the budget
  std::uint32_t budget = 0;         // cost budget per step, cost-clock counts
  std::uint32_t cost_hz = 0;        // cost clock frequency
  Stats cost;                       // per-step cost from the tick instant to the end of actuate
  Mode mode = Mode::running;
  Error reason = Error::none;
  std::uint32_t trip_tick = 0;
  FaultCounts faults;
  std::uint32_t stack_used = 0;     // stack high-water mark (painted stack), bytes
  std::uint32_t stack_size = 0;
};

// The board-independent engine. The two entry points are called from the two interrupts
// (or directly by a host test with a fake clock).
template <class App>
class Tick {
 public:
  using S = typename App::Scalar;
  using Sensors = typename App::Sensors;
  using Command = typename App::Command;

  // cost_hz / cost_mask describe the cost clock whose readings on_sample/on_control receive.
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
  }

  // Sampling interrupt at cost-clock time `now`. Returns true when the control step must be
  // pended. Constant work except for the safe-state zero write.
  bool on_sample(std::uint32_t now) {
    const std::uint32_t tick = ++ticks_;
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
    fresh_ = app_.sample(y_);
    busy_ = true;
    return true;
  }

  // Control interrupt. `clock` is a callable returning the cost clock, read once at the end.
  template <class Clock>
  void on_control(Clock&& clock) {
    const std::uint32_t tick = ticks_;
    Error sensor = Error::none;
    if (!fresh_) {
      supervisor_.count_stale();
      if (++stale_streak_ > supervisor_.config().stale_limit) supervisor_.trip(Error::stale, tick);
    } else {
      bool finite = true;
      bool in_range = true;
      for (int i = 0; i < App::sensor_dim; ++i) {
        finite = finite & is_finite(y_[i]);
        in_range = in_range & (y_[i] <= sensor_limits_[i]) & (y_[i] >= -sensor_limits_[i]);
      }
      if (!finite) {
        sensor = Error::non_finite;
      } else if (!in_range) {
        sensor = Error::out_of_range;
      } else {
        y_valid_ = y_;
        stale_streak_ = 0;
      }
    }
    if (sensor != Error::none) supervisor_.fault(sensor, tick);

    Command u = Command::Zero();
    if (!supervisor_.safe()) {
      // Zero-order hold: a stale tick within the limit reuses the last valid sample.
      app_.estimate(y_valid_, dt_);
      if (!app_.in_envelope()) supervisor_.fault(Error::envelope, tick);
    }
    if (!supervisor_.safe()) {
      u = app_.control();
      if (!all_finite(u)) {
        supervisor_.fault(Error::non_finite, tick);
      } else {
        bool clipped = false;
        for (int i = 0; i < App::actuator_dim; ++i) {
          const S lim = actuator_limits_[i];
          clipped = clipped | (u[i] > lim) | (u[i] < -lim);
          u[i] = u[i] > lim ? lim : (u[i] < -lim ? -lim : u[i]);
        }
        if (clipped) supervisor_.count_saturated();
      }
    }
    if (supervisor_.safe()) u.setZero();
    app_.actuate(u);
    last_command_ = u;

    // Account: cost from the tick instant to here.
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
    busy_ = false;
  }

  bool finished() const { return finished_; }
  bool busy() const { return busy_; }
  const Supervisor& supervisor() const { return supervisor_; }
  Supervisor& supervisor() { return supervisor_; }
  const Stats& cost() const { return cost_; }
  const Command& last_command() const { return last_command_; }
  std::uint32_t ticks() const { return ticks_; }
  std::uint32_t budget() const { return budget_; }
  std::uint32_t period() const { return period_; }

  Report report() const {
    Report r;
    r.rate_hz = cfg_.rate_hz;
    r.ticks = ticks_;
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
  Sensors y_;        // written by the sampling ISR only while !busy_
  Sensors y_valid_;  // last validated sample
  Command last_command_ = Command::Zero();
  bool fresh_ = false;
  Stats cost_;
  volatile bool busy_ = false;
  volatile bool finished_ = false;
  volatile std::uint32_t ticks_ = 0;
  std::uint32_t t_start_ = 0;
  std::uint32_t steps_ = 0;
  std::uint32_t missed_ = 0;
  std::uint32_t busy_ticks_ = 0;
  std::uint32_t overruns_ = 0;
  std::uint32_t overrun_streak_ = 0;
  std::uint32_t stale_streak_ = 0;
};

namespace detail {
template <class Board, class App>
bool sample_trampoline(void* ctx) {
  return static_cast<Tick<App>*>(ctx)->on_sample(Board::cost_now());
}
template <class Board, class App>
void control_trampoline(void* ctx) {
  static_cast<Tick<App>*>(ctx)->on_control([] { return Board::cost_now(); });
}
}  // namespace detail

// Run the app on the board's tick. With cfg.max_ticks == 0 this never returns; otherwise it
// returns the report after max_ticks ticks (SIL runs, tests, benchmarks). If the board cannot
// produce the rate, returns at once with mode safe and reason invalid_parameter.
template <class Board, class App>
Report run(App& app, const Config& cfg) {
  Tick<App> engine(app, cfg, Board::cost_hz(), Board::cost_mask());
  if (!Board::tick_start(cfg.rate_hz, &detail::sample_trampoline<Board, App>,
                         &detail::control_trampoline<Board, App>, &engine)) {
    engine.supervisor().trip(Error::invalid_parameter, 0);
    app.actuate(typename App::Command(App::Command::Zero()));
    Report r = engine.report();
    r.stack_used = Board::stack_used_bytes();
    r.stack_size = Board::stack_size_bytes();
    return r;
  }
  while (!engine.finished()) Board::wait_for_interrupt();
  Board::tick_stop();
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
  t << "rt: " << r.ticks << " ticks at " << r.rate_hz << " Hz, " << r.steps << " steps, "
    << r.missed_ticks << " missed, " << r.overruns << " overruns\n";
  write(t.c_str());
  t.clear();
  t << "rt: mode " << to_string(r.mode) << ", reason " << to_string(r.reason) << " at tick "
    << r.trip_tick << "\n";
  write(t.c_str());
  t.clear();
  t << "rt: faults non_finite " << r.faults.non_finite << " out_of_range " << r.faults.out_of_range
    << " stale " << r.faults.stale << " overrun " << r.faults.overrun << " envelope "
    << r.faults.envelope << " saturated " << r.faults.saturated << "\n";
  write(t.c_str());
  t.clear();
  t << "rt: cost counts min " << r.cost.min() << " median~ " << r.cost.median_estimate() << " max "
    << r.cost.max() << " mean ";
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
