// SPDX-License-Identifier: Apache-2.0
// rt::Tick and rt::run with a fake board: tick accounting, overrun detection, supervisor trips
// and the safe state, cost statistics with a wrapping cost clock. Float and double.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "attractor/rt/tick.hpp"
#include "no_alloc.hpp"

using attractor::Error;
using attractor::Vec;
using namespace attractor::rt;

namespace {

// The fake cost clock (counts), advanced by the test and by the app's control law.
std::uint32_t g_clock = 0;

template <class S>
struct TestApp : AppBase<S, 2, 1> {
  using Base = AppBase<S, 2, 1>;
  using typename Base::Command;
  using typename Base::Sensors;

  Sensors next = Sensors(S(0.5), S(-0.25));  // what sample() delivers
  bool fresh = true;
  S gain = S(2);
  S limit = S(1);
  S sensor_limit = S(100);
  S envelope = S(10);
  std::uint32_t control_cost = 100;  // counts the control law "takes"
  bool nan_output = false;

  int samples = 0, estimates = 0, controls = 0, actuations = 0;
  Sensors estimate_in = Sensors::Zero();
  Command u_out = Command::Constant(S(-99));

  bool sample(Sensors& y) {
    ++samples;
    y = next;
    return fresh;
  }
  void estimate(const Sensors& y, S dt) {
    ++estimates;
    estimate_in = y;
    EXPECT_GT(dt, S(0));
  }
  Command control() {
    ++controls;
    g_clock += control_cost;
    Command u;
    u[0] = nan_output ? std::numeric_limits<S>::quiet_NaN() : gain * estimate_in[0];
    return u;
  }
  void actuate(const Command& u) {
    ++actuations;
    u_out = u;
  }
  Sensors sensor_limits() const { return Sensors::Constant(sensor_limit); }
  Command actuator_limits() const { return Command::Constant(limit); }
  bool in_envelope() const { return std::fabs(estimate_in[1]) < envelope; }
};

// The same app with the optional reset() hook (Tick::rearm calls it).
template <class S>
struct ResettableApp : TestApp<S> {
  int resets = 0;
  void reset() {
    ++resets;
    this->estimate_in.setZero();
  }
};
static_assert(attractor::rt::has_member<attractor::rt::app_reset_member, ResettableApp<float>>);
static_assert(!attractor::rt::has_member<attractor::rt::app_reset_member, TestApp<float>>);

// One full tick of any engine; `extra` counts are added to the step's end time.
template <class T>
void tick_any(T& t, std::uint32_t now, std::uint32_t extra = 0) {
  g_clock = now;
  if (t.on_sample(now)) t.on_control([extra] { return g_clock + extra; });
}

constexpr std::uint32_t kHz = 1000000;  // fake cost clock: 1 MHz -> 1000 counts per 1 kHz tick

template <class S>
class TickTest : public ::testing::Test {
 protected:
  void SetUp() override { g_clock = 5; }
  // One full tick: sample at `now`, then the control step.
  static void tick(Tick<TestApp<S>>& t, std::uint32_t now) {
    g_clock = now;
    if (t.on_sample(now)) t.on_control([] { return g_clock; });
  }
};

using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(TickTest, Scalars);

TYPED_TEST(TickTest, NominalTicksComputeSaturateAndAccount) {
  using S = TypeParam;
  TestApp<S> app;
  app.next = Vec<S, 2>(S(0.25), S(0));
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  EXPECT_EQ(t.period(), 1000u);
  EXPECT_EQ(t.budget(), 1000u);
  {
    attractor::test::NoAllocGuard guard;
    for (int k = 0; k < 10; ++k) TestFixture::tick(t, 1000u * k);
  }
  EXPECT_EQ(app.u_out[0], S(0.5));  // 2 * 0.25, inside the limit
  app.next[0] = S(3);               // 2 * 3 = 6 -> clipped to 1
  TestFixture::tick(t, 10000u);
  EXPECT_EQ(app.u_out[0], S(1));
  app.next[0] = S(-3);
  TestFixture::tick(t, 11000u);
  EXPECT_EQ(app.u_out[0], S(-1));

  const Report r = t.report();
  EXPECT_EQ(r.ticks, 12u);
  EXPECT_EQ(r.steps, 12u);
  EXPECT_EQ(r.missed_ticks, 0u);
  EXPECT_EQ(r.overruns, 0u);
  EXPECT_EQ(r.mode, Mode::running);
  EXPECT_EQ(r.faults.saturated, 2u);
  EXPECT_EQ(r.cost.count(), 12u);
  EXPECT_EQ(r.cost.min(), 100u);
  EXPECT_EQ(r.cost.max(), 100u);
  EXPECT_EQ(r.cost.median_estimate(), 100u);
  EXPECT_EQ(app.controls, 12);
}

TYPED_TEST(TickTest, NanSensorDrivesSafeStateAndZeroCommand) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  TestFixture::tick(t, 0);
  EXPECT_NE(app.u_out[0], S(0));
  app.next[1] = std::numeric_limits<S>::quiet_NaN();
  TestFixture::tick(t, 1000);
  EXPECT_EQ(t.supervisor().mode(), Mode::safe);
  EXPECT_EQ(t.supervisor().reason(), Error::non_finite);
  EXPECT_EQ(t.supervisor().trip_tick(), 2u);
  EXPECT_EQ(app.u_out[0], S(0));
  const int estimates = app.estimates;
  // Latched: good data later does not leave the safe state, the law is not called.
  app.next[1] = S(0);
  TestFixture::tick(t, 2000);
  EXPECT_EQ(t.supervisor().reason(), Error::non_finite);
  EXPECT_EQ(app.u_out[0], S(0));
  EXPECT_EQ(app.estimates, estimates);
  // Inf too, counted even in the safe state.
  app.next[0] = std::numeric_limits<S>::infinity();
  TestFixture::tick(t, 3000);
  EXPECT_EQ(t.report().faults.non_finite, 2u);
}

