// SPDX-License-Identifier: Apache-2.0
// rt::Tick, one tick at a time: accounting, the sensor rules (NaN, out of range, stale, hold-off),
// overruns and the budget, the envelope, a wrapping cost clock. Float and double.
#include <gtest/gtest.h>

#include <limits>

#include "no_alloc.hpp"
#include "tick_fixture.hpp"

using attractor::Error;
using attractor::Vec;
using namespace attractor::rt;
using namespace tick_fixture;

namespace {

// An app with only the four required members: AppBase's defaults are no sensor limit, no
// actuator limit and no envelope, so huge values pass through unclipped and nothing trips.
template <class S>
struct MinimalApp : AppBase<S, 1, 1> {
  using Sensors = typename AppBase<S, 1, 1>::Sensors;
  using Command = typename AppBase<S, 1, 1>::Command;
  Command u = Command::Zero();
  S y_in = S(0);
  bool sample(Sensors& y) {
    y[0] = S(1e30);
    return true;
  }
  void estimate(const Sensors& y, S) { y_in = y[0]; }
  Command control() { return Command::Constant(S(-1e30)); }
  void actuate(const Command& c) { u = c; }
};

TYPED_TEST(TickTest, AppBaseDefaultsLimitNothing) {
  using S = TypeParam;
  MinimalApp<S> app;
  Tick<MinimalApp<S>> t(app, rate_hz(1000), kHz, 0xFFFFFFFFu);
  for (std::uint32_t k = 0; k < 5; ++k) tick_any(t, 1000u * k);
  EXPECT_EQ(t.report().mode, Mode::running) << to_string(t.report().reason);
  EXPECT_EQ(t.report().steps, 5u);
  EXPECT_EQ(app.y_in, S(1e30)) << "no sensor limit";
  EXPECT_EQ(app.u[0], S(-1e30)) << "no actuator limit";
  EXPECT_EQ(t.report().faults.saturated, 0u);
  EXPECT_EQ(t.report().faults.out_of_range, 0u);
  EXPECT_EQ(t.report().faults.envelope, 0u);
}

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

}  // namespace
