// SPDX-License-Identifier: Apache-2.0
// One tick's answers (docs/hil.md "Framing and recovery"): the runner waits for as many answers
// as it sent frames. An answer counts when it names the tick its frames carried, or answers a
// rejected segment (verdict rejected: the firmware could not read the tick and guessed); a
// corrupt answer counts too (its tick unreadable; the torque is held). Any other answer is a
// stray — a second answer to an earlier tick, e.g. to a frame the runner sent again — and is
// discarded and counted: a torque is never applied a tick late. A status frame (the firmware's
// counters, every N answers: link/status_frame.hpp) is kept as the latest, and is no answer.
// No answer within --answer-timeout: first a lone 0x00 (it ends a frame whose delimiter was lost
// or cut off, which the firmware then answers; harmless otherwise: an empty segment is ignored),
// then, after another period, the tick's last frame again; and so on until --timeout of wall
// time without an answer, when the firmware counts as silent (exit 8).
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/status_frame.hpp"
#include "link_faults.hpp"
#include "transport.hpp"

namespace hil_run {

struct Answer {
  attractor::link::ActuatorReport<double> report;
  bool readable = false;  // decoded as an actuator frame (else: a corrupt answer, torque held)
};

struct TickAnswers {
  std::vector<Answer> answers;        // in arrival order, strays left out
  long strays = 0;                    // answers naming another tick, discarded
  long delimiters = 0;                // lone 0x00 sent after a missing answer
  long resends = 0;                   // the tick's frame sent again
  bool silent = false;                // --timeout passed without the answers
  bool boot = false;                  // a boot frame came instead (the firmware rebooted)
  attractor::rt::BootInfo boot_info;  // what it announced
  bool has_status = false;            // a status frame came: `status` is the latest
  attractor::link::StatusReport status;
  std::chrono::steady_clock::time_point first;  // when the first answer (stray or not) arrived
};

// A decoded status frame into `t` (true), else false.
inline bool take_status(const attractor::link::FrameView& v, attractor::link::LinkError e, TickAnswers& t) {
  using namespace attractor::link;
  if (e != LinkError::none || v.header.type != FrameType::status) return false;
  StatusReport s;
  if (unpack_status(v, s) != LinkError::none) return false;
  t.status = s;
  t.has_status = true;
  return true;
}

inline TickAnswers collect_answers(Peer& peer, const attractor::hil::Burst& burst, int answer_timeout_ms,
                                   double timeout_s) {
  using namespace attractor::link;
  TickAnswers t;
  FrameView v;
  LinkError e;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int missing = 0;  // answer periods passed without an answer
  while (int(t.answers.size()) < burst.answers) {
    if (!peer.receive(v, e, answer_timeout_ms)) {
      if (peer.closed() || std::chrono::steady_clock::now() > deadline) {
        t.silent = true;
        return t;
      }
      if (++missing % 2 == 1) {
        peer.send({0});
        ++t.delimiters;
      } else {
        peer.send(burst.frames.back());
        ++t.resends;
      }
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    deadline = now + std::chrono::duration<double>(timeout_s);
    if (take_status(v, e, t)) continue;
    if (t.first == std::chrono::steady_clock::time_point{}) t.first = now;
    if (e == LinkError::none && v.header.type == FrameType::boot && unpack_boot(v, t.boot_info) == LinkError::none) {
      t.boot = true;
      return t;
    }
    if (e == LinkError::none && v.header.type != FrameType::actuator) {  // a late hello answer
      ++t.strays;
      continue;
    }
    Answer a;
    if (e == LinkError::none) e = unpack_actuator(v, a.report);
    a.readable = e == LinkError::none;
    if (a.readable && a.report.verdict != Verdict::rejected && v.header.tick != burst.answer_tick) {
      ++t.strays;
      continue;
    }
    t.answers.push_back(a);
  }
  return t;
}

}  // namespace hil_run
