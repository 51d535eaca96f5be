// SPDX-License-Identifier: Apache-2.0
// A sensor stuck at a value the firmware cannot use, over the link as in SIL (link/hil_link.hpp,
// link/lockstep.hpp): every CRC-valid sensor frame is a tick with its own answer naming its tick
// and verdict, whatever made it unusable (NaN, beyond the wire range, beyond the controller's
// limit, implausible); stale_limit + 1 such ticks in a row trip the safe state, zero torque from
// then on. Undecodable junk is answered at most once per gap between decodable frames, and its
// answer names no frame the host still waits for. Scripted frames through run_lockstep.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "link_faults.hpp"
#include "skate_lockstep.hpp"

using namespace attractor;
using namespace attractor::link;

namespace stuck_test {

using namespace skate_lockstep;  // Loop, make_loop, run, Answer, answers, script

enum class Stuck { nan, wire_range, controller_limit, implausible };

// The skate near upright, spoiled as `s` says (packed unchecked, as the runner's faults are).
hil::Bytes stuck_frame(std::uint32_t seq, std::uint32_t tick, bool spoiled, Stuck s) {
  SensorReading<double> r;
  r.gyro << 0.01, 0.02, 0.03;
  r.vertical << 0.0, 0.05, std::sqrt(1.0 - 0.05 * 0.05);
  if (spoiled && s == Stuck::nan) r.vertical[1] = std::numeric_limits<double>::quiet_NaN();
  if (spoiled && s == Stuck::wire_range) r.gyro[2] = 5000.0;       // the wire's 1000 rad/s
  if (spoiled && s == Stuck::controller_limit) r.gyro[2] = 500.0;  // the controller's 50 rad/s
  if (spoiled && s == Stuck::implausible) r.vertical *= 1.3;       // |Γ| = 1.3
  return hil::encode(FrameType::sensor, seq, tick, &r);
}

}  // namespace stuck_test

// Five good ticks, then six with the sensor stuck: six answers, each naming its tick with the
// class's verdict; the safe state on the 4th stuck tick (stale_limit 3), zero torque from then on.
TEST(LinkStuckSensor, EveryUnusableFrameIsATickAndTheFourthTrips) {
  namespace st = stuck_test;
  struct Case {
    st::Stuck stuck;
    Verdict verdict;
    LinkError counted;  // none: no LinkError counted
    Error reason;       // the runtime's, as in SIL: a sample held for its range trips out_of_range
  };
  const Case cases[] = {{st::Stuck::nan, Verdict::non_finite, LinkError::non_finite, Error::stale},
                        {st::Stuck::wire_range, Verdict::out_of_range, LinkError::out_of_range, Error::stale},
                        {st::Stuck::controller_limit, Verdict::held, LinkError::none, Error::out_of_range},
                        {st::Stuck::implausible, Verdict::implausible, LinkError::none, Error::stale}};
  constexpr int kGood = 5, kStuck = 6;
  for (const Case& c : cases) {
    SCOPED_TRACE(int(c.stuck));
    st::script::clear();
    st::script::send(skate_frames::control_wire(FrameType::hello));
    for (int i = 0; i < kGood + kStuck; ++i)
      st::script::send(st::stuck_frame(std::uint32_t(i), std::uint32_t(i + 1), i >= kGood, c.stuck));
    st::Loop loop = st::make_loop();
    const rt::Report r = st::run(loop);
    const std::vector<st::Answer> a = st::answers();
    ASSERT_EQ(a.size(), std::size_t(kGood + kStuck)) << "one answer per sensor frame, refused ones included";
    for (int i = 0; i < kGood + kStuck; ++i) {
      EXPECT_EQ(a[i].header.tick, std::uint32_t(i + 1)) << "each answer names its frame's tick";
      EXPECT_EQ(a[i].report.verdict, i < kGood ? Verdict::fresh : c.verdict) << i;
      const bool tripped = i >= kGood + 3;  // the 4th stuck tick and after
      EXPECT_EQ(a[i].report.mode, tripped ? rt::Mode::safe : rt::Mode::running) << i;
      if (tripped) EXPECT_TRUE(a[i].report.torque.isZero(0.0)) << "zero torque in the safe state, tick " << i + 1;
    }
    EXPECT_FALSE(a[kGood + 2].report.torque.isZero(0.0)) << "held samples keep the command until the trip";
    EXPECT_EQ(r.mode, rt::Mode::safe);
    EXPECT_EQ(r.reason, c.reason);
    EXPECT_EQ(r.trip_tick, std::uint64_t(kGood + 4)) << "stale_limit + 1 unusable ticks in a row";
    const LinkCounters& n = loop.source().counters();
    if (c.counted != LinkError::none) EXPECT_EQ(n.rejected_by(c.counted), std::uint32_t(kStuck));
    EXPECT_EQ(n.total_rejected(), c.counted != LinkError::none ? std::uint32_t(kStuck) : 0u);
    EXPECT_EQ(n.gaps + n.repeated + n.wild, 0u) << "a refused frame consumes its own sequence number";
  }
}

