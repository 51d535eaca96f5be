// SPDX-License-Identifier: Apache-2.0
// rt::Tick's configuration and recovery: limits validated at construction, 64-bit counters, and
// the safe re-arm (refused while the fault persists, the app's reset() hook). Float and double.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "tick_fixture.hpp"

using attractor::Error;
using namespace attractor::rt;
using namespace tick_fixture;

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

}  // namespace
