// SPDX-License-Identifier: Apache-2.0
// Why the HIL link refused a frame. Every malformed input maps to exactly one reason (the first
// check that fails, in the order of docs/wire.md "Check order"), so receivers can count
// rejections per class. Numbered explicitly: the counts travel in the status frame
// (link/frame_layout.hpp), in this order.
#pragma once

#include <cstdint>

namespace attractor::link {

enum class [[nodiscard]] LinkError : std::uint8_t{
    none = 0,
    bad_length = 1,        // encoded size outside the protocol's, or the payload size not its type's
    bad_framing = 2,       // COBS code chain broken: a zero byte inside, a code past the end
    bad_crc = 3,           // CRC-32 over header and payload does not match
    bad_version = 4,       // a protocol version this build does not speak
    bad_type = 5,          // an unknown frame type, or not the type the caller expected
    non_finite = 6,        // NaN or Inf in a payload value
    out_of_range = 7,      // a payload value outside its documented wire range
    buffer_too_small = 8,  // the caller's buffer cannot hold the result (a programming error)
};

inline constexpr int kLinkErrorCount = 9;

constexpr const char* to_string(LinkError e) {
  switch (e) {
    case LinkError::none: return "none";
    case LinkError::bad_length: return "bad_length";
    case LinkError::bad_framing: return "bad_framing";
    case LinkError::bad_crc: return "bad_crc";
    case LinkError::bad_version: return "bad_version";
    case LinkError::bad_type: return "bad_type";
    case LinkError::non_finite: return "non_finite";
    case LinkError::out_of_range: return "out_of_range";
    case LinkError::buffer_too_small: return "buffer_too_small";
  }
  return "unknown";
}

}  // namespace attractor::link