// One rule for an out-of-range sample (docs/runtime.md): counted, not used, the last valid
// sample held as for a stale tick; it trips (out_of_range) only when no usable sample arrives
// for more than stale_limit ticks. A single spike is one held tick.
TYPED_TEST(TickTest, OutOfRangeSampleIsHeldThenTripsWhenItPersists) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);  // limit 100, stale_limit 3
  app.next[0] = S(0.125);
  TestFixture::tick(t, 0);
  app.next[0] = S(-100.5);
  TestFixture::tick(t, 1000);
  EXPECT_EQ(t.supervisor().mode(), Mode::running) << "a single spike is held, not latched";
  EXPECT_EQ(app.estimate_in[0], S(0.125)) << "the last valid sample is held";
  EXPECT_EQ(t.report().faults.out_of_range, 1u);
  app.next[0] = S(0.25);
  TestFixture::tick(t, 2000);
  EXPECT_EQ(app.estimate_in[0], S(0.25));
  app.next[0] = S(100.5);
  for (int k = 3; k <= 5; ++k) {
    TestFixture::tick(t, 1000u * k);
    EXPECT_EQ(t.supervisor().mode(), Mode::running) << k;
  }
  TestFixture::tick(t, 6000);
  EXPECT_EQ(t.supervisor().reason(), Error::out_of_range) << "persisting beyond stale_limit trips";
  EXPECT_EQ(t.supervisor().trip_tick(), 7u);
  EXPECT_EQ(app.u_out[0], S(0));
  EXPECT_EQ(t.report().faults.out_of_range, 5u);
}

// Hold-off: before the first valid sample of a run nothing is held; the law is not called and
// the command is zero, and only more than stale_limit such ticks trip.
TYPED_TEST(TickTest, NoControlBeforeTheFirstValidSample) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  app.fresh = false;
  for (int k = 0; k < 3; ++k) TestFixture::tick(t, 1000u * k);
  EXPECT_EQ(t.supervisor().mode(), Mode::running);
  EXPECT_EQ(app.estimates, 0) << "nothing to estimate from";
  EXPECT_EQ(app.u_out[0], S(0));
  app.fresh = true;
  TestFixture::tick(t, 3000);
  EXPECT_EQ(app.estimates, 1);
  app.fresh = false;
  Tick<TestApp<S>> never(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  for (int k = 0; k < 4; ++k) TestFixture::tick(never, 1000u * k);
  EXPECT_EQ(never.supervisor().reason(), Error::stale);
}

