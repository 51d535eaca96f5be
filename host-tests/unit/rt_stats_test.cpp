// rt::CostStats: constant-time min/max/mean/histogram of per-tick costs.
#include <gtest/gtest.h>

#include "attractor/rt/stats.hpp"
#include "attractor/rt/supervisor.hpp"
#include "no_alloc.hpp"

using attractor::Error;
using attractor::rt::CostStats;
using attractor::rt::Mode;
using attractor::rt::Supervisor;
using attractor::rt::SupervisorConfig;

TEST(CostStats, EmptyIsZero) {
  CostStats<8> s(2);
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.min(), 0u);
  EXPECT_EQ(s.max(), 0u);
  EXPECT_EQ(s.mean(), 0.0);
  EXPECT_EQ(s.quantile_bin(0.5), -1);
  EXPECT_EQ(s.median_estimate(), 0u);
}

TEST(CostStats, MinMaxMeanAndBuckets) {
  CostStats<8> s(2);  // buckets of 4 counts: [0,4) [4,8) ... [28, inf)
  attractor::test::NoAllocGuard guard;
  for (std::uint32_t v : {5u, 3u, 9u, 100u, 4u}) s.add(v);
  EXPECT_EQ(s.count(), 5u);
  EXPECT_EQ(s.min(), 3u);
  EXPECT_EQ(s.max(), 100u);
  EXPECT_EQ(s.sum(), 121u);
  EXPECT_DOUBLE_EQ(s.mean(), 121.0 / 5.0);
  EXPECT_EQ(s.bin(0), 1u);  // 3
  EXPECT_EQ(s.bin(1), 2u);  // 5, 4
  EXPECT_EQ(s.bin(2), 1u);  // 9
  EXPECT_EQ(s.bin(7), 1u);  // 100 lands in the overflow bucket
  EXPECT_EQ(s.bin(8), 0u);  // out of range index reads 0
  EXPECT_EQ(s.bin_low(2), 8u);
  EXPECT_EQ(s.quantile_bin(0.5), 1);
  EXPECT_EQ(s.quantile_bin(1.0), 7);
  EXPECT_EQ(s.quantile_bin(0.0), 0);
}

TEST(CostStats, MedianExactForConstantCost) {
  CostStats<32> s(CostStats<32>::shift_for_range(50000));
  for (int i = 0; i < 1000; ++i) s.add(1234u);
  EXPECT_EQ(s.median_estimate(), 1234u);
  EXPECT_EQ(s.min(), 1234u);
  EXPECT_EQ(s.max(), 1234u);
}

TEST(CostStats, ShiftCoversRange) {
  EXPECT_EQ(CostStats<32>::shift_for_range(32), 0u);
  EXPECT_EQ(CostStats<32>::shift_for_range(33), 1u);
  EXPECT_EQ(CostStats<32>::shift_for_range(50000), 11u);  // 32 << 11 = 65536 >= 50000
  EXPECT_EQ(CostStats<32>::shift_for_range(0xFFFFFFFFu), 27u);
  CostStats<32> s(CostStats<32>::shift_for_range(50000));
  s.add(49999u);
  EXPECT_EQ(s.bin(31), 0u);  // inside the range: not in the overflow bucket
  EXPECT_EQ(s.bin(24), 1u);  // 49999 >> 11 = 24
}

TEST(Supervisor, LatchesFirstReasonAndCountsAll) {
  Supervisor sup;
  EXPECT_EQ(sup.mode(), Mode::running);
  EXPECT_EQ(sup.reason(), Error::none);
  sup.fault(Error::none, 1);
  EXPECT_FALSE(sup.safe());
  sup.fault(Error::stale, 7);
  EXPECT_TRUE(sup.safe());
  EXPECT_EQ(sup.reason(), Error::stale);
  EXPECT_EQ(sup.trip_tick(), 7u);
  sup.fault(Error::non_finite, 9);
  sup.fault(Error::envelope, 10);
  EXPECT_EQ(sup.reason(), Error::stale);  // first reason stays
  EXPECT_EQ(sup.trip_tick(), 7u);
  EXPECT_EQ(sup.faults().stale, 1u);
  EXPECT_EQ(sup.faults().non_finite, 1u);
  EXPECT_EQ(sup.faults().envelope, 1u);
  sup.rearm();
  EXPECT_FALSE(sup.safe());
  EXPECT_EQ(sup.reason(), Error::none);
  EXPECT_EQ(sup.faults().stale, 1u);  // counters survive a rearm
}

TEST(Supervisor, StreakLimitAtLeastOne) {
  SupervisorConfig c;
  c.overrun_streak_limit = 0;
  Supervisor sup(c);
  EXPECT_EQ(sup.config().overrun_streak_limit, 1u);
}
