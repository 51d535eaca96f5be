// SPDX-License-Identifier: Apache-2.0
// On-target test of the deterministic runtime (lib/include/attractor/rt/tick.hpp) on the
// board's real tick interrupt, in QEMU with -icount shift=0 (virtual time = instructions):
//  1. ticks are counted, one control step per tick, spaced one period apart in virtual time
//     (measured on the board's cost clock), at two rates;
//  2. one injected overrun (a control step longer than a period) is detected and counted,
//     and does not trip the supervisor; three in a row drive the safe state (reason overrun);
//  3. a NaN sensor value drives the safe state (reason non_finite) at the tick it appears,
//     with the actuator at zero from then on;
//  4. the stack high-water mark (painted stack) is below the linker's stack size.
#include "attractor/board/board.hpp"
#include "attractor/rt/tick.hpp"
#include "check.hpp"

using namespace attractor;
using board::Board;

namespace {

struct ProbeApp : rt::AppBase<float, 2, 1> {
  static constexpr int kMaxLog = 64;
  std::uint32_t sample_time[kMaxLog] = {};
  std::uint32_t ref_time[kMaxLog] = {};
  int samples = 0;
  int nan_at = -1;           // sample index that delivers a NaN
  int overrun_from = -1;     // control steps [overrun_from, overrun_from + overrun_count)
  int overrun_count = 0;     //   busy-wait 1.5 tick periods
  std::uint32_t period = 0;  // cost-clock counts per tick
  int controls = 0;
  int nonzero_after_trip = 0;
  bool tripped_seen = false;
  float x = 0.0f;
  float u_last = 0.0f;

