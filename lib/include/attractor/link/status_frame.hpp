// SPDX-License-Identifier: Apache-2.0
// The status frame (firmware -> host): every counter of the run since the last hello — the
// supervisor's fault counters and what the link rejected, found missing, repeated, late,
// implausible or wild (link/link_counters.hpp). Kept out of the per-tick actuator frame so that
// a tick fits a 921600-baud UART at 1 kHz; sent after every N-th answer (N from the host's
// hello, link/hello_frame.hpp) and on the host's status request (the runner asks before a reset
// and before its goodbye), so the host's summary and the firmware's report agree on every
// counter. Layout in
// link/frame_layout.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/link/frame.hpp"
#include "attractor/link/link_counters.hpp"
#include "attractor/rt/supervisor.hpp"

namespace attractor::link {

struct StatusReport {
  rt::FaultCounts faults;  // the supervisor's counters since the run started
  LinkCounters link;       // the link's counters since the last hello
};

namespace detail {
inline void fault_array(const rt::FaultCounts& f, std::uint32_t (&a)[layout::fault_counters]) {
  a[0] = f.non_finite;
  a[1] = f.out_of_range;
  a[2] = f.stale;
  a[3] = f.overrun;
  a[4] = f.envelope;
  a[5] = f.saturated;
}
}  // namespace detail

inline void pack_status(const StatusReport& s, std::uint8_t (&payload)[layout::status_payload_size]) {
  std::uint32_t f[layout::fault_counters];
  detail::fault_array(s.faults, f);
  for (int i = 0; i < layout::fault_counters; ++i) put_u32(payload + layout::status_faults + 4 * std::size_t(i), f[i]);
  for (int i = 0; i < layout::link_counters; ++i)
    put_u32(payload + layout::status_link + 4 * std::size_t(i), s.link.rejected[i]);
  put_u32(payload + layout::status_gaps, s.link.gaps);
  put_u32(payload + layout::status_repeated, s.link.repeated);
  put_u32(payload + layout::status_late, s.link.late);
  put_u32(payload + layout::status_implausible, s.link.implausible);
  put_u32(payload + layout::status_wild, s.link.wild);
}

inline LinkError encode_status_frame(std::uint32_t sequence, std::uint32_t tick, const StatusReport& s,
                                     std::uint8_t* out, std::size_t out_capacity, std::size_t& written) {
  std::uint8_t payload[layout::status_payload_size];
  pack_status(s, payload);
  return encode_frame(FrameHeader{FrameType::status, sequence, tick}, payload, sizeof payload, out, out_capacity,
                      written);
}

// bad_type unless a status frame (every counter value is valid); s is zero then.
inline LinkError unpack_status(const FrameView& v, StatusReport& s) {
  s = StatusReport{};
  if (v.header.type != FrameType::status || v.payload_size != layout::status_payload_size) return LinkError::bad_type;
  const std::uint8_t* p = v.payload;
  std::uint32_t f[layout::fault_counters];
  for (int i = 0; i < layout::fault_counters; ++i) f[i] = get_u32(p + layout::status_faults + 4 * std::size_t(i));
  s.faults.non_finite = f[0];
  s.faults.out_of_range = f[1];
  s.faults.stale = f[2];
  s.faults.overrun = f[3];
  s.faults.envelope = f[4];
  s.faults.saturated = f[5];
  for (int i = 0; i < layout::link_counters; ++i)
    s.link.rejected[i] = get_u32(p + layout::status_link + 4 * std::size_t(i));
  s.link.gaps = get_u32(p + layout::status_gaps);
  s.link.repeated = get_u32(p + layout::status_repeated);
  s.link.late = get_u32(p + layout::status_late);
  s.link.implausible = get_u32(p + layout::status_implausible);
  s.link.wild = get_u32(p + layout::status_wild);
  return LinkError::none;
}

}  // namespace attractor::link
