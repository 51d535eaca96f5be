// SPDX-License-Identifier: Apache-2.0
// Consistent Overhead Byte Stuffing (S. Cheshire, M. Baker, "Consistent Overhead Byte
// Stuffing", IEEE/ACM Trans. Networking 7(2), 1999): removes every zero byte from a block so a
// single 0x00 can delimit frames on a byte stream and a receiver resynchronises at the next one.
//
// Restricted to blocks of at most 254 bytes: the encoding then always has exactly one overhead
// byte (no 0xFF split codes except a full 254-byte block's first), so the encoded size is n + 1
// whatever the data, and both loops below run a fixed number of iterations with no
// data-dependent branch (selects only). Decoding checks the whole code chain and never reads
// or writes outside the given sizes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/link/link_error.hpp"

namespace attractor::link {

inline constexpr std::size_t kCobsMaxBlock = 254;

constexpr std::size_t cobs_encoded_size(std::size_t n) { return n + 1; }

// Encodes in[0, n) into out[0, n + 1). Returns bad_length when n > 254, buffer_too_small when
// out_capacity < n + 1 (nothing written then).
inline LinkError cobs_encode(const std::uint8_t* in, std::size_t n, std::uint8_t* out, std::size_t out_capacity) {
  if (n > kCobsMaxBlock) return LinkError::bad_length;
  if (out_capacity < n + 1) return LinkError::buffer_too_small;
  std::size_t code_at = 0;  // where the current block's code byte goes
  std::uint8_t code = 1;    // 1 + bytes in the current block so far
  out[0] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t b = in[i];
    const bool zero = b == 0;
    out[i + 1] = b;  // a zero's slot becomes the next block's code byte, written below or later
    out[code_at] = zero ? code : out[code_at];
    code_at = zero ? i + 1 : code_at;
    code = zero ? std::uint8_t(1) : std::uint8_t(code + 1);
  }
  out[code_at] = code;
  return LinkError::none;
}

// Decodes in[0, n) (one frame without its 0x00 delimiter, n >= 1) into out[0, n - 1).
// bad_framing when a byte is zero or the code chain does not end exactly at n;
// bad_length when n == 0 or n > 255; buffer_too_small when out_capacity < n - 1.
// On any error the output bytes written so far are meaningless; callers discard them.
inline LinkError cobs_decode(const std::uint8_t* in, std::size_t n, std::uint8_t* out, std::size_t out_capacity) {
  if (n == 0 || n > kCobsMaxBlock + 1) return LinkError::bad_length;
  if (out_capacity < n - 1) return LinkError::buffer_too_small;
  bool ok = in[0] != 0;
  std::size_t next = in[0];  // index of the next code byte
  for (std::size_t j = 1; j < n; ++j) {
    const std::uint8_t b = in[j];
    ok = ok & (b != 0);
    const bool is_code = j == next;
    out[j - 1] = is_code ? std::uint8_t(0) : b;
    next = is_code ? j + b : next;
  }
  ok = ok & (next == n);  // the last block ends exactly at the end (its zero is implicit)
  return ok ? LinkError::none : LinkError::bad_framing;
}

}  // namespace attractor::link
