// SPDX-License-Identifier: Apache-2.0
// Scalars to and from the wire's IEEE 754 binary32, for float and double alike, without
// undefined behaviour: a double beyond binary32's range becomes ±Inf (never an overflowing
// conversion), NaN stays NaN. The range check is the receiver's: a value is accepted when it is
// finite and |v| <= limit. Branch-free (selects), so the cost never depends on the value.
#pragma once

#include <cstdint>
#include <limits>

#include "attractor/core/finite.hpp"
#include "attractor/link/byte_order.hpp"

namespace attractor::link {

template <class S>
float to_wire(S v) {
  const S big = S(std::numeric_limits<float>::max());
  const S inf = std::numeric_limits<S>::infinity();
  const S c = v > big ? inf : v < -big ? -inf : v;  // NaN compares false: stays NaN
  return static_cast<float>(c);
}

// What a receiver checks of values read from the wire (float), or a sender of values it is
// about to send (float or double: a finite double beyond binary32 is out of range, not Inf).
struct WireCheck {
  bool finite = true;
  bool in_range = true;
  template <class T>
  void add(T v, float limit) {
    const bool f = is_finite(v);
    const T a = v < T(0) ? -v : v;
    finite = finite & f;
    in_range = in_range & (!f || a <= T(limit));  // a non-finite value is reported as non_finite only
  }
};

// Reads one binary32 at p, records its check against limit, and returns it as S, or zero when
// it fails the check (a rejected value never reaches the caller's arithmetic).
template <class S>
S read_checked(const std::uint8_t* p, float limit, WireCheck& check) {
  const float v = get_f32(p);
  WireCheck one;
  one.add(v, limit);
  check.finite = check.finite & one.finite;
  check.in_range = check.in_range & one.in_range;
  return (one.finite & one.in_range) ? static_cast<S>(v) : S(0);
}

}  // namespace attractor::link
