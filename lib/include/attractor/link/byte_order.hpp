// SPDX-License-Identifier: Apache-2.0
// Little-endian byte order of the HIL wire format, written byte by byte so the layout is the
// same on any host and needs no alignment. Floats travel as IEEE 754 binary32 bit patterns.
#pragma once

#include <cstdint>
#include <cstring>

namespace attractor::link {

inline void put_u16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
}

inline void put_u32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

inline void put_f32(std::uint8_t* p, float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  put_u32(p, u);
}

inline std::uint16_t get_u16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }

inline std::uint32_t get_u32(const std::uint8_t* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t(p[i]) << (8 * i);
  return v;
}

inline float get_f32(const std::uint8_t* p) {
  const std::uint32_t u = get_u32(p);
  float v;
  std::memcpy(&v, &u, sizeof v);
  return v;
}

}  // namespace attractor::link