TYPED_TEST(TickTest, StaleHeldUpToLimitThenTrips) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);  // stale_limit 3
  app.next[0] = S(0.125);
  TestFixture::tick(t, 0);
  app.fresh = false;
  app.next[0] = S(0.375);  // not fresh: must not be used
  for (int k = 1; k <= 3; ++k) {
    TestFixture::tick(t, 1000u * k);
    EXPECT_EQ(t.supervisor().mode(), Mode::running) << k;
    EXPECT_EQ(app.estimate_in[0], S(0.125));  // zero-order hold of the last valid sample
  }
  TestFixture::tick(t, 4000);
  EXPECT_EQ(t.supervisor().reason(), Error::stale);
  EXPECT_EQ(t.supervisor().trip_tick(), 5u);
  EXPECT_EQ(t.report().faults.stale, 4u);
}

TYPED_TEST(TickTest, FreshSampleResetsStaleStreak) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  for (int k = 0; k < 20; ++k) {
    app.fresh = (k % 3) == 0;  // two stale in a row at most
    TestFixture::tick(t, 1000u * k);
  }
  EXPECT_EQ(t.supervisor().mode(), Mode::running);
}

TYPED_TEST(TickTest, SingleOverrunCountedStreakTrips) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  app.control_cost = 1500;  // over the 1000-count budget, but the next tick comes later
  TestFixture::tick(t, 0);
  app.control_cost = 100;
  TestFixture::tick(t, 2000);
  EXPECT_EQ(t.report().overruns, 1u);
  EXPECT_EQ(t.supervisor().mode(), Mode::running);
  app.control_cost = 1001;
  TestFixture::tick(t, 4000);
  TestFixture::tick(t, 6000);
  EXPECT_EQ(t.supervisor().mode(), Mode::running);  // streak 2 < 3
  TestFixture::tick(t, 8000);
  EXPECT_EQ(t.supervisor().reason(), Error::overrun);
  EXPECT_EQ(t.supervisor().trip_tick(), 5u);
  EXPECT_EQ(t.report().overruns, 4u);
  EXPECT_EQ(t.report().cost.max(), 1500u);
}

// The edges are inside: a sample exactly at its limit is in range, a step costing exactly its
// budget is no overrun (one count more is).
TYPED_TEST(TickTest, LimitsAndBudgetIncludeTheirEdge) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);  // sensor limits 100, budget 1000
  app.next = Vec<S, 2>(S(100), S(-100));
  app.envelope = S(1000);
  app.control_cost = 1000;
  TestFixture::tick(t, 0);
  EXPECT_EQ(t.supervisor().mode(), Mode::running) << to_string(t.supervisor().reason());
  EXPECT_EQ(app.estimate_in[0], S(100));
  EXPECT_EQ(t.report().overruns, 0u);
  app.control_cost = 1001;
  TestFixture::tick(t, 2000);
  EXPECT_EQ(t.report().overruns, 1u);
}

TYPED_TEST(TickTest, BudgetPercentTightensBudget) {
  using S = TypeParam;
  TestApp<S> app;
  Config c = rate_hz(1000);
  c.budget_percent = 5;  // 50 counts
  Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
  EXPECT_EQ(t.budget(), 50u);
  TestFixture::tick(t, 0);  // costs 100
  EXPECT_EQ(t.report().overruns, 1u);
}

// A budget that rounds to 0 counts is one count: a step that costs a single count is no overrun.
TYPED_TEST(TickTest, BudgetRoundingToZeroIsOneCount) {
  using S = TypeParam;
  TestApp<S> app;
  Config c = rate_hz(1000);
  c.budget_percent = 0;
  Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
  EXPECT_EQ(t.budget(), 1u);
  app.control_cost = 1;
  TestFixture::tick(t, 0);
  EXPECT_EQ(t.report().overruns, 0u);
}

