// SPDX-License-Identifier: Apache-2.0
// Finiteness checks that survive -ffast-math-like flags and work for any Eigen expression.
#pragma once

#include <cstdint>
#include <cstring>

namespace attractor {

// Bit-level test: exponent bits all ones means Inf or NaN. Independent of compiler flags
// that may assume finite math, which matters because this guards the ISR's inputs.
inline bool is_finite(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return (u & 0x7F800000u) != 0x7F800000u;
}

inline bool is_finite(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return (u & 0x7FF0000000000000ull) != 0x7FF0000000000000ull;
}

// All coefficients finite. Fixed-size loop: same cost whatever the data.
template <class Derived>
bool all_finite(const Derived& m) {
  bool ok = true;
  for (int i = 0; i < m.size(); ++i) ok = ok & is_finite(m.coeff(i));
  return ok;
}

}  // namespace attractor
