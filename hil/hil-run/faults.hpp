// SPDX-License-Identifier: Apache-2.0
// attractor-hil's fault injection plan and its injected-vs-detected bookkeeping (the runner's
// main.cpp does the sending). A fault every K ticks (--fault-every), the selected classes
// (--faults LIST, all by default) in turn; each class is detected by the firmware and comes
// back in its counters (actuator frame) or, for a reset, in its boot frame:
//   corrupt       a byte flipped                    rejected: bad_crc / bad_framing / bad_length
//   nan           NaN in Γ2                         rejected: non_finite
//   out_of_range  Ω3 = 5000 rad/s                   rejected: out_of_range
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
// A firmware reset restarts its counters: the runner banks the last report of each boot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attractor/link/actuator_frame.hpp"

namespace attractor::hil {

enum class Fault { none, corrupt, nan, out_of_range, drop, duplicate, reorder, delayed, bias, reset };
inline constexpr int kFaultClasses = 10;  // none included
inline const char* const kFaultNames[kFaultClasses] = {"none",      "corrupt", "nan",     "out_of_range", "drop",
                                                       "duplicate", "reorder", "delayed", "bias",         "reset"};
inline constexpr long kDelayTicks = 2;  // a delayed frame carries the sample of this many ticks ago

// "corrupt,nan,..." or "all" -> the classes in the order given; false on an unknown name.
inline bool parse_fault_list(const std::string& list, std::vector<Fault>& out) {
  out.clear();
  if (list == "all") {
    for (int i = 1; i < kFaultClasses; ++i) out.push_back(Fault(i));
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

// What the firmware detected, summed over its boots (each boot starts its counters at zero).
struct Detected {
  link::LinkCounters link;
  rt::FaultCounts faults;
  long resets = 0;  // boots announced with reason host_request and the next reset count

  void bank(const link::LinkCounters& l, const rt::FaultCounts& f) {
    for (int i = 0; i < link::layout::link_counters; ++i) link.rejected[i] += l.rejected[i];
    link.gaps += l.gaps;
    link.repeated += l.repeated;
    link.late += l.late;
    link.implausible += l.implausible;
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

inline std::vector<ClassCount> class_counts(const long (&injected)[kFaultClasses], const Detected& d) {
  using link::LinkError;
  const link::LinkCounters& l = d.link;
  auto in = [&](Fault f) { return injected[int(f)]; };
  return {
      {"corrupt", in(Fault::corrupt),
       long(l.rejected_by(LinkError::bad_crc) + l.rejected_by(LinkError::bad_framing) +
            l.rejected_by(LinkError::bad_length)),
       "rejected"},
      {"nan", in(Fault::nan), long(l.rejected_by(LinkError::non_finite)), "non_finite"},
      {"out_of_range", in(Fault::out_of_range), long(l.rejected_by(LinkError::out_of_range)), "out_of_range"},
      {"drop+reorder", in(Fault::drop) + in(Fault::reorder), long(l.gaps), "gaps"},
      {"duplicate+reorder", in(Fault::duplicate) + in(Fault::reorder), long(l.repeated), "repeated"},
      {"delayed", in(Fault::delayed), long(l.late), "late"},
      {"bias", in(Fault::bias), long(l.implausible), "implausible"},
      {"reset", in(Fault::reset), d.resets, "boots"},
  };
}

inline bool all_detected(const std::vector<ClassCount>& rows) {
  bool ok = true;
  for (const ClassCount& r : rows) ok = ok && r.injected == r.detected;
  return ok;
}

}  // namespace attractor::hil