TYPED_TEST(TickTest, StepStillRunningAtNextTickIsMissedAndStuckStepTrips) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  ASSERT_TRUE(t.on_sample(0));  // control pended but "still running"
  EXPECT_FALSE(t.on_sample(1000));
  EXPECT_EQ(t.report().missed_ticks, 1u);
  EXPECT_EQ(app.samples, 1);  // a missed tick does not overwrite the running step's sample
  EXPECT_FALSE(t.on_sample(2000));
  EXPECT_EQ(t.supervisor().mode(), Mode::running);
  EXPECT_FALSE(t.on_sample(3000));  // third tick interrupt finding it busy: stuck
  EXPECT_EQ(t.supervisor().reason(), Error::overrun);
  // The sampling ISR itself wrote the zero command (the control step may never return).
  EXPECT_EQ(app.u_out[0], S(0));
  g_clock = 3500;
  t.on_control([] { return g_clock; });  // it finally finishes: still zero
  EXPECT_EQ(app.u_out[0], S(0));
  EXPECT_EQ(t.report().missed_ticks, 3u);
  EXPECT_EQ(t.report().cost.max(), 3500u);
}

TYPED_TEST(TickTest, EnvelopeTrips) {
  using S = TypeParam;
  TestApp<S> app;
  app.envelope = S(0.5);
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  TestFixture::tick(t, 0);  // |y1| = 0.25
  EXPECT_EQ(t.supervisor().mode(), Mode::running);
  app.next[1] = S(0.75);
  TestFixture::tick(t, 1000);
  EXPECT_EQ(t.supervisor().reason(), Error::envelope);
  EXPECT_EQ(t.report().faults.envelope, 1u) << "an envelope exit is counted, not only latched";
  EXPECT_EQ(app.u_out[0], S(0));
  EXPECT_EQ(app.controls, 1);  // the law is not consulted outside the envelope
}

TYPED_TEST(TickTest, NanControlOutputTrips) {
  using S = TypeParam;
  TestApp<S> app;
  app.nan_output = true;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  TestFixture::tick(t, 0);
  EXPECT_EQ(t.supervisor().reason(), Error::non_finite);
  EXPECT_EQ(t.supervisor().faults().non_finite, 1u) << "counted, not only latched";
  EXPECT_EQ(app.u_out[0], S(0));
}

TYPED_TEST(TickTest, CostAcrossA24BitClockWrap) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0x00FFFFFFu);
  // A 24-bit clock: the step starts at 0xFFFFC0 and ends, 100 counts later, at 0x000024.
  g_clock = 0x00FFFFC0u;
  ASSERT_TRUE(t.on_sample(g_clock));
  t.on_control([] { return g_clock & 0x00FFFFFFu; });
  EXPECT_EQ(t.report().cost.max(), 100u);
  EXPECT_EQ(t.report().overruns, 0u);
}

TYPED_TEST(TickTest, StopsAfterMaxTicks) {
  using S = TypeParam;
  TestApp<S> app;
  Config c = rate_hz(1000);
  c.max_ticks = 3;
  Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
  for (int k = 0; k < 2; ++k) TestFixture::tick(t, 1000u * k);
  EXPECT_FALSE(t.finished());
  TestFixture::tick(t, 2000);
  EXPECT_TRUE(t.finished());
  EXPECT_FALSE(t.on_sample(3000));  // no fourth step
  EXPECT_EQ(t.report().steps, 3u);
}

