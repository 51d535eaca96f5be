// SPDX-License-Identifier: Apache-2.0
// The experiment loop, generic over the plant (skate_plant.hpp, robot_plant.hpp): per 1 ms tick
// the plant advances under the held torque, its reading (sensor noise, gyro bias, the tick's
// fault from link_faults.hpp) goes to the firmware, the answers set the next torque. A reset
// fault reboots the firmware and resynchronises (handshake.hpp); the firmware is down, the
// motor unpowered, for --reset-down ticks. Every exchanged tick's round trip (host monotonic
// clock, from writing its first sensor frame to the arrival of its first answer) goes to
// round_trip_stats.hpp. The firmware's counters come in its status frames (every --status-every
// answers, and on the runner's request before a reset and before the goodbye). Returns what
// the summary (summary.hpp) reports.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "answers.hpp"
#include "attractor/link/actuator_frame.hpp"
#include "closed_loop_options.hpp"
#include "handshake.hpp"
#include "link_faults.hpp"
#include "options.hpp"
#include "qemu_monitor.hpp"
#include "round_trip_stats.hpp"
#include "transport.hpp"

namespace hil_run {

struct RunRecord {
  long injected[attractor::hil::kFaultClasses] = {};
  long answers_bad = 0;
  long seen[attractor::hil::kFaultClasses] = {};         // ticks whose answer carried the class's verdict
  long verdicts[attractor::link::kMaxVerdict + 1] = {};  // answers per verdict
  long segments = 0;                                     // malformed segments the faults made
  long strays = 0, delimiters = 0, resends = 0;          // answers.hpp
  long junk = 0, probes = 0;                             // answers.hpp: rejected answers discarded, probes sent
  int64_t trip_tick = 0;                                 // the first tick answered in the safe state (0: none)
  int trip_stuck = 0;                                    // its place in a stuck run (1st, 2nd...; 0: none)
  attractor::hil::Fault trip_fault = attractor::hil::Fault::none;  // the stuck class then running
  attractor::Error trip_reason = attractor::Error::none;
  long after_trip = 0, after_trip_torque = 0;    // answers after the trip, those with a torque
  attractor::hil::Detected banked;               // every boot's counters (a reset restarts them)
  attractor::link::ActuatorReport<double> last;  // the latest answer read
  attractor::link::StatusReport status;          // the latest status frame of this boot
  BootSeen boot;
  double min_gamma3 = 1.0;
  std::uint32_t cost_min = std::numeric_limits<std::uint32_t>::max(), cost_max = 0;
  double cost_sum = 0;
  long cost_n = 0;
  RoundTripStats round_trip;  // [µs]
  bool goodbye = false;
  double wall_s = 0;
};

// Resident set of this process [KiB] (Linux /proc; 0 elsewhere): the progress lines show that a
// long run (scripts/soak) does not grow.
inline long rss_kib() {
  long pages = 0, resident = 0;
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
  std::fclose(f);
  return resident * (::sysconf(_SC_PAGESIZE) / 1024);
}

[[noreturn]] inline void firmware_silent(int64_t tick, double timeout_s) {
  char b[160];
  std::snprintf(b, sizeof b, "the firmware stopped answering at tick %lld (no frame within %.1f s of wall time)",
                static_cast<long long>(tick), timeout_s);
  throw Failure(code::exit_hil_silent, b);
}

// A CSV row failed (disk full, I/O error): exit 6 now, not a plausible run with a lost log.
inline void check_csv(std::FILE* csv, const std::string& path) {
  if (csv != nullptr && std::ferror(csv))
    throw Failure(code::exit_io, "--csv: error writing '" + path + "': " + std::strerror(errno));
}

// The --progress line on stderr: ticks, wall time, faults injected and what the firmware saw.
inline void print_progress(const Options& o, const RunRecord& rec, const Peer& peer,
                           std::chrono::steady_clock::time_point t0, int64_t tick) {
  using namespace attractor;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  long faults = 0;
  for (int i = 1; i < hil::kFaultClasses; ++i) faults += rec.injected[i];
  hil::Detected now = rec.banked;  // every boot so far, the current one included
  now.bank(rec.status);
  std::fprintf(stderr,
               "attractor-hil: tick %lld of %lld, %.0f s wall, %.0f frames/s, faults injected %ld, firmware "
               "rejected %u gaps %u repeated %u late %u implausible %u boots %ld, min Gamma3 %.6f, max cost %u, "
               "mode %s, rss %ld KiB\n",
               static_cast<long long>(tick), static_cast<long long>(o.ticks), s, double(peer.frames_sent_) / s, faults,
               now.link.total_rejected(), now.link.gaps, now.link.repeated, now.link.late, now.link.implausible,
               now.resets + now.unrequested, rec.min_gamma3, rec.cost_max, rt::to_string(rec.last.mode), rss_kib());
}

// A boot frame in place of an answer: a reset nobody asked for (watchdog, brown-out, reset pin;
// injected as unrequested_reset). Counted, the last boot's counters banked, and the same
// handshake as after a requested reset; the run goes on with the plant where it is, the firmware's
// controller restarted (its estimator from the first sample after the hello, link/lockstep.hpp).
// The counters banked are the boot's latest status frame: complete for an injected
// unrequested_reset (the runner asks for one just before it), up to --status-every answers old
// for a reset the runner did not cause.
inline void resynchronise(RunRecord& rec, Peer& peer, const attractor::rt::BootInfo& boot, int64_t tick,
                          std::chrono::steady_clock::duration timeout, double timeout_s,
                          const attractor::link::HelloInfo& mine) {
  rec.banked.bank(rec.status);
  rec.status = attractor::link::StatusReport{};
  ++rec.banked.unrequested;
  rec.boot.info = boot;
  rec.boot.seen = true;
  rec.last = attractor::link::ActuatorReport<double>{};
  rec.last.mode = attractor::rt::Mode::running;  // nothing reported yet by the new boot
  if (!handshake(peer, std::uint64_t(tick), std::chrono::steady_clock::now() + timeout, rec.boot, mine))
    firmware_silent(tick, timeout_s);
}

// The CSV row of a tick without an exchange (the firmware down, or rebooted in place of its
// answer): zero torque, no counters, no round trip.
template <class Plant>
void csv_without_exchange(std::FILE* csv, const Options& o, int64_t tick, attractor::hil::Fault f, const Plant& plant,
                          const char* mode, const RunRecord& rec) {
  std::fprintf(csv, "%lld,%s,", static_cast<long long>(tick), attractor::hil::kFaultNames[int(f)]);
  plant.write_csv(csv, attractor::Vec3<double>::Zero());
  std::fprintf(csv, ",%s,none,0,0,0,0,0,%ld,\n", mode, rec.banked.resets + rec.banked.unrequested);
  check_csv(csv, o.csv);
}

// The firmware's counters now (a status request, answered by a status frame; a periodic one
// still on its way is taken too): before a reset and before the goodbye, so that the counters
// of each boot are complete. A request lost on the line (--faulty-line) is sent again after
// each --answer-timeout without a status; --timeout without one is a silent firmware.
inline void request_status(Peer& peer, RunRecord& rec, std::uint32_t seq, int64_t tick, int answer_timeout_ms,
                           double timeout_s) {
  using namespace attractor::link;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  FrameView v;
  LinkError e;
  TickAnswers t;
  while (!peer.closed() && std::chrono::steady_clock::now() <= deadline) {
    peer.send(attractor::hil::encode(FrameType::status_request, seq, std::uint64_t(tick)));
    while (peer.receive(v, e, answer_timeout_ms))
      if (take_status(v, e, t)) {
        rec.status = t.status;
        return;
      }
  }
  firmware_silent(tick, timeout_s);
}

// One tick's answers into the record: counts per verdict, the class's detection, the first tick
// answered in the safe state and every answer after it (its torque must be zero), the cost; the
// last readable answer's torque is the next one (a corrupt answer holds the last).
inline void take_answers(RunRecord& rec, const TickAnswers& got, const attractor::hil::Burst& burst,
                         attractor::hil::Fault f, int stuck_index, int64_t tick, attractor::Vec3<double>& torque) {
  using attractor::hil::Fault;
  for (std::size_t k = 0; k < got.answers.size(); ++k) {
    const Answer& a = got.answers[k];
    if (!a.readable) {
      ++rec.answers_bad;  // a corrupt answer: keep the last torque (zero-order hold)
      continue;
    }
    ++rec.verdicts[int(a.report.verdict)];
    if (rec.trip_tick != 0) {  // after the trip: the safe state's command is zero
      ++rec.after_trip;
      rec.after_trip_torque += a.report.torque.isZero(0.0) ? 0 : 1;
    } else if (a.report.mode == attractor::rt::Mode::safe) {
      rec.trip_tick = tick;
      rec.trip_reason = a.report.reason;
      rec.trip_stuck = attractor::hil::stuck(f) ? stuck_index : 0;
      rec.trip_fault = attractor::hil::stuck(f) ? f : Fault::none;
    }
    const bool recovered = got.delimiters > 0;
    if (k == 0 && a.report.verdict == burst.verdict && (f != Fault::lost_delimiter || recovered)) ++rec.seen[int(f)];
    rec.last = a.report;
    torque = a.report.torque;
    rec.cost_min = std::min(rec.cost_min, a.report.tick_cost);
    rec.cost_max = std::max(rec.cost_max, a.report.tick_cost);
    rec.cost_sum += a.report.tick_cost;
    ++rec.cost_n;
  }
}

template <class Plant>
RunRecord run_experiment(const Options& o, Plant plant, Peer& peer, std::FILE* csv, QemuMonitor* monitor = nullptr) {
  using namespace attractor;
  using namespace attractor::link;
  using hil::Fault;
  RunRecord rec;
  if (csv)
    std::fprintf(csv, "tick,fault,%s,mode,reason,tick_cost,stale,rejected,gaps,repeated,resets,round_trip_us\n",
                 Plant::kCsvColumns);
  const auto t0 = std::chrono::steady_clock::now();
  const auto timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(o.timeout_s));  // a handshake's whole budget
  const HelloInfo mine{Plant::kPlant, std::uint16_t(o.status_every), kWireSchemaHash};
  if (!handshake(peer, 0, t0 + timeout, rec.boot, mine)) firmware_silent(0, o.timeout_s);

