// SPDX-License-Identifier: Apache-2.0
// CRC-32/ISO-HDLC, the CRC of zlib, PNG and Ethernet (ISO/IEC 13239; catalogued as
// "CRC-32/ISO-HDLC" in Greg Cook's catalogue of parametrised CRC algorithms): polynomial
// 0x04C11DB7 processed bit-reflected (0xEDB88320), initial value 0xFFFFFFFF, reflected input
// and output, final XOR 0xFFFFFFFF. Check value: crc32("123456789") = 0xCBF43926, pinned in
// host-tests/unit/link/link_crc32_test.cpp and cross-checked against Python's zlib/binascii.
// One table lookup per byte: the cost depends on the length only, never on the data.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace attractor::link {

namespace detail {
constexpr std::array<std::uint32_t, 256> make_crc32_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    t[i] = c;
  }
  return t;
}
}  // namespace detail

// 1 KiB, computed at compile time (read-only data, flash on the target).
inline constexpr std::array<std::uint32_t, 256> kCrc32Table = detail::make_crc32_table();

inline constexpr std::uint32_t kCrc32Check = 0xCBF43926u;  // crc32("123456789")

// Continue a CRC over more bytes: start from crc32_init(), end with crc32_final().
constexpr std::uint32_t crc32_init() { return 0xFFFFFFFFu; }
constexpr std::uint32_t crc32_update(std::uint32_t state, const std::uint8_t* data, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) state = (state >> 8) ^ kCrc32Table[(state ^ data[i]) & 0xFFu];
  return state;
}
constexpr std::uint32_t crc32_final(std::uint32_t state) { return state ^ 0xFFFFFFFFu; }

constexpr std::uint32_t crc32(const std::uint8_t* data, std::size_t n) {
  return crc32_final(crc32_update(crc32_init(), data, n));
}

}  // namespace attractor::link
