// SPDX-License-Identifier: Apache-2.0
// The hello frame's payload (either way; layout in link/frame_layout.hpp): the sender's plant
// (link/plant_id.hpp), the status period N (link/status_frame.hpp: a status frame after every
// N-th answer; 0 = only on request) and the wire schema hash
// (link/wire_schema.hpp). The host sends the plant it simulates, the period it wants and its
// schema; the firmware answers with its own plant and schema and the period it uses. The host
// compares (attractor-hil: a firmware of another plant or schema is refused before the first
// tick, exit 11).
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/link/frame.hpp"
#include "attractor/link/plant_id.hpp"
#include "attractor/link/wire_schema.hpp"

namespace attractor::link {

struct HelloInfo {
  PlantId plant = PlantId::none;
  std::uint16_t status_every = 0;
  std::uint32_t schema = kWireSchemaHash;
};

inline LinkError encode_hello_frame(std::uint32_t sequence, std::uint32_t tick, const HelloInfo& h, std::uint8_t* out,
                                    std::size_t out_capacity, std::size_t& written) {
  std::uint8_t payload[layout::hello_payload_size] = {};
  payload[layout::hello_plant] = std::uint8_t(h.plant);
  put_u16(payload + layout::hello_status_every, h.status_every);
  put_u32(payload + layout::hello_schema, h.schema);
  return encode_frame(FrameHeader{FrameType::hello, sequence, tick}, payload, sizeof payload, out, out_capacity,
                      written);
}

// bad_type unless a hello frame; out_of_range for an unknown plant or a reserved byte set (the
// schema is returned as sent: comparing it is the receiver's decision). h is the default on error.
inline LinkError unpack_hello(const FrameView& v, HelloInfo& h) {
  h = HelloInfo{};
  if (v.header.type != FrameType::hello || v.payload_size != layout::hello_payload_size) return LinkError::bad_type;
  const std::uint8_t* p = v.payload;
  if (p[layout::hello_plant] > kMaxPlantId || p[layout::hello_reserved] != 0) return LinkError::out_of_range;
  h.plant = PlantId(p[layout::hello_plant]);
  h.status_every = get_u16(p + layout::hello_status_every);
  h.schema = get_u32(p + layout::hello_schema);
  return LinkError::none;
}

}  // namespace attractor::link
