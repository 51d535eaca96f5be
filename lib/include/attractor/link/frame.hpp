// SPDX-License-Identifier: Apache-2.0
// One HIL frame: header + payload + CRC-32, COBS-stuffed and delimited (layout in
// link/frame_layout.hpp). encode_frame() writes into the caller's buffer; decode_frame() checks
// a received frame completely and copies its payload into a FrameView. Decoding costs the same
// for every input of a given length: every check is evaluated, the first failing one (encoded
// size, COBS framing, CRC, version, type, payload size: docs/wire.md "Check order") is reported,
// and no byte outside the given sizes is read or written.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/link/byte_order.hpp"
#include "attractor/link/cobs.hpp"
#include "attractor/link/crc32.hpp"
#include "attractor/link/frame_layout.hpp"
#include "attractor/link/link_error.hpp"

namespace attractor::link {

struct FrameHeader {
  FrameType type = FrameType::sensor;
  std::uint32_t sequence = 0;
  std::uint32_t tick = 0;  // the control tick modulo 2^32 (link/frame_layout.hpp)
};

// A decoded frame: its header and a copy of its payload (payload_size bytes are meaningful).
struct FrameView {
  FrameHeader header;
  std::uint8_t payload[layout::max_payload_size] = {};
  std::size_t payload_size = 0;
};

// Writes COBS(header | payload | CRC) and the 0x00 delimiter into out; `written` gets the wire
// size (wire_size_of(h.type)). payload must hold exactly the type's payload size (bad_length
// otherwise; bad_type for a type outside FrameType); out_capacity >= wire_size_of(h.type).
inline LinkError encode_frame(const FrameHeader& h, const std::uint8_t* payload, std::size_t payload_size,
                              std::uint8_t* out, std::size_t out_capacity, std::size_t& written) {
  written = 0;
  const long expected = payload_size_of(std::uint8_t(h.type));
  if (expected < 0) return LinkError::bad_type;
  if (payload_size != std::size_t(expected)) return LinkError::bad_length;
  const std::size_t raw_size = layout::header_size + payload_size + layout::crc_size;
  if (out_capacity < raw_size + 2) return LinkError::buffer_too_small;

  std::uint8_t raw[layout::max_raw_size];
  raw[layout::version] = kProtocolVersion;
  raw[layout::type] = std::uint8_t(h.type);
  put_u32(raw + layout::sequence, h.sequence);
  put_u32(raw + layout::tick, h.tick);
  for (std::size_t i = 0; i < payload_size; ++i) raw[layout::header_size + i] = payload[i];
  put_u32(raw + layout::header_size + payload_size, crc32(raw, layout::header_size + payload_size));

  const LinkError e = cobs_encode(raw, raw_size, out, out_capacity);
  if (e != LinkError::none) return e;
  out[raw_size + 1] = 0;  // delimiter
  written = raw_size + 2;
  return LinkError::none;
}

// Checks one received frame, in[0, n): its encoded bytes without the 0x00 delimiter (a trailing
// delimiter, if passed, is a bad_framing error). On success `out` holds the header and payload;
// on any error `out` is the empty default FrameView (never half-filled). Only a size outside
// [min_encoded_size, max_encoded_size] returns early; otherwise the loop counts depend on n only.
inline LinkError decode_frame(const std::uint8_t* in, std::size_t n, FrameView& out) {
  out = FrameView{};
  if (n < layout::min_encoded_size || n > layout::max_encoded_size) return LinkError::bad_length;
  std::uint8_t raw[layout::max_raw_size] = {};
  const std::size_t raw_size = n - 1;
  const bool framing_ok = cobs_decode(in, n, raw, sizeof raw) == LinkError::none;

  const std::size_t body = raw_size - layout::crc_size;  // header + payload
  const bool crc_ok = crc32(raw, body) == get_u32(raw + body);
  const bool version_ok = raw[layout::version] == kProtocolVersion;
  const long expected = payload_size_of(raw[layout::type]);
  const bool type_ok = expected >= 0;
  const std::size_t declared = type_ok ? std::size_t(expected) : 0u;  // the type fixes the payload size
  const bool length_ok = type_ok && body == layout::header_size + declared;

  const LinkError e = !framing_ok   ? LinkError::bad_framing
                      : !crc_ok     ? LinkError::bad_crc
                      : !version_ok ? LinkError::bad_version
                      : !type_ok    ? LinkError::bad_type
                      : !length_ok  ? LinkError::bad_length
                                    : LinkError::none;
  // Filled the same way whatever the verdict (selects, no early exit): a rejected frame leaves
  // `out` as the empty default.
  // Masks rather than conditions: a compiler may not unswitch the copy loop on the verdict.
  const bool ok = e == LinkError::none;
  const std::uint32_t keep32 = 0u - std::uint32_t(ok);
  const std::size_t keep_size = 0u - std::size_t(ok);
  out.header.type = FrameType((raw[layout::type] & keep32) | (std::uint8_t(FrameType::sensor) & ~keep32));
  out.header.sequence = get_u32(raw + layout::sequence) & keep32;
  out.header.tick = get_u32(raw + layout::tick) & keep32;
  out.payload_size = declared & keep_size;
  for (std::size_t i = 0; i < layout::max_payload_size; ++i) {
    const std::uint32_t in_payload = 0u - std::uint32_t(i < out.payload_size);
    out.payload[i] = std::uint8_t(raw[layout::header_size + i] & in_payload);
  }
  return e;
}

}  // namespace attractor::link
