// SPDX-License-Identifier: Apache-2.0
// rt::run on a fake board: its report, an unreachable rate, and the stack high-water check from
// the idle loop. Float and double.
#include <gtest/gtest.h>

#include <string>

#include "tick_fixture.hpp"

using attractor::Error;
using namespace attractor::rt;
using namespace tick_fixture;

namespace {

TYPED_TEST(TickTest, RunOnFakeBoardReturnsReport) {
  using S = TypeParam;
  TestApp<S> app;
  Config c = rate_hz(500);
  c.max_ticks = 50;
  const int stops = FakeBoard::stops;
  const Report r = run<FakeBoard>(app, c);
  EXPECT_EQ(FakeBoard::stops, stops + 1);
  EXPECT_EQ(r.ticks, 50u);
  EXPECT_EQ(r.steps, 50u);
  EXPECT_EQ(r.rate_hz, 500u);
  EXPECT_EQ(r.budget, 2000u);
  EXPECT_EQ(r.stack_used, 640u);
  EXPECT_EQ(r.stack_size, 16384u);
  EXPECT_EQ(app.controls, 50);

  std::string out;
  write_report(r, [&](const char* s) { out += s; });
  EXPECT_NE(out.find("50 ticks at 500 Hz, 50 steps, 0 missed, 0 overruns"), std::string::npos) << out;
  EXPECT_NE(out.find("mode running, reason none"), std::string::npos) << out;
  EXPECT_NE(out.find("min 100 median~ 100 max 100"), std::string::npos) << out;
  EXPECT_NE(out.find("stack 640 of 16384"), std::string::npos) << out;
}

TYPED_TEST(TickTest, RunRefusesUnreachableRate) {
  using S = TypeParam;
  Config c = rate_hz(0);
  c.max_ticks = 5;
  const Report r = run<FakeBoard>(TestApp<S>{}, c);  // rvalue app
  EXPECT_EQ(r.mode, Mode::safe);
  EXPECT_EQ(r.reason, Error::invalid_parameter);
  EXPECT_EQ(r.ticks, 0u);
}

// A board with the optional members real boards have (rt/board_glue.hpp): a watchdog and the
// fault handlers' safe-output hook, each use recorded.
struct HookedBoard : FakeBoard {
  static inline std::uint32_t watchdog_started_ms = 0;
  static inline int watchdog_starts = 0, watchdog_feeds = 0, watchdog_stops = 0;
  static inline void (*safe_hook)(void*) = nullptr;  // what a CPU fault would call now
  static inline void* safe_ctx = nullptr;
  static inline int ticks_without_hook = 0;
  static inline void (*hook_while_ticking)(void*) = nullptr;
  static inline void* ctx_while_ticking = nullptr;
  static void reset() {
    watchdog_started_ms = 0;
    watchdog_starts = watchdog_feeds = watchdog_stops = ticks_without_hook = 0;
    safe_hook = hook_while_ticking = nullptr;
    safe_ctx = ctx_while_ticking = nullptr;
  }
  static bool watchdog_start(std::uint32_t ms) {
    watchdog_started_ms = ms;
    ++watchdog_starts;
    return true;
  }
  static void watchdog_feed() { ++watchdog_feeds; }
  static void watchdog_stop() { ++watchdog_stops; }
  static void set_safe_output(void (*hook)(void*), void* ctx) {
    safe_hook = hook;
    safe_ctx = ctx;
  }
  static void wait_for_interrupt() {
    ticks_without_hook += safe_hook == nullptr ? 1 : 0;
    hook_while_ticking = safe_hook;
    ctx_while_ticking = safe_ctx;
    FakeBoard::wait_for_interrupt();
  }
};

// The watchdog runs for the run and is fed once per completed step; during the run a CPU fault
// would write the app's zero command (the hook the board holds), and the hook is withdrawn
// before run() returns (the app may go out of scope).
TYPED_TEST(TickTest, RunStartsFeedsAndStopsTheWatchdogAndHoldsTheSafeOutputHook) {
  using S = TypeParam;
  HookedBoard::reset();
  TestApp<S> app;
  Config c = rate_hz(1000);
  c.max_ticks = 20;
  c.watchdog_ms = 50;
  const Report r = run<HookedBoard>(app, c);
  EXPECT_EQ(r.steps, 20u);
  EXPECT_EQ(HookedBoard::watchdog_starts, 1);
  EXPECT_EQ(HookedBoard::watchdog_started_ms, 50u);
  EXPECT_EQ(HookedBoard::watchdog_feeds, 20) << "fed once per completed control step";
  EXPECT_EQ(HookedBoard::watchdog_stops, 1);
  EXPECT_EQ(HookedBoard::ticks_without_hook, 0);
  EXPECT_EQ(HookedBoard::safe_hook, nullptr) << "withdrawn before run() returns";

  ASSERT_NE(HookedBoard::hook_while_ticking, nullptr);
  EXPECT_EQ(HookedBoard::ctx_while_ticking, static_cast<void*>(&app));
  app.u_out.setConstant(S(-99));
  const int actuations = app.actuations;
  HookedBoard::hook_while_ticking(HookedBoard::ctx_while_ticking);
  EXPECT_EQ(app.actuations, actuations + 1);
  EXPECT_EQ(app.u_out[0], S(0)) << "the hook writes the zero command";
}

// Without watchdog_ms the watchdog is never started (nor stopped); a refused rate undoes what
// run() set up: the watchdog stopped, the hook withdrawn, the zero command written.
TYPED_TEST(TickTest, RunWithoutWatchdogAndOnARefusedRateLeavesNoHookOrWatchdog) {
  using S = TypeParam;
  HookedBoard::reset();
  TestApp<S> app;
  Config c = rate_hz(1000);
  c.max_ticks = 5;
  (void)run<HookedBoard>(app, c);
  EXPECT_EQ(HookedBoard::watchdog_starts, 0);
  EXPECT_EQ(HookedBoard::watchdog_stops, 0);

  HookedBoard::reset();
  c = rate_hz(0);
  c.watchdog_ms = 50;
  app.u_out.setConstant(S(-99));
  const Report r = run<HookedBoard>(app, c);
  EXPECT_EQ(r.reason, Error::invalid_parameter);
  EXPECT_EQ(HookedBoard::watchdog_starts, 1);
  EXPECT_EQ(HookedBoard::watchdog_stops, 1);
  EXPECT_EQ(HookedBoard::safe_hook, nullptr);
  EXPECT_EQ(app.u_out[0], S(0)) << "the zero command on the refused start";
  EXPECT_EQ(r.stack_used, 640u);
  EXPECT_EQ(r.stack_size, 16384u);
}

// ---- Stack high-water check from the idle loop ----
TYPED_TEST(TickTest, StackCheckOffWithZeroPercent) {
  using S = TypeParam;
  TestApp<S> app;
  Config c = rate_hz(1000);
  c.stack_limit_percent = 0;
  Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
  EXPECT_TRUE(t.check_stack(16384, 16384));
  EXPECT_FALSE(t.supervisor().safe());
}

TYPED_TEST(TickTest, StackCheckTrips) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);  // limit 75 %
  EXPECT_TRUE(t.check_stack(12288, 16384));
  EXPECT_FALSE(t.supervisor().safe());
  EXPECT_FALSE(t.check_stack(12289, 16384));
  EXPECT_EQ(t.supervisor().reason(), Error::stack);
}

struct DeepStackBoard : FakeBoard {
  static inline std::uint32_t deep_after = 0;  // ticks after which the stack looks deep
  static std::uint32_t stack_used_bytes() {
    return (FakeBoard::now / (kHz / FakeBoard::rate)) > deep_after ? 15000u : 640u;
  }
};

// The idle loop checks the stack about once a second of ticks, not only after run() returns.
TYPED_TEST(TickTest, RunChecksStackWhileRunning) {
  using S = TypeParam;
  TestApp<S> app;
  Config c = rate_hz(1000);
  c.max_ticks = 3500;
  FakeBoard::now = 0;
  DeepStackBoard::deep_after = 1500;
  const Report r = run<DeepStackBoard>(app, c);
  EXPECT_EQ(r.reason, Error::stack);
  EXPECT_EQ(r.trip_tick, 2000u);  // the first idle check after the stack grew
  EXPECT_EQ(r.ticks, 3500u);
  EXPECT_EQ(app.u_out[0], S(0));
}

}  // namespace
