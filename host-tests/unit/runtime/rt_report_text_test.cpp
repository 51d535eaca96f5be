// SPDX-License-Identifier: Apache-2.0
// rt::write_report, the lines a firmware prints at its end (and scripts read back: the HIL
// runner, run-main): every field of a report with distinct values, in its place, one write per
// line; and cost counts in nanoseconds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attractor/rt/report_text.hpp"

using namespace attractor::rt;

namespace {

// A report whose every number differs from the others, so that a field printed in another's
// place shows.
Report distinct_report() {
  Report r;
  r.rate_hz = 500;
  r.ticks = 1234;
  r.steps = 1230;
  r.missed_ticks = 3;
  r.overruns = 4;
  r.budget = 2000;
  r.cost_hz = 25000000;  // 40 ns a count
  r.cost = Stats(4);     // buckets of 16 counts
  for (std::uint32_t c : {100u, 120u, 130u, 2000u}) r.cost.add(c);
  r.mode = Mode::safe;
  r.reason = attractor::Error::envelope;
  r.trip_tick = 77;
  r.faults.non_finite = 11;
  r.faults.out_of_range = 12;
  r.faults.stale = 13;
  r.faults.overrun = 14;
  r.faults.envelope = 15;
  r.faults.saturated = 16;
  r.stack_used = 640;
  r.stack_size = 16384;
  return r;
}

TEST(ReportText, EveryFieldInItsPlaceOneWriteALine) {
  std::vector<std::string> lines;
  write_report(distinct_report(), [&](const char* s) { lines.emplace_back(s); });
  const std::vector<std::string> expected = {
      "rt: 1234 ticks at 500 Hz, 1230 steps, 3 missed, 4 overruns\n",
      "rt: mode safe, reason envelope at tick 77\n",
      "rt: faults non_finite 11 out_of_range 12 stale 13 overrun 14 envelope 15 saturated 16\n",
      // mean (100 + 120 + 130 + 2000) / 4 = 587.5; the median (the second sample) is alone in
      // its bucket [112, 127]: the estimate is the bucket's middle, 120 (rt/stats.hpp).
      "rt: cost counts min 100 median~ 120 max 2000 mean 587.50 budget 2000 @ 25000000 Hz\n",
      "rt: cost ns min 4000 mean 23500.0 max 80000 (= instructions under QEMU -icount shift=0)\n",
      // 2000 counts is past the last bucket (31 * 16 = 496): it is counted there.
      "rt: histogram (bucket 16 counts): [96]=1 [112]=1 [128]=1 [496]=1\n",
      "rt: stack 640 of 16384 bytes\n",
  };
  EXPECT_EQ(lines, expected);
}

TEST(ReportText, CountsToNanoseconds) {
  EXPECT_DOUBLE_EQ(counts_to_ns(25, 25000000u), 1000.0);
  EXPECT_DOUBLE_EQ(counts_to_ns(3, 1000000u), 3000.0);
  EXPECT_DOUBLE_EQ(counts_to_ns(3, 0u), 0.0) << "no cost clock: no time, not a division by zero";
}

}  // namespace
