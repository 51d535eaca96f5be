// SPDX-License-Identifier: Apache-2.0
// rt::CostStats: constant-time min/max/mean/histogram of per-tick costs.
#include <gtest/gtest.h>

#include <type_traits>

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

// quantile_bin clamps q to [0, 1] and the rank to at least 1: q = 0 names the minimum's bucket,
// not bucket 0 (empty here), and q outside [0, 1] names the extreme buckets.
TEST(CostStats, QuantileBinClampsToTheSamplesBuckets) {
  CostStats<8> s(2);  // buckets of 4 counts; every sample in buckets 2 and 3
  for (std::uint32_t v : {9u, 10u, 11u, 13u}) s.add(v);
  ASSERT_EQ(s.bin(0), 0u);
  EXPECT_EQ(s.quantile_bin(0.0), 2);   // rank 1: the minimum's bucket
  EXPECT_EQ(s.quantile_bin(-1.0), 2);  // q below 0 is q = 0
  EXPECT_EQ(s.quantile_bin(0.75), 2);  // rank 3 is the last sample of bucket 2
  EXPECT_EQ(s.quantile_bin(1.0), 3);   // the maximum's bucket, not the overflow bucket
  EXPECT_EQ(s.quantile_bin(2.0), 3);   // q above 1 is q = 1
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

// The median of a spread distribution is the median, not the middle of its bucket.
TEST(CostStats, MedianOfSpreadSamplesIsTheMedian) {
  CostStats<32> s(2);  // buckets of 4 counts over [0, 128)
  for (std::uint32_t v = 0; v < 100; ++v) s.add(99u - v);
  EXPECT_EQ(s.median_estimate(), 49u);  // lower median of 0..99
  CostStats<32> t(2);
  for (std::uint32_t v : {1u, 2u, 3u, 50u, 51u}) t.add(v);
  EXPECT_EQ(t.median_estimate(), 3u);
}

// Inside a bucket the estimate spreads the bucket's samples over their true extent — from the
// smallest sample (not the bucket's low edge) to the largest (not its high edge) — and puts a
// lone sample at the bucket's middle. Each case has the true median as its answer.
TEST(CostStats, MedianInterpolatesOverTheSamplesExtent) {
  CostStats<32> low(2);  // buckets of 4: [0,3], [4,7], [8,11], ...
  for (std::uint32_t v : {2u, 3u, 3u}) low.add(v);
  EXPECT_EQ(low.median_estimate(), 3u);  // spread over [2,3], not [0,3]
  CostStats<32> high(2);
  for (std::uint32_t v : {4u, 5u, 6u}) high.add(v);
  EXPECT_EQ(high.median_estimate(), 5u);  // spread over [4,6], not [4,7]
  CostStats<32> lone(2);
  for (std::uint32_t v : {1u, 10u, 20u}) lone.add(v);
  EXPECT_EQ(lone.median_estimate(), 10u);  // the only sample of [8,11], at its middle
}

// A median in the overflow bucket lies between the overflow samples, not at the histogram's
// range edge (the old estimate said 7 here).
TEST(CostStats, MedianInTheOverflowBucket) {
  CostStats<8> s(0);  // 8 buckets of 1 count; bucket 7 collects >= 7
  for (std::uint32_t v : {1u, 100u, 200u, 300u, 400u}) s.add(v);
  EXPECT_EQ(s.quantile_bin(0.5), 7);
  EXPECT_EQ(s.median_estimate(), 200u);
}

// A sample exactly at the overflow bucket's lower edge belongs to it, and is its smallest
// sample: the median is spread over [7, 9], not over [8, 9].
TEST(CostStats, ASampleAtTheOverflowEdgeIsAnOverflowSample) {
  CostStats<8> s(0);  // bucket 7 collects >= 7
  for (std::uint32_t v : {7u, 8u, 9u}) s.add(v);
  EXPECT_EQ(s.bin(7), 3u);
  EXPECT_EQ(s.median_estimate(), 8u);
}

// Count, sum and buckets are 64-bit: no wrap after 2^32 samples (49.7 days at 1 kHz).
TEST(CostStats, CountersAre64Bit) {
  static_assert(std::is_same_v<decltype(CostStats<32>{}.count()), std::uint64_t>);
  static_assert(std::is_same_v<decltype(CostStats<32>{}.bin(0)), std::uint64_t>);
  static_assert(std::is_same_v<decltype(CostStats<32>{}.sum()), std::uint64_t>);
  CostStats<32> s(0);
  for (int i = 0; i < 4; ++i) s.add(0xFFFFFFFFu);
  EXPECT_EQ(s.sum(), 4ull * 0xFFFFFFFFull);  // beyond 32 bits
  EXPECT_EQ(s.mean(), 4294967295.0);
}

TEST(Supervisor, TripTickIs64Bit) {
  Supervisor sup;
  sup.trip(Error::overrun, 0x100000005ull);
  EXPECT_EQ(sup.trip_tick(), 0x100000005ull);
}

// Supervisor::rearm against a trip from the sampling ISR landing at each point inside it
// (injected through rt::preemption_point): the state is never "safe, reason none" nor
// "running" with a stale reason or trip tick.
TEST(Supervisor, RearmIsConsistentAgainstATripAtEachPoint) {
  namespace host = attractor::rt::host;
  struct Ctx {
    Supervisor sup;
    int at = 0, seen = 0;
  };
  int points = 0;
  for (int at = 0; at < 8; ++at) {
    Ctx c;
    c.at = at;
    c.sup.trip(Error::non_finite, 5);
    host::preempt_ctx = &c;
    host::preempt_hook = [](void* p) {
      auto* x = static_cast<Ctx*>(p);
      if (x->seen++ == x->at) x->sup.fault(Error::overrun, 9);
    };
    c.sup.rearm();
    host::preempt_hook = nullptr;
    if (at == 0) points = c.seen;
    if (at >= points) break;
    EXPECT_EQ(c.sup.safe(), c.sup.reason() != Error::none) << "point " << at;
    EXPECT_EQ(c.sup.safe(), c.sup.trip_tick() != 0u) << "point " << at;
    EXPECT_EQ(c.sup.faults().overrun, 1u) << "point " << at;
  }
  EXPECT_GE(points, 2);  // the hook really ran inside rearm()
}
