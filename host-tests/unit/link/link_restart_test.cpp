// SPDX-License-Identifier: Apache-2.0
// A hello after ticks starts a new run (link/lockstep.hpp): the runtime restarts (a run that
// tripped runs again), the link's per-run counters start from zero, and the firmware's power-on
// counters and report still cover every run. Scripted frames through run_lockstep, every answer
// decoded as the runner would.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "link_faults.hpp"
#include "skate_lockstep.hpp"

using namespace attractor;
using namespace attractor::link;

namespace restart_test {

using namespace skate_lockstep;  // Loop, make_loop, run, answers, script

void send_hello() { script::send(skate_frames::control_wire(FrameType::hello)); }
// A sensor frame of the skate near upright; scale 1.3 makes |Γ| = 1.3, an implausible reading.
void send_sensor(std::uint32_t seq, std::uint32_t tick, double scale) {
  script::send(skate_frames::sensor_wire(seq, tick, 0.05, scale));
}
}  // namespace restart_test

TEST(LinkRestart, AHelloAfterTicksRestartsTheRuntimeAndBanksTheCounters) {
  namespace rs = restart_test;
  rs::script::clear();
  constexpr int kImplausible = 6, kSecondRun = 20;
  // Run 1: one good frame, then implausible ones: held samples until the stale rule trips.
  rs::send_hello();
  rs::send_sensor(0, 1, 1.0);
  for (int i = 1; i <= kImplausible; ++i) rs::send_sensor(std::uint32_t(i), std::uint32_t(i + 1), 1.3);
  // Run 2: a new hello, then good frames only.
  rs::send_hello();
  for (int i = 0; i < kSecondRun; ++i) rs::send_sensor(std::uint32_t(i), std::uint32_t(i + 1), 1.0);

  rs::Loop loop = rs::make_loop();
  const rt::Report r = rs::run(loop);

  const std::vector<rs::Answer> answers = rs::answers();
  ASSERT_EQ(answers.size(), std::size_t(1 + kImplausible + kSecondRun));
  EXPECT_EQ(answers[kImplausible].report.mode, rt::Mode::safe) << "run 1 tripped on its held samples";
  EXPECT_EQ(answers.back().report.mode, rt::Mode::running) << "the hello restarted the runtime";
  EXPECT_EQ(r.mode, rt::Mode::safe) << "the power-on report keeps run 1's trip";
  EXPECT_EQ(r.reason, Error::stale);
  EXPECT_EQ(r.steps, std::uint64_t(1 + kImplausible + kSecondRun)) << "the report covers both runs";
  EXPECT_EQ(loop.source().counters().implausible, 0u) << "per-run counters start again at hello";
  EXPECT_EQ(loop.source().power_on_counters().implausible, std::uint32_t(kImplausible))
      << "the firmware's report banks every run's counters";
}