  cli::SensorNoise noise(o.loop.noise, o.loop.seed);
  FrameView v;
  LinkError e = LinkError::none;
  Vec3<double> torque = Vec3<double>::Zero();
  int64_t down = 0;
  SensorReading<double> past[hil::kDelayTicks];  // the last clean readings, for delayed frames
  std::uint32_t seq = 0;
  hil::StuckSensor stuck;
  for (int64_t tick = 1; tick <= o.ticks; ++tick) {
    peer.tick = tick;
    SensorReading<double> r = plant.step(torque);
    rec.min_gamma3 = std::min(rec.min_gamma3, plant.gamma3());
    r.gyro = noise.add(r.gyro);
    r.vertical = noise.add(r.vertical);
    r.gyro[0] += o.gyro_bias;
    const SensorReading<double> old = past[tick % hil::kDelayTicks];  // the reading of tick - kDelayTicks
    past[tick % hil::kDelayTicks] = r;
    Fault f = down > 0 ? Fault::none : hil::fault_at(long(tick), long(o.fault_every), o.faults);
    f = stuck.apply(f, long(o.stuck_ticks), r);  // a stuck sensor: this tick and the next --stuck-ticks - 1
    // Only faults the run can still reveal: a reset needs ticks to resume on, a drop a next frame,
    // a fault of several segments a next answer (the first segment's answer counts only it).
    const bool needs_next =
        f == Fault::drop || f == Fault::spurious_zero || f == Fault::noise || f == Fault::unrequested_reset;
    if ((f == Fault::reset && tick + o.reset_down >= o.ticks) || (needs_next && tick == o.ticks)) f = Fault::none;
    ++rec.injected[int(f)];
    // The counters of the boot about to be reset, asked for first (a replay sends the request
    // before it resets QEMU at the recorded fault).
    if (f == Fault::unrequested_reset) request_status(peer, rec, seq, tick, o.answer_timeout_ms, o.timeout_s);
    if (f != Fault::none) peer.note_fault(tick, int(f));
    if (f == Fault::unrequested_reset && monitor != nullptr) monitor->system_reset();  // then the tick as usual
    if (down > 0 || f == Fault::reset) {
      // The firmware is down (rebooting): nothing is exchanged, the motor gets no torque.
      if (f == Fault::reset) {
        request_status(peer, rec, seq, tick, o.answer_timeout_ms, o.timeout_s);
        peer.send(hil::encode(FrameType::reset, seq, std::uint64_t(tick)));
        const rt::BootInfo before = rec.boot.info;
        if (!await_boot(peer, rec.boot.info, rec.status)) firmware_silent(tick, o.timeout_s);
        rec.banked.bank(rec.status);  // the new boot starts its counters at zero
        rec.status = StatusReport{};
        rec.banked.resets += hil::reset_detected(before, rec.boot.seen, rec.boot.info) ? 1 : 0;
        rec.boot.seen = true;
        rec.last = ActuatorReport<double>{};
        rec.last.mode = rt::Mode::running;  // nothing reported yet by the new boot
        if (!handshake(peer, std::uint64_t(tick), std::chrono::steady_clock::now() + timeout, rec.boot, mine))
          firmware_silent(tick, o.timeout_s);
        down = o.reset_down;
      }
      --down;
      torque = Vec3<double>::Zero();
      if (csv && (tick % o.csv_every == 0 || f != Fault::none))  // decimated, fault ticks always
        csv_without_exchange(csv, o, tick, f, plant, "down", rec);
      continue;
    }
    const hil::Burst burst = hil::sensor_burst(f, r, old, seq, std::uint64_t(tick), o.vertical_bias);
    const auto sent = std::chrono::steady_clock::now();
    for (const hil::Bytes& frame : burst.frames) peer.send(frame);
    long long round_trip_us = -1;  // none: a dropped frame has no answer
    const TickAnswers got = collect_answers(peer, burst, seq, o.answer_timeout_ms, o.timeout_s);
    if (got.silent) firmware_silent(tick, o.timeout_s);
    if (got.has_status) rec.status = got.status;
    if (got.boot) {  // the firmware rebooted unasked: no answer this tick, the motor unpowered
      resynchronise(rec, peer, got.boot_info, tick, timeout, o.timeout_s, mine);
      torque = Vec3<double>::Zero();
      if (csv) csv_without_exchange(csv, o, tick, f, plant, "reset", rec);
      continue;
    }
    rec.strays += got.strays;
    rec.delimiters += got.delimiters;
    rec.resends += got.resends;
    rec.junk += got.junk;
    rec.probes += got.probes;
    if (burst.answers > 0) {  // the first answer, corrupt or not: the line's latency, not the decoder's luck
      round_trip_us = std::chrono::duration_cast<std::chrono::microseconds>(got.first - sent).count();
      rec.round_trip.add(std::uint64_t(std::max(round_trip_us, 0LL)));
    }
    take_answers(rec, got, burst, f, stuck.index, tick, torque);
    rec.segments += burst.rejections;
    if (csv && (tick % o.csv_every == 0 || f != Fault::none)) {  // decimated, fault ticks always
      const ActuatorReport<double>& l = rec.last;
      const StatusReport& st = rec.status;  // as of the latest status frame
      std::fprintf(csv, "%lld,%s,", static_cast<long long>(tick), hil::kFaultNames[int(f)]);
      plant.write_csv(csv, torque);
      std::fprintf(csv, ",%s,%s,%u,%u,%u,%u,%u,%ld,", rt::to_string(l.mode), attractor::to_string(l.reason),
                   l.tick_cost, st.faults.stale, st.link.total_rejected(), st.link.gaps, st.link.repeated,
                   rec.banked.resets + rec.banked.unrequested);
      if (round_trip_us >= 0) std::fprintf(csv, "%lld", round_trip_us);
      std::fputc('\n', csv);
      check_csv(csv, o.csv);
    }
    if (o.progress > 0 && tick % o.progress == 0) print_progress(o, rec, peer, t0, tick);
  }

  request_status(peer, rec, seq, o.ticks, o.answer_timeout_ms, o.timeout_s);  // the run's final counters
  peer.send(hil::encode(FrameType::goodbye, seq, std::uint64_t(o.ticks)));
  while (!rec.goodbye && peer.receive(v, e)) rec.goodbye = e == LinkError::none && v.header.type == FrameType::goodbye;
  rec.banked.bank(rec.status);  // every boot's counters summed
  rec.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rec;
}

}  // namespace hil_run
