// SPDX-License-Identifier: Apache-2.0
// The skate-rotor firmware's loop on a script of host frames (scripted_lockstep.hpp), as the link
// tests run it: the loop with the controller's default configuration at h = 1 ms, a run of the
// script to a goodbye at 1 kHz, and the actuator answers the firmware wrote, in order.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "attractor/link/lockstep.hpp"
#include "attractor/plants/skate_rotor/controller.hpp"
#include "attractor/rt/loop.hpp"
#include "scripted_lockstep.hpp"
#include "skate_frames.hpp"

namespace skate_lockstep {

using Loop = attractor::rt::Loop<skate_frames::Link, attractor::SkateRotorController<float>>;
namespace script = scripted_lockstep;

inline Loop make_loop() {
  auto ctrl = attractor::SkateRotorController<float>::make(attractor::SkateRotorControllerConfig<float>{}, 1e-3f);
  EXPECT_TRUE(ctrl.ok());
  return Loop(skate_frames::Link{}, *ctrl);
}

// The script so far, ended by a goodbye, through the firmware's lockstep.
inline attractor::rt::Report run(Loop& loop) {
  script::send(attractor::hil::encode(attractor::link::FrameType::goodbye, 0, 0));
  return attractor::link::run_lockstep<script::Board, script::Port>(loop, loop.source(), attractor::rt::rate_hz(1000));
}

struct Answer {
  attractor::link::FrameHeader header;
  attractor::link::ActuatorReport<double> report;
};
inline std::vector<Answer> answers() {
  using namespace attractor::link;
  std::vector<Answer> a;
  for (const FrameView& v : script::out) {
    if (v.header.type != FrameType::actuator) continue;
    a.push_back({v.header, {}});
    EXPECT_EQ(unpack_actuator(v, a.back().report), LinkError::none);
  }
  return a;
}

}  // namespace skate_lockstep
