// SPDX-License-Identifier: Apache-2.0
// Line faults at the byte level against the firmware's link code (link::HilLink, the skate's
// wire, the unchanged skate controller in rt::Tick), compiled for the host: junk between
// frames, a 0x00 inside a frame, a lost delimiter, a frame with a wild sequence number or tick
// index, one by one; then a seeded fuzz of single corruptions (bit flips, substitutions,
// insertions including 0x00, deletions, truncations, bursts) with the runner's recovery (a lone
// 0x00 after a missing answer, then the frame again; hil/hil-run/answers.hpp): no good frame is
// lost beyond the one the corruption touched, and none trips the safe state.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "attractor/link/hil_link.hpp"
#include "attractor/plants/skate_rotor/controller.hpp"
#include "attractor/plants/skate_rotor/wire.hpp"
#include "attractor/rt/loop.hpp"
#include "attractor/rt/tick.hpp"
#include "skate_frames.hpp"

using namespace attractor;
using namespace attractor::link;

namespace {

using WfLink = skate_frames::Link;
using skate_frames::control_wire;
using skate_frames::feed_events;
using skate_frames::sensor_wire;

// The one event a frame raises.
LinkEvent wf_one(WfLink& link, const std::vector<std::uint8_t>& bytes) {
  const std::vector<LinkEvent> e = feed_events(link, bytes);
  EXPECT_EQ(e.size(), 1u);
  return e.empty() ? LinkEvent::none : e.back();
}
// The verdict and tick of the answer the link would send now.
ActuatorReport<double> wf_answer(WfLink& link, FrameHeader& h) {
  rt::Supervisor sup;
  std::uint8_t out[layout::max_wire_size];
  const std::size_t n = link.reply(sup, 0, out, sizeof out);
  ActuatorReport<double> a;
  EXPECT_EQ(decode_actuator_frame(out, n - 1, h, a), LinkError::none);
  return a;
}

}  // namespace

// Junk between two frames is rejected (one answer) and consumes no sequence number: the good
// frame after it is used, no gap, no repeat.
TEST(LinkBytes, JunkBetweenFramesCostsNoGoodFrame) {
  WfLink link;
  ASSERT_EQ(wf_one(link, sensor_wire(0, 1, 0.1)), LinkEvent::tick);
  EXPECT_EQ(feed_events(link, {0x11, 0x22, 0x00, 0x33, 0x00, 0x44, 0x55, 0x00}).size(), 1u)
      << "three rejected segments, one answer";
  FrameHeader h;
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::rejected);
  EXPECT_EQ(h.tick, 1u) << "a rejected segment's answer names the baseline, no frame the host waits for";
  EXPECT_EQ(link.counters().total_rejected(), 3u);
  ASSERT_EQ(wf_one(link, sensor_wire(1, 2, 0.2)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  EXPECT_EQ(link.counters().gaps + link.counters().repeated, 0u);
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::fresh);
  EXPECT_EQ(h.tick, 2u);
}

// Every answer carries the verdict of the frame it answers and names its tick; an implausible
// frame still moves the tick the link runs on (a rejected segment after it names that tick).
TEST(LinkBytes, EachAnswerCarriesItsFramesVerdict) {
  WfLink link;
  FrameHeader h;
  ASSERT_EQ(wf_one(link, sensor_wire(0, 5, 0.1)), LinkEvent::tick);
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::fresh);
  ASSERT_EQ(wf_one(link, sensor_wire(1, 4, 0.2)), LinkEvent::tick);  // older than the sample used
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::late);
  EXPECT_EQ(h.tick, 4u);
  ASSERT_EQ(wf_one(link, sensor_wire(2, 6, 0.2, 1.3)), LinkEvent::tick);  // |Γ| = 1.3
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::implausible);
  EXPECT_EQ(link.tick(), 6u);
  EXPECT_EQ(feed_events(link, {0x11, 0x22, 0x00}).size(), 1u);
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::rejected);
  EXPECT_EQ(h.tick, 6u) << "junk names the implausible frame's tick, the newest used";
}

