// SPDX-License-Identifier: Apache-2.0
// The runner's answer rule (hil/hil-run/answers.hpp, docs/hil.md "Framing and recovery"): an
// answer `rejected` is never taken for a frame's answer by its tick; a status-request probe
// tells whether it answered junk before the frame (the frame's own answer follows: used) or the
// frame itself, spoiled on the line (the probe's status frame comes first: it stands for the
// frame). The firmware's frames are written into a pipe before the runner reads them, in the
// order a firmware would send them (it handles bytes in order).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "answers.hpp"

namespace answers_test {

using namespace attractor::link;
using Bytes = std::vector<std::uint8_t>;

Bytes answer(std::uint32_t tick, Verdict v) {
  ActuatorReport<double> a;
  a.mode = attractor::rt::Mode::running;
  a.verdict = v;
  std::uint8_t out[layout::max_wire_size];
  std::size_t n = 0;
  EXPECT_EQ(encode_actuator_frame(0, tick, a, out, sizeof out, n), LinkError::none);
  return Bytes(out, out + n);
}
Bytes status(std::uint32_t tick) {
  std::uint8_t out[layout::max_wire_size];
  std::size_t n = 0;
  EXPECT_EQ(encode_status_frame(0, tick, StatusReport{}, out, sizeof out, n), LinkError::none);
  return Bytes(out, out + n);
}

// The firmware's frames, then what the runner makes of one tick whose frame names tick 5.
struct Outcome {
  hil_run::TickAnswers got;
  std::size_t sent = 0;  // bytes the runner wrote (its probes)
};
Outcome collect(const std::vector<Bytes>& from_firmware) {
  int to_runner[2], to_firmware[2];
  EXPECT_EQ(::pipe(to_runner), 0);
  EXPECT_EQ(::pipe(to_firmware), 0);
  for (const Bytes& b : from_firmware) EXPECT_EQ(::write(to_runner[1], b.data(), b.size()), ssize_t(b.size()));
  Outcome o;
  {
    hil_run::Peer peer(to_runner[0], to_firmware[1], 5.0);
    attractor::hil::Burst burst;
    burst.frames.push_back(Bytes{0});
    burst.answers = 1;
    burst.answer_tick = 5;
    o.got = hil_run::collect_answers(peer, burst, 7, 50, 1.0);
    o.sent = std::size_t(peer.bytes_sent_);
  }
  ::close(to_runner[1]);
  ::close(to_firmware[0]);
  return o;
}

}  // namespace answers_test

TEST(Answers, JunkBeforeAGoodFrameCostsNoGoodAnswer) {
  namespace at = answers_test;
  const at::Outcome o = at::collect({at::answer(4, Verdict::rejected), at::answer(5, Verdict::fresh)});
  ASSERT_EQ(o.got.answers.size(), 1u);
  EXPECT_EQ(o.got.answers[0].report.verdict, Verdict::fresh) << "the good frame's answer is used";
  EXPECT_EQ(o.got.junk, 1);
  EXPECT_EQ(o.got.probes, 1);
  EXPECT_EQ(o.got.strays, 0);
}

TEST(Answers, ARejectedAnswerStandsForASpoiledFrameOnceTheProbeIsAnswered) {
  namespace at = answers_test;
  const at::Outcome o = at::collect({at::answer(4, Verdict::rejected), at::status(5u + hil_run::kProbeOffset)});
  ASSERT_EQ(o.got.answers.size(), 1u);
  EXPECT_EQ(o.got.answers[0].report.verdict, Verdict::rejected);
  EXPECT_EQ(o.got.junk, 0);
  EXPECT_EQ(o.got.probes, 1);
  EXPECT_GT(o.sent, 0u) << "the probe went to the firmware";
}

TEST(Answers, APeriodicStatusIsNotTheProbesAnswer) {
  namespace at = answers_test;
  const at::Outcome o =
      at::collect({at::answer(4, Verdict::rejected), at::status(4), at::answer(5, Verdict::non_finite)});
  ASSERT_EQ(o.got.answers.size(), 1u);
  EXPECT_EQ(o.got.answers[0].report.verdict, Verdict::non_finite) << "a refused frame's answer names its tick";
  EXPECT_EQ(o.got.junk, 1);
}
