// SPDX-License-Identifier: Apache-2.0
// Fault injection on the HIL link, one module for attractor-hil (hil/hil-run) and the in-process
// link tests (host-tests/unit/link): the plan (a fault every K ticks, the selected classes in
// turn: --fault-every, --faults), what a fault does to a sensor frame (sensor_burst: the frames
// to send for one tick and the answers to expect) and the injected-vs-detected bookkeeping. Each
// class is detected by the firmware and comes back in its counters (actuator frame) or, for a
// reset, in its boot frame:
//   corrupt       a byte flipped                    rejected: bad_crc / bad_framing / bad_length
//   nan           NaN in Γ2                         non_finite (a decodable frame, refused)
//   out_of_range  Ω3 = 5000 rad/s                   out_of_range (a decodable frame, refused)
//   drop          a frame not sent                  gaps (with reorder)
//   duplicate     a frame sent twice                repeated (with reorder)
//   reorder       the next sequence number first    one gap, one repeat
//   delayed       the sample of kDelayTicks earlier sent now, with its own (old) tick index:
//                                                   late (sample time did not advance; held)
//   bias          Γ3 + B (--vertical-bias B) on one frame: |Γ| = 1 broken
//                                                   implausible (held)
//   reset         a reset frame: the firmware reboots, announces itself (boot frame: reset
//                 count, reason host_request), the runner resynchronises with hello
//                                                   boots reported with reason host_request
// Byte-level classes (they create or destroy a 0x00 delimiter; the answer's verdict says what
// the firmware made of the tick, link/verdict.hpp):
//   cut           the frame's first half, no delimiter: no answer until the runner's lone 0x00
//                                                   rejected (answered after the delimiter)
//   lost_delimiter the whole frame without its 0x00: the runner's lone 0x00 completes it
//                                                   fresh, after a recovery (runner counts it)
//   spurious_zero a 0x00 inside the frame: two segments, one answer
//                                                   rejected (two segments counted)
//   noise         a 32-byte burst with two 0x00 ahead of the frame (the frame joins its tail)
//                                                   rejected (every segment counted)
//   wild_sequence the sequence number 2^30 ahead    wild (not used; no later frame affected)
//   wild_tick     the tick index 2^30 ahead         wild (answered with that tick)
// A reset nobody asked for (QEMU only: the runner asks QEMU's monitor for a system_reset, as a
// watchdog, a brown-out that kept RAM or the reset pin would; the tick's frame is then sent as
// usual, and the runner cannot tell it from a real one):
//   unrequested_reset                              a boot frame in place of the answer, reason
//                                                   other_reset: counted, resynchronised
// Stuck sensors (by name only, not in "all": they end in the safe state): the fault lasts
// --stuck-ticks N consecutive ticks from the tick it is due, each answered by name:
//   stuck_nan          NaN in Γ2                    non_finite; safe state on the 4th (stale)
//   stuck_out_of_range Ω3 = 5000 rad/s (wire range) out_of_range; safe state on the 4th
//   stuck_limit        Ω3 = 500 rad/s (inside the wire range, beyond the controller's limit)
//                                                   held; safe state on the 4th
//   stuck_frozen       the reading of the first stuck tick, sent again with each later tick
//                                                   fresh: in range and plausible, no link or
//                                                   runtime check can tell it from a still plant
// (4th: the runtime's stale_limit 3, rt/supervisor.hpp; zero torque from then on.)
// The counters come back in the firmware's status frames (link/status_frame.hpp). A firmware
// reset restarts its counters: the runner banks the last status of each boot (for an
// unrequested_reset the runner asks for one just before it, as for a requested reset).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/boot_frame.hpp"
#include "attractor/link/hello_frame.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/status_frame.hpp"
#include "attractor/link/verdict.hpp"