  bool sample(Sensors& y) {
    if (samples < kMaxLog) {
      sample_time[samples] = Board::cost_now();
      ref_time[samples] = Board::reference_now();
    }
    y[0] = 0.5f;
    y[1] = (samples == nan_at) ? __builtin_nanf("") : 0.25f;
    // From the NaN sample on, every command (step or sampling ISR) must be zero.
    if (samples == nan_at) tripped_seen = true;
    ++samples;
    return true;
  }
  void estimate(const Sensors& y, float dt) { x += dt * y[0]; }
  Command control() {
    if (controls >= overrun_from && controls < overrun_from + overrun_count) {
      const std::uint32_t t0 = Board::cost_now();
      while (((Board::cost_now() - t0) & Board::cost_mask()) < period + period / 2u) {
      }
    }
    ++controls;
    Command u;
    u[0] = 1.0f + x;
    return u;
  }
  void actuate(const Command& u) {
    u_last = u[0];
    if (tripped_seen && u[0] != 0.0f) ++nonzero_after_trip;
  }
};

std::uint32_t period_counts(std::uint32_t rate) { return Board::cost_hz() / rate; }

void nominal(target_test::Checker& c, std::uint32_t rate, std::uint32_t ticks) {
  ProbeApp app;
  app.period = period_counts(rate);
  rt::Config cfg = rt::rate_hz(rate);
  cfg.max_ticks = ticks;
  const rt::Report r = rt::run<Board>(app, cfg);
  rt::write_report(r, Board::write);
  Text<64> n;
  n << rate << " Hz: ";
  Text<96> t;
  t.clear();
  t << n.c_str() << "ticks taken";
  c.near(t.c_str(), r.ticks, ticks, 0);
  t.clear();
  t << n.c_str() << "control steps";
  c.near(t.c_str(), r.steps, ticks, 0);
  t.clear();
  t << n.c_str() << "missed ticks";
  c.near(t.c_str(), r.missed_ticks, 0, 0);
  t.clear();
  t << n.c_str() << "overruns";
  c.near(t.c_str(), r.overruns, 0, 0);
  t.clear();
  t << n.c_str() << "mode running";
  c.is_true(t.c_str(), r.mode == rt::Mode::running);
  // Spacing of consecutive sample instants, in cost-clock counts: one period. Interrupt
  // entry is deterministic under -icount, so the jitter is within a couple of counts.
  std::uint32_t lo = 0xFFFFFFFFu, hi = 0;
  const int n_log = app.samples < ProbeApp::kMaxLog ? app.samples : ProbeApp::kMaxLog;
  for (int k = 1; k < n_log; ++k) {
    const std::uint32_t d = (app.sample_time[k] - app.sample_time[k - 1]) & Board::cost_mask();
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  const double p = app.period;
  t.clear();
  t << n.c_str() << "min tick spacing / period";
  c.near(t.c_str(), lo / p, 1.0, 0.002);
  t.clear();
  t << n.c_str() << "max tick spacing / period";
  c.near(t.c_str(), hi / p, 1.0, 0.002);
  // The same against the board's independent reference clock (virtual time under QEMU).
  std::uint32_t rlo = 0xFFFFFFFFu, rhi = 0;
  for (int k = 1; k < n_log; ++k) {
    const std::uint32_t d = app.ref_time[k] - app.ref_time[k - 1];
    if (d < rlo) rlo = d;
    if (d > rhi) rhi = d;
  }
  const double rp = double(Board::reference_hz()) / rate;
  t.clear();
  t << n.c_str() << "min spacing / period, reference clock";
  c.near(t.c_str(), rlo / rp, 1.0, 0.002);
  t.clear();
  t << n.c_str() << "max spacing / period, reference clock";
  c.near(t.c_str(), rhi / rp, 1.0, 0.002);
  t.clear();
  t << n.c_str() << "max step cost <= budget";
  c.le(t.c_str(), r.cost.max(), r.budget);
  t.clear();
  t << n.c_str() << "min step cost > 0";
  c.ge(t.c_str(), r.cost.min(), 1);
  t.clear();
  t << n.c_str() << "integrated state = ticks * dt * 0.5";
  c.near(t.c_str(), app.x, 0.5 * ticks / rate, 1e-4);
}

void single_overrun(target_test::Checker& c) {
  ProbeApp app;
  app.period = period_counts(1000);
  app.overrun_from = 20;
  app.overrun_count = 1;
  rt::Config cfg = rt::rate_hz(1000);
  cfg.max_ticks = 60;
  const rt::Report r = rt::run<Board>(app, cfg);
  rt::write_report(r, Board::write);
  c.near("injected overrun: overruns counted", r.overruns, 1, 0);
  c.near("injected overrun: ticks missed", r.missed_ticks, 1, 0);
  c.near("injected overrun: steps = ticks - missed", r.steps, r.ticks - r.missed_ticks, 0);
  c.is_true("injected overrun: supervisor still running", r.mode == rt::Mode::running);
  c.ge("injected overrun: max cost >= 1.5 periods", r.cost.max(), 1.5 * app.period);
  c.near("injected overrun: histogram overflow bucket", r.cost.bin(rt::Stats::bins - 1), 0, 0);
}

void overrun_streak(target_test::Checker& c) {
  ProbeApp app;
  app.period = period_counts(1000);
  app.overrun_from = 10;
  app.overrun_count = 3;
  rt::Config cfg = rt::rate_hz(1000);
  cfg.max_ticks = 40;
  const rt::Report r = rt::run<Board>(app, cfg);
  rt::write_report(r, Board::write);
  c.is_true("overrun streak: safe state", r.mode == rt::Mode::safe);
  c.is_true("overrun streak: reason overrun", r.reason == Error::overrun);
  c.near("overrun streak: overruns", r.overruns, 3, 0);
  c.near("overrun streak: actuator zero", app.u_last, 0.0, 0.0);
}

void nan_sensor(target_test::Checker& c) {
  ProbeApp app;
  app.period = period_counts(1000);
  app.nan_at = 29;  // the 30th tick
  rt::Config cfg = rt::rate_hz(1000);
  cfg.max_ticks = 50;
  const rt::Report r = rt::run<Board>(app, cfg);
  rt::write_report(r, Board::write);
  c.is_true("NaN sensor: safe state", r.mode == rt::Mode::safe);
  c.is_true("NaN sensor: reason non_finite", r.reason == Error::non_finite);
  c.near("NaN sensor: tripped at tick 30", r.trip_tick, 30, 0);
  c.near("NaN sensor: law called only before the trip", app.controls, 29, 0);
  c.near("NaN sensor: actuator zero", app.u_last, 0.0, 0.0);
  c.near("NaN sensor: ticks continue to the end", r.ticks, 50, 0);
  c.near("NaN sensor: faults counted", r.faults.non_finite, 1, 0);
  c.is_true("NaN sensor: trip seen by the app", app.tripped_seen);
  c.near("NaN sensor: no non-zero command after the trip", app.nonzero_after_trip, 0, 0);
}

}  // namespace

int main() {
  board::initialize();
  target_test::Checker c("rt runtime: tick, overrun, safe state, stack");
  {
    Text<96> t;
    t << "cost clock: " << Board::cost_hz() << " Hz (" << Board::cost_unit() << ")\n";
    board::write(t.c_str());
  }
  nominal(c, 1000, 200);
  nominal(c, 4000, 100);
  single_overrun(c);
  overrun_streak(c);
  nan_sensor(c);
  const std::uint32_t used = board::stack_used_bytes();
  const std::uint32_t size = board::stack_size_bytes();
  {
    Text<96> t;
    t << "stack high-water " << used << " of " << size << " bytes\n";
    board::write(t.c_str());
  }
  c.ge("stack high-water mark measured (> 0)", used, 64);
  c.le("stack high-water mark below half the stack", used, size / 2);
  return c.finish();
}