// Junk is answered at most once per gap between decodable frames (noise cannot multiply
// answers), a refused frame opens the next gap like any decodable one, and the junk answer names
// the newest tick used, never the next frame's: a host matching by tick cannot take it for one.
TEST(LinkStuckSensor, JunkIsAnsweredOncePerGapAndNamesNoNewFrame) {
  namespace st = stuck_test;
  st::script::clear();
  st::script::send(skate_frames::control_wire(FrameType::hello));
  st::script::send(st::stuck_frame(0, 1, false, st::Stuck::nan));
  st::script::send(hil::Bytes{0x11, 0x22, 0x00, 0x33, 0x00, 0x44, 0x00});  // three segments: one answer
  st::script::send(st::stuck_frame(1, 2, true, st::Stuck::nan));           // refused: its own answer
  st::script::send(hil::Bytes{0x55, 0x00, 0x66, 0x00});                    // a new gap: one answer
  st::script::send(st::stuck_frame(2, 3, false, st::Stuck::nan));
  st::Loop loop = st::make_loop();
  (void)st::run(loop);
  const std::vector<st::Answer> a = st::answers();
  ASSERT_EQ(a.size(), 5u);
  const Verdict want[] = {Verdict::fresh, Verdict::rejected, Verdict::non_finite, Verdict::rejected, Verdict::fresh};
  const std::uint32_t tick[] = {1, 1, 2, 2, 3};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(a[i].report.verdict, want[i]) << i;
    EXPECT_EQ(a[i].header.tick, tick[i]) << i << ": junk names the newest tick used, frames their own";
  }
  EXPECT_EQ(loop.source().counters().total_rejected(), 6u) << "five junk segments and the NaN frame, all counted";
}

// A status request is answered with a status frame naming the request's tick (the host's probe
// to place a rejected answer, hil/hil-run/answers.hpp); a periodic one names the answer it follows.
TEST(LinkStuckSensor, AStatusReplyNamesTheRequestsTick) {
  namespace st = stuck_test;
  st::script::clear();
  st::script::send(skate_frames::control_wire(FrameType::hello));
  st::script::send(st::stuck_frame(0, 1, false, st::Stuck::nan));
  st::script::send(hil::Bytes{0x11, 0x00});
  st::script::send(hil::encode(FrameType::status_request, 1, 0x80000001u));
  st::Loop loop = st::make_loop();
  (void)st::run(loop);
  std::vector<FrameType> types;
  for (const FrameView& v : st::script::out) types.push_back(v.header.type);
  ASSERT_EQ(types.size(), 5u);  // hello, fresh, rejected, status, goodbye
  EXPECT_EQ(types[3], FrameType::status);
  EXPECT_EQ(st::script::out[3].header.tick, 0x80000001u);
}

// The power-on report's cost statistics cover every run, not only the last.
TEST(LinkStuckSensor, ThePowerOnReportsCostCoversEveryRun) {
  rt::Report earlier, later;
  earlier.cost.add(100);
  earlier.cost.add(300);
  later.cost.add(200);
  const rt::Report r = link::detail::after(earlier, later);
  EXPECT_EQ(r.cost.count(), 3u);
  EXPECT_EQ(r.cost.min(), 100u);
  EXPECT_EQ(r.cost.max(), 300u);
  EXPECT_EQ(r.cost.sum(), 600u);
  std::uint64_t in_buckets = 0;
  for (int i = 0; i < rt::Stats::bins; ++i) in_buckets += r.cost.bin(i);
  EXPECT_EQ(in_buckets, 3u);
}