// A 0x00 inside a frame splits it in two rejected segments: one answer, not two (a second one
// would be read as the next tick's).
TEST(LinkBytes, ASpuriousZeroCostsOneAnswer) {
  WfLink link;
  ASSERT_EQ(wf_one(link, sensor_wire(0, 1, 0.1)), LinkEvent::tick);
  std::vector<std::uint8_t> split = sensor_wire(1, 2, 0.2);
  split.insert(split.begin() + 30, 0x00);
  EXPECT_EQ(feed_events(link, split).size(), 1u);
  EXPECT_EQ(link.counters().total_rejected(), 2u);
  ASSERT_EQ(wf_one(link, sensor_wire(2, 3, 0.3)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  EXPECT_EQ(link.counters().gaps, 0u) << "the split frame's number is accounted for by its rejection";
}

// A frame without its delimiter joins the next one: one rejected segment; the one after is used.
TEST(LinkBytes, ALostDelimiterCostsTheTwoFramesItJoined) {
  WfLink link;
  ASSERT_EQ(wf_one(link, sensor_wire(0, 1, 0.1)), LinkEvent::tick);
  std::vector<std::uint8_t> joined = sensor_wire(1, 2, 0.2);
  joined.pop_back();
  const std::vector<std::uint8_t> next = sensor_wire(2, 3, 0.3);
  joined.insert(joined.end(), next.begin(), next.end());
  EXPECT_EQ(feed_events(link, joined).size(), 1u);
  ASSERT_EQ(wf_one(link, sensor_wire(3, 4, 0.4)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  EXPECT_EQ(link.counters().gaps, 1u) << "two numbers lost, one rejected segment";
}

// One CRC-valid frame with a wild sequence number or tick index is counted, answered with its
// own tick, not used, and does not move the baseline: the frames after it are used.
TEST(LinkBytes, AWildFrameCannotPoisonLaterFrames) {
  WfLink link;
  FrameHeader h;
  ASSERT_EQ(wf_one(link, sensor_wire(0, 1, 0.1)), LinkEvent::tick);
  ASSERT_EQ(wf_one(link, sensor_wire(1 + 0x40000000u, 2, 0.2)), LinkEvent::tick);
  EXPECT_FALSE(link.fresh());
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::wild);
  ASSERT_EQ(wf_one(link, sensor_wire(1, 2, 0.2)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  ASSERT_EQ(wf_one(link, sensor_wire(2, 3 + (1u << 30), 0.3)), LinkEvent::tick);
  EXPECT_FALSE(link.fresh());
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::wild);
  EXPECT_EQ(h.tick, 3 + (1u << 30)) << "the answer names the frame it answers";
  ASSERT_EQ(wf_one(link, sensor_wire(3, 4, 0.4)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  // Within the window a jump is a gap, not wild.
  ASSERT_EQ(wf_one(link, sensor_wire(3 + kWindow, 4 + kWindow, 0.5)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  EXPECT_EQ(link.counters().wild, 2u);
  EXPECT_EQ(link.counters().gaps, kWindow - 1u) << "the wild frames accounted for their own numbers";
  EXPECT_EQ(link.counters().repeated + link.counters().late, 0u);
}

// The wire carries the tick modulo 2^32 (49.7 days at 1 kHz): every comparison is modulo 2^32,
// so a run across the wrap goes on as if nothing happened (no wild, late or gap).
TEST(LinkBytes, TheTickIndexWrapsModulo2To32) {
  WfLink link;
  FrameHeader h;
  ASSERT_EQ(wf_one(link, sensor_wire(0, 0xFFFFFFFEu, 0.1)), LinkEvent::tick);
  ASSERT_EQ(wf_one(link, sensor_wire(1, 0xFFFFFFFFu, 0.2)), LinkEvent::tick);
  ASSERT_EQ(wf_one(link, sensor_wire(2, 0u, 0.3)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::fresh);
  EXPECT_EQ(h.tick, 0u);
  ASSERT_EQ(wf_one(link, sensor_wire(3, 0xFFFFFFFFu, 0.4)), LinkEvent::tick);
  EXPECT_EQ(wf_answer(link, h).verdict, Verdict::late) << "a tick before the wrap is older than tick 0 after it";
  ASSERT_EQ(wf_one(link, sensor_wire(4, 1u, 0.5)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  EXPECT_EQ(link.counters().wild + link.counters().gaps + link.counters().repeated, 0u);
  EXPECT_EQ(link.counters().late, 1u);
}

// A wild first frame after hello becomes the baseline; two genuine frames in a row that agree
// with each other move the baseline back: the link recovers after one lost sample.
TEST(LinkBytes, TwoAgreeingFramesReplaceAWildBaseline) {
  WfLink link;
  ASSERT_EQ(wf_one(link, control_wire(FrameType::hello)), LinkEvent::hello);
  ASSERT_EQ(wf_one(link, sensor_wire(0x7000, 1u << 30, 0.1)), LinkEvent::tick);
  ASSERT_EQ(wf_one(link, sensor_wire(1, 2, 0.2)), LinkEvent::tick);
  EXPECT_FALSE(link.fresh());
  ASSERT_EQ(wf_one(link, sensor_wire(2, 3, 0.3)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  ASSERT_EQ(wf_one(link, sensor_wire(3, 4, 0.4)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  EXPECT_EQ(link.counters().wild, 1u);
}

// ---------------------------------------------------------------- seeded fuzz of single corruptions

namespace {

struct WfClock {
  static std::uint32_t now() { return 0u; }
};

// One corruption of `f` (a frame with its delimiter), chosen by `rng`: what the line
// model lists. Returns the kind (for the failure message).
int wf_corrupt(std::vector<std::uint8_t>& f, std::mt19937& rng) {
  auto pick = [&rng](std::size_t n) { return std::size_t(rng() % std::uint32_t(n)); };
  auto any_byte = [&rng] { return std::uint8_t(rng() % 4u == 0u ? 0u : rng() % 256u); };  // 0x00 often
  const int kind = int(rng() % 6u);
  switch (kind) {
    case 0: f[pick(f.size())] ^= std::uint8_t(1u << (rng() % 8u)); break;  // bit flip (delimiter included)
    case 1: {                                                              // substitution
      const std::size_t at = pick(f.size());
      std::uint8_t b = any_byte();
      f[at] = b == f[at] ? std::uint8_t(b ^ 0x5Au) : b;
      break;
    }
    case 2: f.insert(f.begin() + std::ptrdiff_t(pick(f.size() + 1)), any_byte()); break;  // insertion
    case 3: f.erase(f.begin() + std::ptrdiff_t(pick(f.size()))); break;                   // deletion
    case 4: f.resize(pick(f.size())); break;                                              // truncation
    default: {                                                                            // burst
      const std::size_t len = 1 + pick(32);
      const std::size_t at = pick(f.size() + 1);
      std::vector<std::uint8_t> burst(len);
      for (std::uint8_t& b : burst) b = any_byte();
      if (rng() % 2u == 0u) {
        f.insert(f.begin() + std::ptrdiff_t(at), burst.begin(), burst.end());
      } else {
        for (std::size_t i = 0; i < len && at + i < f.size(); ++i) f[at + i] = burst[i];
      }
      break;
    }
  }
  return kind;
}

}  // namespace

TEST(LinkFuzz, ASingleCorruptionLosesOnlyItsFrameAndNeverTripsTheSafeState) {
  using Loop = rt::Loop<WfLink, SkateRotorController<float>>;
  auto ctrl = SkateRotorController<float>::make(SkateRotorControllerConfig<float>{}, 1e-3f);
  ASSERT_TRUE(ctrl.ok());
  constexpr int kRuns = 400, kFrames = 12, kHit = 5;
  int kinds[6] = {};
  for (int seed = 0; seed < kRuns; ++seed) {
    std::mt19937 rng(std::uint32_t(seed) * 2654435761u + 1u);
    Loop loop(WfLink{}, *ctrl);
    WfLink& link = loop.source();
    rt::Tick<Loop> engine(loop, rt::rate_hz(1000), 1000000u, 0xFFFFFFFFu);
    int fresh_after_hit = 0, ticks = 0;
    // Feeds bytes; every tick event runs one engine step. Returns the tick events.
    auto deliver = [&](const std::vector<std::uint8_t>& bytes) {
      int events = 0;
      for (std::uint8_t b : bytes) {
        const LinkEvent e = link.receive(b);
        if (e != LinkEvent::tick) continue;
        ++events;
        ++ticks;
        if (engine.on_sample(WfClock::now())) engine.on_control([] { return WfClock::now(); });
      }
      return events;
    };
    for (int k = 1; k <= kFrames; ++k) {
      // As the runner sends it: a leading 0x00 ends whatever junk came before (hil/faults).
      std::vector<std::uint8_t> good = sensor_wire(std::uint32_t(k - 1), std::uint32_t(k), 0.05);
      good.insert(good.begin(), std::uint8_t(0));
      std::vector<std::uint8_t> sent = good;
      if (k == kHit) ++kinds[wf_corrupt(sent, rng)];
      int events = deliver(sent);
      if (k > kHit && link.fresh()) ++fresh_after_hit;
      // The runner's recovery (answers.hpp): no answer -> a lone 0x00; still none -> the frame again.
      if (events == 0) events += deliver({0});
      if (events == 0) {
        events += deliver(good);
        if (k > kHit && link.fresh()) ++fresh_after_hit;
      }
      ASSERT_GE(events, 1) << "seed " << seed << ": frame " << k << " never answered";
    }
    EXPECT_EQ(fresh_after_hit, kFrames - kHit) << "seed " << seed << ": a good frame after the corruption was lost";
    EXPECT_EQ(engine.supervisor().mode(), rt::Mode::running)
        << "seed " << seed << ": " << to_string(engine.supervisor().reason());
    EXPECT_LE(ticks, kFrames + 1) << "seed " << seed << ": one fault, at most one extra tick";
  }
  for (int k = 0; k < 6; ++k) EXPECT_GT(kinds[k], 30) << "corruption kind " << k << " exercised";
}
