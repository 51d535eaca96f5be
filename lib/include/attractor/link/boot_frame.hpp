// SPDX-License-Identifier: Apache-2.0
// The boot frame (firmware -> host): the firmware announces every boot on the link with its
// reset count and boot reason (rt/boot_record.hpp), so the host can tell a firmware that
// restarted (its counters and controller state are new) and resynchronise with hello. Layout in
// link/frame_layout.hpp; a receiver rejects an unknown reason or nonzero reserved bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/link/frame.hpp"
#include "attractor/rt/boot_record.hpp"

namespace attractor::link {

inline LinkError encode_boot_frame(std::uint32_t sequence, const rt::BootInfo& b, std::uint8_t* out,
                                   std::size_t out_capacity, std::size_t& written) {
  std::uint8_t payload[layout::boot_payload_size] = {};
  put_u32(payload + layout::boot_resets, b.resets);
  payload[layout::boot_reason] = std::uint8_t(b.reason);
  return encode_frame(FrameHeader{FrameType::boot, sequence, 0}, payload, sizeof payload, out, out_capacity, written);
}

// bad_type unless a boot frame; out_of_range for an unknown reason or reserved bytes set.
inline LinkError unpack_boot(const FrameView& v, rt::BootInfo& b) {
  b = rt::BootInfo{};
  if (v.header.type != FrameType::boot || v.payload_size != layout::boot_payload_size) return LinkError::bad_type;
  const std::uint8_t* p = v.payload;
  const bool ok = p[layout::boot_reason] <= rt::kMaxBootReason && p[layout::boot_reserved] == 0 &&
                  p[layout::boot_reserved + 1] == 0 && p[layout::boot_reserved + 2] == 0;
  if (!ok) return LinkError::out_of_range;
  b.resets = get_u32(p + layout::boot_resets);
  b.reason = rt::BootReason(p[layout::boot_reason]);
  return LinkError::none;
}

}  // namespace attractor::link
