// SPDX-License-Identifier: Apache-2.0
// What a receiving end of the HIL link counts: frames rejected per reason (LinkError 1..7),
// frames missing (the sequence number jumped forward) and frames that did not advance the
// sequence (duplicated or reordered), sensor frames whose sample time lagged (late: an old
// sample sent late), sensor frames the plant's adapter found implausible (e.g. |Γ| != 1, a
// biased vertical) and frames outside the sequence/tick window (wild). Carried in the status frame
// (link/status_frame.hpp), so the host reports what the firmware detected against what it injected.
#pragma once

#include <cstdint>

#include "attractor/link/frame_layout.hpp"
#include "attractor/link/link_error.hpp"

namespace attractor::link {

struct LinkCounters {
  std::uint32_t rejected[layout::link_counters] = {};  // [i]: LinkError(i + 1)
  std::uint32_t gaps = 0;                              // frames missing before an accepted one
  std::uint32_t repeated = 0;                          // accepted frames whose sequence did not advance
  std::uint32_t late = 0;                              // sequence advanced, tick index not: an old sample (held, stale)
  std::uint32_t implausible = 0;                       // values decodable but physically impossible (held, stale)
  std::uint32_t wild = 0;                              // sequence or tick index outside the window (link/hil_link.hpp)

  // Counts one rejection (none and buffer_too_small are not line faults: not counted).
  // Branch-free: every counter is visited.
  void count(LinkError e) {
    for (int i = 0; i < layout::link_counters; ++i) rejected[i] += std::uint32_t(int(e) == i + 1);
  }
  // Adds another run's counts (the firmware's power-on totals over every hello).
  void add(const LinkCounters& o) {
    for (int i = 0; i < layout::link_counters; ++i) rejected[i] += o.rejected[i];
    gaps += o.gaps;
    repeated += o.repeated;
    late += o.late;
    implausible += o.implausible;
    wild += o.wild;
  }
  std::uint32_t rejected_by(LinkError e) const {
    const int i = int(e) - 1;
    return (i >= 0 && i < layout::link_counters) ? rejected[i] : 0u;
  }
  std::uint32_t total_rejected() const {
    std::uint32_t t = 0;
    for (std::uint32_t r : rejected) t += r;
    return t;
  }
};

}  // namespace attractor::link
