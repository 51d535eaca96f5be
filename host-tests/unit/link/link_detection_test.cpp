// SPDX-License-Identifier: Apache-2.0
// The firmware link's detection rules one by one, on a bare link::HilLink for the skate: a late
// sample, the sequence baseline a hello sets, an over-long frame, an implausible vertical, and a
// reset frame ending the lockstep run unanswered.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "attractor/link/lockstep.hpp"
#include "attractor/plants/skate_rotor/controller.hpp"
#include "attractor/rt/loop.hpp"
#include "scripted_lockstep.hpp"
#include "skate_frames.hpp"

using namespace attractor;
using namespace attractor::link;
using namespace skate_frames;

namespace {

using FwLink = skate_frames::Link;
using FwLoop = rt::Loop<FwLink, SkateRotorController<float>>;

// Γ2 of the sample the link gives the controller now, and whether it is fresh.
float held_gamma2(FwLink& link, bool& fresh) {
  FwLink::Measurement y;
  fresh = link.sample(y);
  return y[SkateRotorSignals<float>::vertical + 1];
}

}  // namespace

TEST(LinkLockstep, ASampleNoNewerThanTheNewestUsedIsLateAndHeld) {
  FwLink link;
  bool fresh = false;
  ASSERT_EQ(feed(link, sensor_wire(0, 10, 0.1)), LinkEvent::tick);
  ASSERT_EQ(feed(link, sensor_wire(1, 11, 0.2)), LinkEvent::tick);
  EXPECT_FLOAT_EQ(held_gamma2(link, fresh), 0.2f);
  EXPECT_TRUE(fresh);
  // Sequence advances, sample time goes back: the sample of tick 9, sent late.
  ASSERT_EQ(feed(link, sensor_wire(2, 9, 0.3)), LinkEvent::tick);
  EXPECT_EQ(link.counters().late, 1u);
  EXPECT_FLOAT_EQ(held_gamma2(link, fresh), 0.2f) << "the late sample is not used";
  EXPECT_FALSE(fresh);
  // The same sample time again is no newer either.
  ASSERT_EQ(feed(link, sensor_wire(3, 11, 0.4)), LinkEvent::tick);
  EXPECT_EQ(link.counters().late, 2u);
  EXPECT_FALSE(link.fresh());
  // A forward jump is a drop, not lateness; a repeat is a repeat, whatever its tick.
  ASSERT_EQ(feed(link, sensor_wire(5, 14, 0.5)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  EXPECT_EQ(link.counters().gaps, 1u);
  ASSERT_EQ(feed(link, sensor_wire(5, 3, 0.6)), LinkEvent::tick);
  EXPECT_EQ(link.counters().repeated, 1u);
  EXPECT_EQ(link.counters().late, 2u);
  EXPECT_EQ(link.counters().total_rejected() + link.counters().implausible, 0u);
  // hello starts a new run: its first sample is fresh whatever its tick.
  ASSERT_EQ(feed(link, control_wire(FrameType::hello)), LinkEvent::hello);
  ASSERT_EQ(feed(link, sensor_wire(0, 1, 0.7)), LinkEvent::tick);
  EXPECT_TRUE(link.fresh());
  EXPECT_EQ(link.counters().late, 0u);
}

// The first sensor frame after hello (or after power-on) sets the sequence baseline, whatever
// its number: the runner keeps numbering across a reset and its new hello. So a frame lost
// before the first one received is not a gap, and a rejected first frame is counted once, as
// rejected, not also as a gap. From the first frame on, every lost frame is one gap.
TEST(LinkLockstep, TheFirstFrameAfterHelloSetsTheSequence) {
  FwLink link;
  ASSERT_EQ(feed(link, control_wire(FrameType::hello)), LinkEvent::hello);
  std::vector<std::uint8_t> bad = sensor_wire(0, 1, 0.1);
  bad[bad.size() / 2] ^= 0x01;  // corrupt, never a zero byte (the sensor frame has none there)
  ASSERT_NE(bad[bad.size() / 2], 0);
  ASSERT_EQ(feed(link, bad), LinkEvent::tick);
  ASSERT_EQ(feed(link, sensor_wire(1, 2, 0.1)), LinkEvent::tick);
  EXPECT_EQ(link.counters().total_rejected(), 1u);
  EXPECT_EQ(link.counters().gaps, 0u) << "a rejected first frame is not also a gap";
  EXPECT_TRUE(link.fresh());
  // A new run whose numbering starts elsewhere (after a reset): no gap, no repeat.
  ASSERT_EQ(feed(link, control_wire(FrameType::hello)), LinkEvent::hello);
  ASSERT_EQ(feed(link, sensor_wire(523, 1, 0.2)), LinkEvent::tick);
  EXPECT_EQ(link.counters().gaps + link.counters().repeated, 0u);
  EXPECT_TRUE(link.fresh());
  ASSERT_EQ(feed(link, sensor_wire(525, 2, 0.3)), LinkEvent::tick);
  EXPECT_EQ(link.counters().gaps, 1u) << "from the first frame on, a lost frame is a gap";
  // A first number in the upper half of the sequence space is a start, not a repeat.
  ASSERT_EQ(feed(link, control_wire(FrameType::hello)), LinkEvent::hello);
  ASSERT_EQ(feed(link, sensor_wire(0x90000000u, 1, 0.4)), LinkEvent::tick);
  EXPECT_EQ(link.counters().gaps + link.counters().repeated, 0u);
  EXPECT_TRUE(link.fresh());
  // ... and so is one just below the expected 0 (within the repeat window, were it a baseline).
  ASSERT_EQ(feed(link, control_wire(FrameType::hello)), LinkEvent::hello);
  ASSERT_EQ(feed(link, sensor_wire(0xFFFFFFFFu, 1, 0.5)), LinkEvent::tick);
  EXPECT_EQ(link.counters().repeated, 0u);
  EXPECT_TRUE(link.fresh());
}

// A frame longer than any valid one is still one event: a tick, counted bad_length, answered.
TEST(LinkLockstep, AnOverlongFrameIsARejectedTick) {
  FwLink link;
  ASSERT_EQ(feed(link, sensor_wire(0, 1, 0.1)), LinkEvent::tick);
  std::vector<std::uint8_t> junk(layout::max_encoded_size + 40, std::uint8_t(0x11));
  junk.push_back(0);
  EXPECT_EQ(feed(link, junk), LinkEvent::tick);
  EXPECT_EQ(link.counters().rejected_by(LinkError::bad_length), 1u);
  EXPECT_FALSE(link.fresh());
  ASSERT_EQ(feed(link, sensor_wire(2, 3, 0.2)), LinkEvent::tick);
  EXPECT_EQ(link.counters().gaps, 0u) << "the over-long frame consumed its sequence number";
}

TEST(LinkLockstep, AVerticalOffTheUnitSphereIsImplausibleAndHeld) {
  FwLink link;
  bool fresh = false;
  ASSERT_EQ(feed(link, sensor_wire(0, 1, 0.1)), LinkEvent::tick);
  ASSERT_EQ(feed(link, sensor_wire(1, 2, 0.2, 1.3)), LinkEvent::tick);  // |Γ| = 1.3: biased or scaled
  EXPECT_EQ(link.counters().implausible, 1u);
  EXPECT_FLOAT_EQ(held_gamma2(link, fresh), 0.1f);
  EXPECT_FALSE(fresh);
  EXPECT_EQ(link.counters().gaps + link.counters().late, 0u) << "its sequence and tick were consumed";
  ASSERT_EQ(feed(link, sensor_wire(2, 3, 0.3, 0.95)), LinkEvent::tick);  // within ±0.1: noise
  EXPECT_FLOAT_EQ(held_gamma2(link, fresh), 0.3f * 0.95f);
  EXPECT_TRUE(fresh);
  EXPECT_EQ(link.counters().implausible, 1u);
}

TEST(LinkLockstep, AResetFrameEndsTheRunUnansweredForTheAppToReboot) {
  namespace script = scripted_lockstep;
  script::clear();
  for (const auto& f : {control_wire(FrameType::hello), sensor_wire(0, 1, 0.1), control_wire(FrameType::reset),
                        control_wire(FrameType::goodbye)}) {
    script::send(f);
  }
  auto ctrl = SkateRotorController<float>::make(SkateRotorControllerConfig<float>{}, 1e-3f);
  ASSERT_TRUE(ctrl.ok());
  FwLoop loop(FwLink{}, *ctrl);
  const rt::Report r = run_lockstep<script::Board, script::Port>(loop, loop.source(), rt::rate_hz(1000));
  EXPECT_TRUE(loop.source().reset_requested());
  EXPECT_EQ(script::out.size(), 2u) << "hello and the sensor frame answered, the reset not";
  EXPECT_EQ(r.steps, 1u);
  EXPECT_EQ(script::in.size(), control_wire(FrameType::goodbye).size()) << "stopped at the reset";
}
