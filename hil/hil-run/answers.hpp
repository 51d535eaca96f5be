// SPDX-License-Identifier: Apache-2.0
// One tick's answers (docs/hil.md "Answers"): the runner waits for as many answers as it sent
// frames. An answer counts when it names the tick its frames carried with any verdict but
// `rejected`; a corrupt answer counts too (its tick unreadable; the torque is held). An answer
// `rejected` answers an undecodable segment and names no frame: it may answer junk that came
// before the frame (whose own answer follows) or the frame itself, spoiled on the line. The
// runner then probes: a status request naming a tick no frame carries (kProbeOffset past the
// tick's); the firmware handles bytes in order, so when the status frame naming the probe
// arrives before the frame's answer, the frame was spoiled and the rejected answer stands for it
// (one answer per missing frame); otherwise it answered junk and is counted, never applied.
// Any other answer is a stray — a second answer to an earlier tick, e.g. to a frame the runner
// sent again — and is discarded and counted: a torque is never applied a tick late. A status
// frame (the firmware's counters, every N answers: link/status_frame.hpp) is kept as the latest,
// and is no answer.
// No answer within --answer-timeout: first a lone 0x00 (it ends a frame whose delimiter was lost
// or cut off, which the firmware then answers; harmless otherwise: an empty segment is ignored),
// then, after another period, the tick's last frame again (or the probe, while one is due); and
// so on until --timeout of wall time without an answer, when the firmware counts as silent (exit 8).
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

// The probe's tick: this far past the tick's own, outside every window of link/hil_link.hpp, so
// that no periodic status frame (naming an answer's tick) passes for the probe's answer.
inline constexpr std::uint32_t kProbeOffset = 0x80000000u;

struct TickAnswers {
  std::vector<Answer> answers;        // in arrival order, strays and junk answers left out
  long strays = 0;                    // answers naming another tick, discarded
  long junk = 0;                      // rejected answers to junk before a frame that arrived, discarded
  long probes = 0;                    // status requests sent to place a rejected answer
  long delimiters = 0;                // lone 0x00 sent after a missing answer
  long resends = 0;                   // the tick's frame sent again
  bool silent = false;                // --timeout passed without the answers
  bool boot = false;                  // a boot frame came instead (the firmware rebooted)
  attractor::rt::BootInfo boot_info;  // what it announced
  bool has_status = false;            // a status frame came: `status` is the latest
  attractor::link::StatusReport status;
  std::chrono::steady_clock::time_point first;  // when the first answer that counts arrived
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

// The frames' answers, placed as the header describes. `seq`: the sequence number the probe
// carries (the host's next, which a status request does not consume).
inline TickAnswers collect_answers(Peer& peer, const attractor::hil::Burst& burst, std::uint32_t seq,
                                   int answer_timeout_ms, double timeout_s) {
  using namespace attractor::link;
  using clock = std::chrono::steady_clock;
  TickAnswers t;
  FrameView v;
  LinkError e;
  auto deadline = clock::now() + std::chrono::duration<double>(timeout_s);
  int missing = 0;           // answer periods passed without an answer
  std::vector<Answer> junk;  // rejected answers not yet placed
  clock::time_point junk_first{};
  const std::uint32_t probe_tick = burst.answer_tick + kProbeOffset;
  bool probing = false;  // a probe is out, its status frame not yet seen
  auto probe = [&] {
    peer.send(attractor::hil::encode(FrameType::status_request, seq, probe_tick));
    ++t.probes;
    probing = true;
  };
  while (int(t.answers.size()) < burst.answers) {
    if (!peer.receive(v, e, answer_timeout_ms)) {
      if (peer.closed() || clock::now() > deadline) {
        t.silent = true;
        return t;
      }
      if (probing) {  // the probe or its answer was lost on the line
        probe();
      } else if (++missing % 2 == 1) {
        peer.send({0});
        ++t.delimiters;
      } else {
        peer.send(burst.frames.back());
        ++t.resends;
      }
      continue;
    }
    const auto now = clock::now();
    deadline = now + std::chrono::duration<double>(timeout_s);
    if (take_status(v, e, t)) {
      if (probing && v.header.tick == probe_tick) {  // every answer before the probe is in
        probing = false;
        for (const Answer& a : junk) {  // each stands for a frame spoiled on the line
          if (int(t.answers.size()) >= burst.answers) {
            ++t.junk;
            continue;
          }
          if (t.first == clock::time_point{}) t.first = junk_first;
          t.answers.push_back(a);
        }
        junk.clear();
      }
      continue;
    }
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
    if (a.readable && a.report.verdict == Verdict::rejected) {  // names no frame: place it by a probe
      if (junk.empty()) junk_first = now;
      junk.push_back(a);
      if (!probing) probe();
      continue;
    }
    if (a.readable && v.header.tick != burst.answer_tick) {
      ++t.strays;
      continue;
    }
    if (t.first == clock::time_point{}) t.first = now;
    t.answers.push_back(a);
  }
  t.junk += long(junk.size());  // the frames' own answers came: these answered junk before them
  return t;
}

}  // namespace hil_run