// A fake board for rt::run: each wait_for_interrupt() is one tick period.
struct FakeBoard {
  static inline bool (*sample)(void*) = nullptr;
  static inline void (*control)(void*) = nullptr;
  static inline void* ctx = nullptr;
  static inline std::uint32_t rate = 0;
  static inline std::uint32_t now = 0;
  static inline bool running = false;
  static inline int stops = 0;
  static bool tick_start(std::uint32_t hz, bool (*s)(void*), void (*c)(void*), void* x) {
    if (hz == 0 || hz > kHz) return false;
    sample = s;
    control = c;
    ctx = x;
    rate = hz;
    running = true;
    return true;
  }
  static void tick_stop() {
    running = false;
    ++stops;
  }
  static std::uint32_t cost_now() { return g_clock; }
  static std::uint32_t cost_mask() { return 0xFFFFFFFFu; }
  static std::uint32_t cost_hz() { return kHz; }
  static void wait_for_interrupt() {
    ASSERT_TRUE(running);
    now += kHz / rate;
    g_clock = now;
    if (sample(ctx)) control(ctx);
  }
  static std::uint32_t stack_used_bytes() { return 640; }
  static std::uint32_t stack_size_bytes() { return 16384; }
};

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

}  // namespace

namespace {

// ---- Limits validated at configuration ----
TYPED_TEST(TickTest, NanOrNegativeActuatorLimitRefused) {
  using S = TypeParam;
  for (S bad : {std::numeric_limits<S>::quiet_NaN(), S(-1)}) {
    TestApp<S> app;
    app.limit = bad;
    Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
    EXPECT_EQ(t.supervisor().reason(), Error::invalid_parameter);
    TestFixture::tick(t, 0);
    EXPECT_EQ(app.controls, 0);  // the law never drives an unlimited / pinned output
    EXPECT_EQ(app.u_out[0], S(0));
    EXPECT_EQ(t.rearm(), Error::invalid_parameter);  // and cannot be re-armed
    EXPECT_TRUE(t.supervisor().safe());
  }
  TestApp<S> ok;
  ok.limit = std::numeric_limits<S>::infinity();  // +inf: unlimited, valid
  Tick<TestApp<S>> t(ok, rate_hz(1000), kHz, 0xFFFFFFFFu);
  EXPECT_FALSE(t.supervisor().safe());
}

TYPED_TEST(TickTest, NanOrNegativeSensorLimitRefused) {
  using S = TypeParam;
  for (S bad : {std::numeric_limits<S>::quiet_NaN(), S(-1)}) {
    TestApp<S> app;
    app.sensor_limit = bad;  // NaN would accept every sample, a negative limit none
    Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
    EXPECT_EQ(t.supervisor().reason(), Error::invalid_parameter);
    TestFixture::tick(t, 0);
    EXPECT_EQ(app.controls, 0);
  }
}

// ---- 64-bit counters ----
TYPED_TEST(TickTest, TickAndStepCountsAre64Bit) {
  static_assert(std::is_same_v<decltype(std::declval<Report>().ticks), std::uint64_t>);
  static_assert(std::is_same_v<decltype(std::declval<Report>().steps), std::uint64_t>);
  static_assert(std::is_same_v<decltype(std::declval<Report>().trip_tick), std::uint64_t>);
  static_assert(std::is_same_v<decltype(std::declval<Report>().missed_ticks), std::uint64_t>);
  static_assert(std::is_same_v<decltype(std::declval<Report>().overruns), std::uint64_t>);
  SUCCEED();
}

// ---- Safe re-arm through Tick ----
TYPED_TEST(TickTest, RearmRefusedWhileSensorStillBadThenClearsAndResets) {
  using S = TypeParam;
  ResettableApp<S> app;
  Tick<ResettableApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  tick_any(t, 0);
  app.next[1] = std::numeric_limits<S>::quiet_NaN();
  tick_any(t, 1000);
  ASSERT_EQ(t.supervisor().reason(), Error::non_finite);
  EXPECT_EQ(t.rearm(), Error::non_finite);  // the NaN is still there: refused
  EXPECT_TRUE(t.supervisor().safe());
  EXPECT_EQ(t.supervisor().reason(), Error::non_finite);
  EXPECT_EQ(t.supervisor().trip_tick(), 2u);
  EXPECT_EQ(app.resets, 0);
  app.next[1] = S(0);
  tick_any(t, 2000);  // a good sample, still safe
  EXPECT_TRUE(t.supervisor().safe());
  const int controls = app.controls;
  EXPECT_EQ(t.rearm(), Error::none);
  EXPECT_FALSE(t.supervisor().safe());
  EXPECT_EQ(t.supervisor().reason(), Error::none);
  EXPECT_EQ(t.supervisor().trip_tick(), 0u);
  EXPECT_EQ(app.resets, 1);  // the controller/estimator restarted
  tick_any(t, 3000);
  EXPECT_EQ(app.controls, controls + 1);
  EXPECT_EQ(app.u_out[0], S(1));                // 2 * 0.5, the law drives again
  EXPECT_EQ(t.report().faults.non_finite, 1u);  // counts kept
}

TYPED_TEST(TickTest, RearmRefusedWhileStepStillRunning) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  ASSERT_TRUE(t.on_sample(0));
  EXPECT_FALSE(t.on_sample(1000));
  EXPECT_FALSE(t.on_sample(2000));
  EXPECT_FALSE(t.on_sample(3000));  // stuck step: overrun
  ASSERT_EQ(t.supervisor().reason(), Error::overrun);
  EXPECT_EQ(t.rearm(), Error::overrun);
  EXPECT_TRUE(t.supervisor().safe());
  g_clock = 3500;
  t.on_control([] { return g_clock; });  // finally done
  EXPECT_EQ(t.rearm(), Error::none);
  // The stuck-tick streak was reset: one late tick does not trip again at once.
  ASSERT_TRUE(t.on_sample(4000));
  EXPECT_FALSE(t.on_sample(5000));
  EXPECT_FALSE(t.supervisor().safe());
}

