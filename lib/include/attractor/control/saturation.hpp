// SPDX-License-Identifier: Apache-2.0
// Actuator saturation with a defined answer for bad input (the project's rule: bad input gets a
// defined answer): |u| <= limit, NaN/Inf -> 0 (zero torque is the documented safe state).
#pragma once

#include "attractor/core/finite.hpp"

namespace attractor {

// Clamp u to [−limit, limit]; non-finite u or limit -> 0. Branch-light, same cost every call.
template <class S>
S saturate(S u, S limit) {
  if (!is_finite(u) || !is_finite(limit)) return S(0);
  const S a = limit < S(0) ? -limit : limit;
  return u > a ? a : (u < -a ? -a : u);
}

// True when saturate(u, limit) changed u (for fault/saturation counters).
template <class S>
bool saturates(S u, S limit) {
  return !is_finite(u) || !is_finite(limit) || u > (limit < S(0) ? -limit : limit) ||
         u < -(limit < S(0) ? -limit : limit);
}

}  // namespace attractor