namespace attractor::hil {

enum class Fault {
  none,
  corrupt,
  nan,
  out_of_range,
  drop,
  duplicate,
  reorder,
  delayed,
  bias,
  reset,
  cut,
  lost_delimiter,
  spurious_zero,
  noise,
  wild_sequence,
  wild_tick,
  unrequested_reset,
  stuck_nan,
  stuck_out_of_range,
  stuck_limit,
  stuck_frozen
};
inline constexpr int kFaultClasses = 21;                   // none included
inline constexpr int kFirstStuck = int(Fault::stuck_nan);  // the stuck classes: kFirstStuck..end
inline const char* const kFaultNames[kFaultClasses] = {"none",
                                                       "corrupt",
                                                       "nan",
                                                       "out_of_range",
                                                       "drop",
                                                       "duplicate",
                                                       "reorder",
                                                       "delayed",
                                                       "bias",
                                                       "reset",
                                                       "cut",
                                                       "lost_delimiter",
                                                       "spurious_zero",
                                                       "noise",
                                                       "wild_sequence",
                                                       "wild_tick",
                                                       "unrequested_reset",
                                                       "stuck_nan",
                                                       "stuck_out_of_range",
                                                       "stuck_limit",
                                                       "stuck_frozen"};
constexpr bool stuck(Fault f) { return int(f) >= kFirstStuck; }
inline constexpr long kDelayTicks = 2;  // a delayed frame carries the sample of this many ticks ago

// "corrupt,nan,..." or "all" (every class but the stuck ones) -> the classes in the order
// given; false on an unknown name.
inline bool parse_fault_list(const std::string& list, std::vector<Fault>& out) {
  out.clear();
  if (list == "all") {
    for (int i = 1; i < kFirstStuck; ++i) out.push_back(Fault(i));
    return true;
  }
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    const std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    int found = 0;
    for (int i = 1; i < kFaultClasses; ++i) found = name == kFaultNames[i] ? i : found;
    if (found == 0) return false;
    out.push_back(Fault(found));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return !out.empty();
}

// The fault injected at `tick` (1-based): every `every` ticks the next class of `classes`.
inline Fault fault_at(long tick, long every, const std::vector<Fault>& classes) {
  if (every <= 0 || classes.empty() || tick % every != 0) return Fault::none;
  return classes[std::size_t((tick / every) % long(classes.size()))];
}

// A stuck sensor in progress: the class due at a tick (fault_at) starts one lasting `ticks`
// consecutive ticks; each tick's fault is then that class (its `index`-th tick, from 1), and for
// stuck_frozen the reading is the one of its first tick.
struct StuckSensor {
  Fault fault = Fault::none;
  long left = 0;  // ticks still to come
  int index = 0;  // ticks of it so far, the current one included
  link::SensorReading<double> frozen;

