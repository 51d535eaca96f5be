// SPDX-License-Identifier: Apache-2.0
// The run's summary (the "hil:" lines on stdout, docs/hil.md) and its outcome as an exit code of
// the one table (exit_codes.hpp): 0 upright with every injected fault detected and a clean end,
// 7 otherwise. A summary that cannot be written (stdout closed, disk full) is exit 6.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "experiment.hpp"
#include "link_faults.hpp"
#include "options.hpp"
#include "round_trip_stats.hpp"

namespace hil_run {

inline std::string mismatch_text(const attractor::cli::ClosedLoopOptions& lo) {
  if (lo.mismatch.empty()) return "none";
  std::string s;
  for (const auto& kv : lo.mismatch) {
    char b[64];
    std::snprintf(b, sizeof b, "%s%s%+g", s.empty() ? "" : ",", kv.first.c_str(), kv.second);
    s += b;
  }
  return s;
}

// The round trip of every exchanged tick (experiment.hpp): percentiles, then the histogram by
// octave, empty octaves left out ("64-128 12" = 12 ticks took 64 to 127 us).
inline void print_round_trip(const RoundTripStats& s) {
  std::printf(
      "hil: round trip [us, host clock, sensor frame written to answer read] p50 %llu p99 %llu p99.9 %llu "
      "max %llu min %llu over %llu ticks\n",
      static_cast<unsigned long long>(s.percentile(5000)), static_cast<unsigned long long>(s.percentile(9900)),
      static_cast<unsigned long long>(s.percentile(9990)), static_cast<unsigned long long>(s.max()),
      static_cast<unsigned long long>(s.min()), static_cast<unsigned long long>(s.count()));
  std::printf("hil: round-trip histogram [us]:");
  for (int k = 0; k < RoundTripStats::kOctaves; ++k) {
    const unsigned long long n = s.octave_count(k);
    if (n == 0) continue;
    if (k == RoundTripStats::kOctaves - 1)
      std::printf(" >=%llu %llu", static_cast<unsigned long long>(RoundTripStats::octave_low(k)), n);
    else
      std::printf(" %llu-%llu %llu", static_cast<unsigned long long>(RoundTripStats::octave_low(k)),
                  static_cast<unsigned long long>(RoundTripStats::octave_low(k + 1)), n);
  }
  std::printf("%s\n", s.count() == 0 ? " none" : "");
}

// fw_exit: QEMU's exit code (the firmware's, by semihosting: --link semihost), -1 when it had
// to be stopped; the UART link (no semihosting) and a board behind --serial have none.
template <class Plant>
int report(const Options& o, const RunRecord& r, const Peer& peer, bool has_fw_exit, int fw_exit) {
  using namespace attractor;
  using hil::Fault;
  const link::LinkCounters& d = r.banked.link;
  const std::vector<hil::ClassCount> classes = hil::class_counts(r.injected, r.banked, r.seen, r.segments);
  const bool all_detected = hil::all_detected(classes, o.faulty_line);
  const bool upright = Plant::upright(r.min_gamma3) && r.last.mode == rt::Mode::running;
  const double wall = std::max(r.wall_s, 1e-9);
  const long long ticks = static_cast<long long>(o.ticks);
  std::printf("hil: %lld ticks (%.3f s simulated) in %.2f s wall, %.0f frames/s; %s\n", ticks, double(ticks) * 1e-3,
              r.wall_s, double(peer.frames_sent_) / wall,
              o.qemu_mode() ? ("QEMU " + o.machine).c_str() : o.serial.c_str());
  std::printf(
      "hil: link: %ld frames / %ld bytes sent, %ld frames / %ld bytes received, %ld corrupt answers, goodbye %s\n",
      peer.frames_sent_, peer.bytes_sent_, peer.frames_received_, peer.bytes_received_, r.answers_bad,
      r.goodbye ? "answered" : "MISSING");
  // What a real UART must carry: the measured bytes per tick each way, and the 8N1 baud rate that
  // lockstep at 1 kHz would need for them (docs/hil.md "Wire budget").
  const double to_fw = double(peer.bytes_sent_) / double(ticks), to_host = double(peer.bytes_received_) / double(ticks);
  std::printf(
      "hil: wire: %.1f bytes per tick to the firmware, %.1f back (status frames every %d answers included): "
      "%.1f bytes, %.0f kbaud at 1 kHz (8N1 lockstep)\n",
      to_fw, to_host, o.status_every, to_fw + to_host, (to_fw + to_host) * 10.0);
  std::printf(
      "hil: link (%s): firmware rejected %u frames, %u sequence gaps, %u repeated (every boot); runner rss %ld KiB\n",
      o.qemu_mode() ? o.link.c_str() : "serial", d.total_rejected(), d.gaps, d.repeated, rss_kib());
  std::printf("hil: tick cost [cost-clock counts] min %u mean %.2f max %u over %ld steps\n", r.cost_n ? r.cost_min : 0,
              r.cost_n ? r.cost_sum / double(r.cost_n) : 0.0, r.cost_max, r.cost_n);
  print_round_trip(r.round_trip);
  const long* in = r.injected;
  std::printf(
      "hil: faults injected / detected by the firmware: corrupt %ld/%ld nan %ld/%u out_of_range %ld/%u "
      "drop+reorder %ld/%u gaps duplicate+reorder %ld/%u repeated delayed %ld/%u late bias %ld/%u implausible "
      "reset %ld/%ld boots unrequested_reset %ld/%ld boots; runtime stale ticks %u\n",
      in[1], classes[1].detected, classes[2].injected, d.rejected_by(link::LinkError::non_finite), classes[3].injected,
      d.rejected_by(link::LinkError::out_of_range), in[4] + in[6], d.gaps, in[5] + in[6], d.repeated,
      in[int(Fault::delayed)], d.late, in[int(Fault::bias)], d.implausible, in[int(Fault::reset)], r.banked.resets,
      in[int(Fault::unrequested_reset)], r.banked.unrequested, r.banked.faults.stale);
  std::printf("hil: byte faults injected / detected:");
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const hil::ClassCount& c = classes[i];
    const std::string n = c.name;
    if (i == 0 || n == "cut" || n == "lost_delimiter" || n == "spurious_zero" || n == "noise" || n == "wild_sequence" ||
        n == "wild_tick")
      std::printf(" %s %ld/%ld %s", c.name, c.injected, c.detected, c.counter);
  }
  std::printf("\n");
  std::printf("hil: framing: answers");
  for (int v = 0; v <= link::kMaxVerdict; ++v) std::printf(" %s %ld", link::to_string(link::Verdict(v)), r.verdicts[v]);
  std::printf(
      "; stray answers %ld discarded, answers to junk %ld discarded (%ld probes), %ld lone delimiters and %ld "
      "resends after a missing answer (--answer-timeout %d ms)\n",
      r.strays, r.junk, r.probes, r.delimiters, r.resends, o.answer_timeout_ms);
  long stuck_ticks = 0;
  for (int i = hil::kFirstStuck; i < hil::kFaultClasses; ++i) stuck_ticks += in[i];
  if (stuck_ticks > 0) {  // only then: a "0/0" would fail the runs that inject every other class
    std::printf("hil: stuck sensor ticks injected / answered (--stuck-ticks %lld):",
                static_cast<long long>(o.stuck_ticks));
    for (const hil::ClassCount& c : classes)
      if (std::string(c.name).rfind("stuck_", 0) == 0)
        std::printf(" %s %ld/%ld %s", c.name, c.injected, c.detected, c.counter);
    std::printf("\n");
  }
  std::string stuck_text;  // the stuck run the trip happened in, and how its ticks were answered
  for (const hil::ClassCount& c : classes)
    if (r.trip_stuck > 0 && c.name == std::string(hil::kFaultNames[int(r.trip_fault)]))
      stuck_text = "; stuck tick " + std::to_string(r.trip_stuck) + " of " + c.name + ", " +
                   std::to_string(c.detected) + " of " + std::to_string(c.injected) + " stuck ticks answered " +
                   c.counter;
  if (r.trip_tick == 0)
    std::printf("hil: safe state: never entered\n");
  else
    std::printf("hil: safe state: from tick %lld (%s%s), %ld answers after it, %ld of them with a torque\n",
                static_cast<long long>(r.trip_tick), attractor::to_string(r.trip_reason), stuck_text.c_str(),
                r.after_trip, r.after_trip_torque);
  if (o.faulty_line)
    std::printf(
        "hil: faulty line: the firmware rejected %ld malformed segments (the runner's faults made %ld); "
        "%ld corrupt answers, %ld strays, %ld lone delimiters, %ld resends, %ld answers to junk\n",
        classes[0].detected, classes[0].injected, r.answers_bad, r.strays, r.delimiters, r.resends, r.junk);
  std::printf("hil: firmware boot: %u resets since power-on, last reason %s; %ld unrequested resets resynchronised\n",
              r.boot.info.resets, rt::to_string(r.boot.info.reason), r.banked.unrequested);
  std::printf("hil: plant %s, mismatch %s, sensor noise sigma %g (seed %llu), gyro bias %g rad/s on Omega1\n",
              Plant::kName, mismatch_text(o.loop).c_str(), o.loop.noise, static_cast<unsigned long long>(o.loop.seed),
              o.gyro_bias);
  const std::string fw = has_fw_exit ? std::to_string(fw_exit) : std::string("n/a (no semihosting)");
  std::printf("hil: min Gamma3 %.6f (max tilt %.4f rad; upright: %s), controller %s (%s), firmware exit %s\n",
              r.min_gamma3, std::acos(std::min(r.min_gamma3, 1.0)), Plant::kCriterion, rt::to_string(r.last.mode),
              attractor::to_string(r.last.reason), fw.c_str());
  const bool ok = upright && all_detected && r.goodbye && (!has_fw_exit || fw_exit == 0);
  std::printf("hil: %s\n", ok        ? "UPRIGHT, every injected fault detected"
                           : upright ? "UPRIGHT, but faults missed or link incomplete"
                                     : "FELL or tripped to the safe state");
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw Failure(code::exit_io, std::string("error writing the summary to stdout: ") + std::strerror(errno));
  return ok ? code::exit_ok : code::exit_hil_failed;
}

}  // namespace hil_run
