// SPDX-License-Identifier: Apache-2.0
// atan for float in a fixed, short instruction sequence (no libm call), for invariants evaluated
// in every Runge–Kutta stage (the pendulum skate's C2, systems/pendulum_skate.hpp), where newlib's
// atanf costs ~70–85 instructions on a Cortex-M4F.
//
//   |fast_atan(x) − atan(x)| ≤ 3e-7 for every float x (atan(x) exact; 2.03e-7 measured over every
//   non-negative float, at x ≈ 1.0001; host-tests check a dense grid of [−1e4, 1e4] and ±Inf),
//   i.e. ~2.5 float ulps of π/2. NaN gives NaN; −0 gives +0.
//
// atan(x) = sign(x) · (|x| ≤ 1 ? P(|x|) : π/2 − P(1/|x|)), with P(t) = t p(t²) on [0, 1] a
// degree-7 polynomial in t² fitted to atan(t)/t (near-minimax, relative error 9e-8 in exact
// arithmetic). Both branches are computed and selected, so every x costs the same instructions.
#pragma once

#include <cmath>

#include "attractor/core/inline.hpp"

namespace attractor {

ATTRACTOR_ALWAYS_INLINE float fast_atan(float x) {
  const float a = std::fabs(x);
  const float inv = 1.0f / a;         // +Inf for a = 0: then t = a
  const float t = a < inv ? a : inv;  // min(|x|, 1/|x|) in [0, 1]
  const float z = t * t;
  float p = -0.004780564457178116f;
  p = p * z + 0.024557486176490784f;
  p = p * z - 0.05990518257021904f;
  p = p * z + 0.09942788630723953f;
  p = p * z - 0.14029429852962494f;
  p = p * z + 0.19971376657485962f;
  p = p * z - 0.3333209455013275f;
  p = p * z + 0.9999999403953552f;
  const float r = t * p;
  const float folded = 1.5707963267948966f - r;  // atan(|x|) = π/2 − atan(1/|x|) for |x| > 1
  const float m = a > 1.0f ? folded : r;
  return x < 0.0f ? -m : m;
}

}  // namespace attractor