  // The tick's fault (`due`, or the stuck class running), `r` frozen for stuck_frozen.
  Fault apply(Fault due, long ticks, link::SensorReading<double>& r) {
    if (left == 0 && stuck(due)) {
      fault = due;
      left = ticks;
      index = 0;
      frozen = r;
    }
    if (left == 0) return due;
    --left;
    ++index;
    if (fault == Fault::stuck_frozen) r = frozen;
    return fault;
  }
};

using Bytes = std::vector<std::uint8_t>;

// A frame of type t (control frames: no payload; sensor frames: the reading, packed unchecked so
// that injected faults reach the wire).
inline Bytes encode(link::FrameType t, std::uint32_t seq, std::uint64_t tick,
                    const link::SensorReading<double>* r = nullptr) {  // tick: modulo 2^32 on the wire
  std::uint8_t payload[link::layout::sensor_payload_size] = {};
  if (r != nullptr) link::pack_sensor(*r, payload);
  std::uint8_t wire[link::layout::max_wire_size];
  std::size_t n = 0;
  const link::LinkError e = link::encode_frame(link::FrameHeader{t, seq, std::uint32_t(tick)}, payload,
                                               r ? sizeof payload : 0, wire, sizeof wire, n);
  if (e != link::LinkError::none) std::abort();  // our own frames: a programming error
  return Bytes(wire, wire + n);
}

// The host's hello: the plant simulated, the status period wanted, this build's schema.
inline Bytes encode_hello(std::uint32_t seq, std::uint32_t tick, const link::HelloInfo& h) {
  std::uint8_t wire[link::layout::max_wire_size];
  std::size_t n = 0;
  if (link::encode_hello_frame(seq, tick, h, wire, sizeof wire, n) != link::LinkError::none) std::abort();
  return Bytes(wire, wire + n);
}

// The value a fault class puts into a reading (the others leave it alone).
inline void spoil_reading(Fault f, link::SensorReading<double>& r, double vertical_bias) {
  if (f == Fault::nan || f == Fault::stuck_nan) r.vertical[1] = std::numeric_limits<double>::quiet_NaN();
  if (f == Fault::out_of_range || f == Fault::stuck_out_of_range) r.gyro[2] = 5000.0;
  if (f == Fault::stuck_limit) r.gyro[2] = 500.0;        // the wire's 1000, the controllers' 50 or less
  if (f == Fault::bias) r.vertical[2] += vertical_bias;  // |Γ| = 1 broken
}

// One flipped bit in the middle of a frame, never to a zero byte: one frame stays one frame.
inline void corrupt_byte(Bytes& frame) {
  std::uint8_t& b = frame[frame.size() / 2];
  b = std::uint8_t(b ^ (b == 0x01 ? 0x02 : 0x01));
}

// A 32-byte noise burst with exactly two 0x00 (neither last: the frame after it joins its
// tail), from the tick alone (splitmix64): runs stay deterministic. `segments`: the non-empty
// pieces the firmware will reject, the joined frame included.
inline Bytes noise_burst(std::uint64_t tick, int& segments) {
  std::uint64_t x = tick * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  auto next = [&x] {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  Bytes b(32);
  for (std::uint8_t& v : b) v = std::uint8_t(1u + next() % 255u);  // no zero yet
  const std::size_t z1 = std::size_t(next() % 31u), z2 = std::size_t(next() % 31u);
  b[z1] = 0;
  b[z2] = 0;
  segments = 1;  // the tail joined with the frame
  for (std::size_t i = 0; i < b.size(); ++i) segments += (b[i] == 0 && i > 0 && b[i - 1] != 0) ? 1 : 0;
  return b;
}

// What one tick sends: its sensor frame with fault f applied (not reset: the runner's), how
// many answers the firmware gives, the tick they name, the verdict the first one must carry
// and how many malformed segments the firmware counts (bad_crc, bad_framing, bad_length). `seq` advances past every
// number used.
struct Burst {
  std::vector<Bytes> frames;
  int answers = 0;
  std::uint32_t answer_tick = 0;  // modulo 2^32, as on the wire
  link::Verdict verdict = link::Verdict::fresh;
  int rejections = 0;
};
inline Burst sensor_burst(Fault f, link::SensorReading<double> r, const link::SensorReading<double>& delayed_reading,
                          std::uint32_t& seq, std::uint64_t tick, double vertical_bias) {
  using link::FrameType;
  using link::Verdict;
  Burst b;
  b.answer_tick = std::uint32_t(tick);
  spoil_reading(f, r, vertical_bias);
  const std::uint32_t frame_seq = f == Fault::wild_sequence ? seq + 0x40000000u : seq;
  const std::uint64_t frame_tick = f == Fault::delayed     ? tick - std::uint64_t(kDelayTicks)
                                   : f == Fault::wild_tick ? tick + (std::uint64_t(1) << 30)
                                                           : tick;
  Bytes frame = encode(FrameType::sensor, frame_seq, frame_tick, f == Fault::delayed ? &delayed_reading : &r);
  b.answer_tick = std::uint32_t(frame_tick);
  if (f == Fault::corrupt) corrupt_byte(frame);
  if (f == Fault::cut) frame.resize(frame.size() / 2);
  if (f == Fault::lost_delimiter) frame.pop_back();
  if (f == Fault::spurious_zero) frame.insert(frame.begin() + std::ptrdiff_t(frame.size() / 2), std::uint8_t(0));
  if (f == Fault::noise) {
    int segments = 0;
    Bytes n = noise_burst(tick, segments);
    frame.insert(frame.begin(), n.begin(), n.end());
    b.rejections = segments;
  }
  // Every sensor frame leads with a 0x00 (an empty segment to the receiver): junk that came
  // before it on the line ends there instead of spoiling the frame. The noise burst goes after
  // it, as noise that arrives while the frame is being sent.
  frame.insert(frame.begin(), std::uint8_t(0));
  if (f == Fault::drop) {  // the plant moved on; the firmware sees the next frame with a gap
    ++seq;
    return b;
  }
  if (f == Fault::reorder) {  // a copy with the next sequence number first: a gap, then a repeat
    Bytes first = encode(FrameType::sensor, seq + 1, tick, &r);
    first.insert(first.begin(), std::uint8_t(0));
    b.frames.push_back(first);
    b.frames.push_back(frame);
    seq += 2;
  } else {
    b.frames.push_back(frame);
    if (f == Fault::duplicate) b.frames.push_back(frame);
    ++seq;
  }
  b.answers = int(b.frames.size());
  const bool rejected = f == Fault::corrupt || f == Fault::cut || f == Fault::spurious_zero || f == Fault::noise;
  // Malformed segments only (nan and out_of_range are decodable frames, counted in their class).
  b.rejections = f == Fault::spurious_zero                ? 2
                 : f == Fault::noise                      ? b.rejections
                 : f == Fault::corrupt || f == Fault::cut ? 1
                                                          : 0;
  b.verdict = rejected                                                     ? Verdict::rejected
              : f == Fault::nan || f == Fault::stuck_nan                   ? Verdict::non_finite
              : f == Fault::out_of_range || f == Fault::stuck_out_of_range ? Verdict::out_of_range
              : f == Fault::stuck_limit                                    ? Verdict::held
              : f == Fault::delayed                                        ? Verdict::late
              : f == Fault::bias                                           ? Verdict::implausible
              : f == Fault::wild_sequence || f == Fault::wild_tick         ? Verdict::wild
                                                                           : Verdict::fresh;
  return b;
}

// What the firmware detected, summed over its boots (each boot starts its counters at zero).
struct Detected {
  link::LinkCounters link;
  rt::FaultCounts faults;
  long resets = 0;       // boots announced with reason host_request and the next reset count
  long unrequested = 0;  // boots announced mid-run in place of an answer (watchdog, brown-out, reset pin)

  void bank(const link::StatusReport& s) {
    const rt::FaultCounts& f = s.faults;
    link.add(s.link);
    faults.non_finite += f.non_finite;
    faults.out_of_range += f.out_of_range;
    faults.stale += f.stale;
    faults.overrun += f.overrun;
    faults.envelope += f.envelope;
    faults.saturated += f.saturated;
  }
};

// A boot frame after the runner's reset request counts as detected when the firmware says it
// was that request (not a power-on, not some other reset) and its count moved on by one — from
// the count last announced, or from any count if none was seen (a board already running when
// the serial port was opened: its boot frame went by unread).
inline bool reset_detected(const rt::BootInfo& before, bool before_seen, const rt::BootInfo& after) {
  return after.reason == rt::BootReason::host_request &&
         (before_seen ? after.resets == before.resets + 1u : after.resets >= 1u);
}

// One row of the summary per class: injected, detected by the firmware (in the counter named).
struct ClassCount {
  const char* name;
  long injected, detected;
  const char* counter;
};

// `seen[c]`: ticks of class c whose answer carried the class's verdict (Burst::verdict; for
// lost_delimiter: answered fresh after the runner's lone delimiter), as the runner read them.
// `segments`: the malformed segments the corrupt, cut, spurious_zero and noise faults made
// (Burst::rejections), against what the firmware's counters rejected as malformed.
inline std::vector<ClassCount> class_counts(const long (&injected)[kFaultClasses], const Detected& d,
                                            const long (&seen)[kFaultClasses], long segments) {
  using link::LinkError;
  const link::LinkCounters& l = d.link;
  auto in = [&](Fault f) { return injected[int(f)]; };
  return {
      {"segments", segments,
       long(l.rejected_by(LinkError::bad_crc) + l.rejected_by(LinkError::bad_framing) +
            l.rejected_by(LinkError::bad_length)),
       "rejected"},
      {"corrupt", in(Fault::corrupt), seen[int(Fault::corrupt)], "rejected"},
      {"nan", in(Fault::nan) + in(Fault::stuck_nan), long(l.rejected_by(LinkError::non_finite)), "non_finite"},
      {"out_of_range", in(Fault::out_of_range) + in(Fault::stuck_out_of_range),
       long(l.rejected_by(LinkError::out_of_range)), "out_of_range"},
      {"drop+reorder", in(Fault::drop) + in(Fault::reorder), long(l.gaps), "gaps"},
      {"duplicate+reorder", in(Fault::duplicate) + in(Fault::reorder), long(l.repeated), "repeated"},
      {"delayed", in(Fault::delayed), long(l.late), "late"},
      {"bias", in(Fault::bias), long(l.implausible), "implausible"},
      {"reset", in(Fault::reset), d.resets, "boots"},
      {"cut", in(Fault::cut), seen[int(Fault::cut)], "rejected"},
      {"lost_delimiter", in(Fault::lost_delimiter), seen[int(Fault::lost_delimiter)], "recovered"},
      {"spurious_zero", in(Fault::spurious_zero), seen[int(Fault::spurious_zero)], "rejected"},
      {"noise", in(Fault::noise), seen[int(Fault::noise)], "rejected"},
      {"wild_sequence", in(Fault::wild_sequence), seen[int(Fault::wild_sequence)], "wild"},
      {"wild_tick", in(Fault::wild_tick), seen[int(Fault::wild_tick)], "wild"},
      {"unrequested_reset", in(Fault::unrequested_reset), d.unrequested, "boots"},
      {"stuck_nan", in(Fault::stuck_nan), seen[int(Fault::stuck_nan)], "non_finite"},
      {"stuck_out_of_range", in(Fault::stuck_out_of_range), seen[int(Fault::stuck_out_of_range)], "out_of_range"},
      {"stuck_limit", in(Fault::stuck_limit), seen[int(Fault::stuck_limit)], "held"},
      {"stuck_frozen", in(Fault::stuck_frozen), seen[int(Fault::stuck_frozen)], "fresh"},
  };
}

// `faulty_line`: the line itself corrupts bytes too (a relay, a noisy UART: --faulty-line), so the
// firmware may count more than the runner injected; then every row needs at least its injections.
inline bool all_detected(const std::vector<ClassCount>& rows, bool faulty_line = false) {
  bool ok = true;
  for (const ClassCount& r : rows) ok = ok && (faulty_line ? r.detected >= r.injected : r.injected == r.detected);
  return ok;
}

}  // namespace attractor::hil
