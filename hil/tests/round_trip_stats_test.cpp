// SPDX-License-Identifier: Apache-2.0
// attractor-hil's round-trip accumulator (hil/hil-run/round_trip_stats.hpp): nearest-rank
// percentiles exact on known samples, the log-linear bucket edges, the overflow bucket, and the
// wire sizes docs/hil.md quotes for the link's bytes per tick.
#include <gtest/gtest.h>

#include <cstdint>

#include "attractor/link/frame_layout.hpp"
#include "round_trip_stats.hpp"

namespace {

using hil_run::RoundTripStats;

TEST(RoundTripStats, EmptyReportsZero) {
  const RoundTripStats s;
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.percentile(5000), 0u);
  EXPECT_EQ(s.max(), 0u);
}

TEST(RoundTripStats, ExactPercentilesOfOneToHundred) {
  RoundTripStats s;
  for (std::uint64_t v = 100; v >= 1; --v) s.add(v);  // order does not matter
  EXPECT_EQ(s.count(), 100u);
  EXPECT_EQ(s.min(), 1u);
  EXPECT_EQ(s.max(), 100u);
  EXPECT_EQ(s.percentile(5000), 50u);  // rank 50
  EXPECT_EQ(s.percentile(9900), 99u);  // rank 99 (not 100: integer rank, 2-µs bucket [98, 99])
  EXPECT_EQ(s.percentile(10000), 100u);
  EXPECT_EQ(s.percentile(0), 1u);    // rank 1
  EXPECT_EQ(s.percentile(100), 1u);  // p1 of 100: rank 1
  EXPECT_EQ(s.percentile(101), 2u);  // just above: rank 2
}

TEST(RoundTripStats, EqualSamplesAreExactInAWideBucket) {
  RoundTripStats s;
  for (int i = 0; i < 1000; ++i) s.add(123457);  // bucket width 2^11 here
  EXPECT_EQ(s.percentile(5000), 123457u);
  EXPECT_EQ(s.percentile(9900), 123457u);
}

TEST(RoundTripStats, WideBucketIsATightUpperBound) {
  RoundTripStats s;
  s.add(1000);
  s.add(5000);  // max above: the p50 bucket's upper edge is not clipped away
  const std::uint64_t p50 = s.percentile(5000);
  EXPECT_GE(p50, 1000u);
  EXPECT_LE(p50, 1000u + 1000u / RoundTripStats::kSub);  // at most 1/kSub above
  EXPECT_EQ(p50, 1007u);                                 // [992, 1008): width 16 at 2^9..2^10
}

TEST(RoundTripStats, BucketEdges) {
  // every value below 2 kSub has its own bucket
  for (std::uint64_t v = 0; v < 2 * RoundTripStats::kSub; ++v) {
    EXPECT_EQ(RoundTripStats::bucket_of(v), int(v));
    EXPECT_EQ(RoundTripStats::upper_of(int(v)), v);
  }
  EXPECT_EQ(RoundTripStats::bucket_of(64), 64);  // first 2-wide bucket [64, 65]
  EXPECT_EQ(RoundTripStats::bucket_of(65), 64);
  EXPECT_EQ(RoundTripStats::bucket_of(66), 65);
  EXPECT_EQ(RoundTripStats::upper_of(64), 65u);
  EXPECT_EQ(RoundTripStats::bucket_of(127), 95);
  EXPECT_EQ(RoundTripStats::bucket_of(128), 96);  // next octave, width 4
  EXPECT_EQ(RoundTripStats::upper_of(96), 131u);
  // buckets tile the range: each starts one past its predecessor's upper edge
  for (int b = 1; b < RoundTripStats::kBuckets - 1; ++b)
    ASSERT_EQ(RoundTripStats::bucket_of(RoundTripStats::upper_of(b - 1) + 1), b) << b;
  EXPECT_EQ(RoundTripStats::upper_of(RoundTripStats::kBuckets - 2), RoundTripStats::kOverflow - 1);
  EXPECT_EQ(RoundTripStats::bucket_of(RoundTripStats::kOverflow - 1), RoundTripStats::kBuckets - 2);
}

TEST(RoundTripStats, OverflowBucketKeepsCountAndReportsTheMax) {
  RoundTripStats s;
  for (int i = 0; i < 98; ++i) s.add(10);
  s.add(RoundTripStats::kOverflow);
  s.add(~std::uint64_t(0) / 2);  // a stall far beyond the range
  EXPECT_EQ(RoundTripStats::bucket_of(RoundTripStats::kOverflow), RoundTripStats::kBuckets - 1);
  EXPECT_EQ(RoundTripStats::bucket_of(RoundTripStats::kOverflow * 3 / 2), RoundTripStats::kBuckets - 1);  // in range
  EXPECT_EQ(s.count(), 100u);
  EXPECT_EQ(s.percentile(9800), 10u);
  EXPECT_EQ(s.percentile(9900), ~std::uint64_t(0) / 2);  // in the overflow bucket: the max
  EXPECT_EQ(s.octave_count(RoundTripStats::kOctaves - 1), 2u);
  EXPECT_EQ(s.octave_count(0), 98u);
}

TEST(RoundTripStats, OctavesPartitionTheSamples) {
  RoundTripStats s;
  const std::uint64_t v[] = {
      0, 63, 64, 127, 128, 1000, 999999, (std::uint64_t(1) << 23), RoundTripStats::kOverflow - 1};
  for (std::uint64_t x : v) s.add(x);
  EXPECT_EQ(s.octave_count(0), 2u);  // [0, 64)
  EXPECT_EQ(s.octave_count(1), 2u);  // [64, 128)
  EXPECT_EQ(s.octave_count(2), 1u);  // [128, 256)
  EXPECT_EQ(RoundTripStats::octave_low(18), std::uint64_t(1) << 23);
  EXPECT_EQ(s.octave_count(18), 2u);  // [2^23, 2^24)
  std::uint64_t total = 0;
  for (int k = 0; k < RoundTripStats::kOctaves; ++k) total += s.octave_count(k);
  EXPECT_EQ(total, s.count());
}

// docs/hil.md's bytes per tick: COBS(header + payload + CRC) + 1 overhead byte + the delimiter,
// plus the runner's leading 0x00 on every sensor frame: 53 + 29 = 82 bytes, 82.9 with the status
// frame's share (88 bytes every 100 answers), within the 92 bytes a 921600-baud UART (8N1) moves
// in a millisecond. The firmware sends nothing between its frames (hil.skate_qemu_wire_budget
// measures it).
TEST(WireSizes, MatchTheDocumentedBytesPerTick) {
  using attractor::link::FrameType;
  EXPECT_EQ(attractor::link::layout::actuator_payload_size, 13u);
  EXPECT_EQ(attractor::link::wire_size_of(FrameType::sensor), 52u);
  EXPECT_EQ(attractor::link::wire_size_of(FrameType::actuator), 29u);
  EXPECT_EQ(attractor::link::wire_size_of(FrameType::status), 88u);
  const std::size_t per_tick =
      1 + attractor::link::wire_size_of(FrameType::sensor) + attractor::link::wire_size_of(FrameType::actuator);
  EXPECT_EQ(per_tick, 82u);
  const double with_status = double(per_tick) + double(attractor::link::wire_size_of(FrameType::status)) / 100.0;
  EXPECT_NEAR(with_status, 82.9, 0.05) << "the summary's bytes per tick over the UART";
  EXPECT_LE(per_tick * 10u * 1000u, 921600u) << "one tick's bytes at 1 kHz fit 921600 baud";
}

}  // namespace