TYPED_TEST(TickTest, RearmRefusedWhileStaleAndResetsOverrunStreak) {
  using S = TypeParam;
  TestApp<S> app;
  Tick<TestApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);  // streak limit 3, stale limit 3
  app.fresh = false;
  for (int k = 0; k < 4; ++k) tick_any(t, 1000u * k);
  ASSERT_EQ(t.supervisor().reason(), Error::stale);
  EXPECT_EQ(t.rearm(), Error::stale);  // still no fresh data
  app.fresh = true;
  // Two over-budget steps while safe build an overrun streak of 2.
  tick_any(t, 4000, 1500);
  tick_any(t, 6000, 1500);
  EXPECT_EQ(t.rearm(), Error::none);
  // With the streak reset, one more overrun is only the first of a new streak.
  tick_any(t, 8000, 1500);
  EXPECT_FALSE(t.supervisor().safe());
  EXPECT_EQ(t.report().overruns, 3u);
}

TYPED_TEST(TickTest, RearmWhileRunningIsANoOp) {
  using S = TypeParam;
  ResettableApp<S> app;
  Tick<ResettableApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  EXPECT_EQ(t.rearm(), Error::none);
  EXPECT_EQ(app.resets, 0);
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

// ---- Interleavings of the two interrupt priorities ----
// The sampling ISR (on_sample) is injected once at the k-th preemption point of a control
// step, for every k. The step's law returns NaN (trip non_finite) and the injected ISR finds
// the step running with overrun_streak_limit 1 (trip overrun). Whichever trips first must be
// the latched reason with its own tick, and each fault is counted exactly once.
template <class S>
struct Injector {
  Tick<TestApp<S>>* t = nullptr;
  int at = 0, seen = 0;
  bool isr_tripped = false;
  static void hook(void* p) {
    auto* x = static_cast<Injector*>(p);
    if (x->seen++ != x->at) return;
    const bool before = x->t->supervisor().safe();
    x->t->on_sample(5000);
    x->isr_tripped = !before && x->t->supervisor().safe();
  }
};

TYPED_TEST(TickTest, InterleavedSamplingIsrNeverLosesTheFirstReasonOrACount) {
  using S = TypeParam;
  namespace host = attractor::rt::host;
  int points = -1;
  for (int at = -1; at < 64; ++at) {  // at = -1: no injection, count the points
    TestApp<S> app;
    app.nan_output = true;
    Config c = rate_hz(1000);
    c.supervisor.overrun_streak_limit = 1;
    Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
    Injector<S> inj;
    inj.t = &t;
    inj.at = at;
    g_clock = 4000;
    ASSERT_TRUE(t.on_sample(4000));
    host::preempt_ctx = &inj;
    host::preempt_hook = &Injector<S>::hook;
    t.on_control([] { return g_clock + 1500; });  // over budget: the step counts an overrun
    host::preempt_hook = nullptr;
    if (at < 0) {
      points = inj.seen;
      continue;
    }
    if (at >= points) break;
    const auto& sup = t.supervisor();
    EXPECT_TRUE(sup.safe()) << "point " << at;
    if (inj.isr_tripped) {
      EXPECT_EQ(sup.reason(), Error::overrun) << "point " << at;
      EXPECT_EQ(sup.trip_tick(), 2u) << "point " << at;
    } else {
      EXPECT_EQ(sup.reason(), Error::non_finite) << "point " << at;
      EXPECT_EQ(sup.trip_tick(), 1u) << "point " << at;
    }
    EXPECT_EQ(t.report().missed_ticks, 1u) << "point " << at;
    // The ISR's stuck-step fault and the step's own over-budget count: neither lost.
    EXPECT_EQ(sup.faults().overrun, 2u) << "point " << at;
    EXPECT_EQ(app.u_out[0], S(0)) << "point " << at;
  }
  EXPECT_GE(points, 4);  // the hook ran at several points of the step
}

// The same with the step tripping through Supervisor::trip (a stale sample over its limit)
// instead of fault(): trip()'s check-then-act is one critical section, so an ISR that
// pre-empts the step either trips first (its reason and tick stay latched) or finds the state
// already safe. Without the section the step would overwrite the ISR's reason.
TYPED_TEST(TickTest, InterleavedSamplingIsrCannotSplitAStepTrip) {
  using S = TypeParam;
  namespace host = attractor::rt::host;
  int points = -1;
  for (int at = -1; at < 64; ++at) {
    TestApp<S> app;
    app.fresh = false;
    Config c = rate_hz(1000);
    c.supervisor.overrun_streak_limit = 1;
    c.supervisor.stale_limit = 0;  // the first stale sample trips
    Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
    Injector<S> inj;
    inj.t = &t;
    inj.at = at;
    g_clock = 4000;
    ASSERT_TRUE(t.on_sample(4000));
    host::preempt_ctx = &inj;
    host::preempt_hook = &Injector<S>::hook;
    t.on_control([] { return g_clock; });
    host::preempt_hook = nullptr;
    if (at < 0) {
      points = inj.seen;
      continue;
    }
    if (at >= points) break;
    const auto& sup = t.supervisor();
    EXPECT_TRUE(sup.safe()) << "point " << at;
    if (inj.isr_tripped) {
      EXPECT_EQ(sup.reason(), Error::overrun) << "point " << at;
      EXPECT_EQ(sup.trip_tick(), 2u) << "point " << at;
    } else {
      EXPECT_EQ(sup.reason(), Error::stale) << "point " << at;
      EXPECT_EQ(sup.trip_tick(), 1u) << "point " << at;
    }
    EXPECT_EQ(app.u_out[0], S(0)) << "point " << at;
  }
  EXPECT_GE(points, 2);  // after the trip: the ISR finds the state safe
}

// A trip is stamped with the tick of the step that found the fault, not the latest tick: a
// sampling ISR that fires again before the (lower-priority) step runs advances the tick count
// and misses its tick, but the step still belongs to the tick that sampled it.
TYPED_TEST(TickTest, TripCarriesTheStepsTickNotTheLatest) {
  using S = TypeParam;
  TestApp<S> app;
  app.nan_output = true;
  Config c = rate_hz(1000);
  c.supervisor.overrun_streak_limit = 100;  // the missed tick alone does not trip
  Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
  g_clock = 1000;
  ASSERT_TRUE(t.on_sample(1000));   // tick 1 samples and pends its step
  EXPECT_FALSE(t.on_sample(2000));  // tick 2 fires before the step ran: missed
  t.on_control([] { return g_clock; });
  EXPECT_EQ(t.supervisor().reason(), Error::non_finite);
  EXPECT_EQ(t.supervisor().trip_tick(), 1u);
  EXPECT_EQ(t.report().missed_ticks, 1u);
}

}  // namespace
