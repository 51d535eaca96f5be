// SPDX-License-Identifier: Apache-2.0
// The harmonic oscillator as a feedback-integrator system: the smallest system of the
// integrate/system.hpp contract, and the worked example of docs/adding-a-feedback-system.md.
// State x = (q, p); field X = (p/m, -k q); one invariant, the energy H = p²/(2m) + k q²/2.
// Its exact flow is a rotation at ω = sqrt(k/m), so a run's error can be measured against it:
//   q(t) = q0 cos ωt + p0/(m ω) sin ωt,   p(t) = -m ω q0 sin ωt + p0 cos ωt.
// The default (m = k = 1) is H = (q² + p²)/2.
#pragma once

#include <cmath>

#include "attractor/core/finite.hpp"
#include "attractor/core/inline.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

template <class S>
struct HarmonicOscillator {
  using Scalar = S;
  static constexpr int N = 2, M = 1;
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;

  S m = S(1);  // mass [kg]
  S k = S(1);  // spring stiffness [N/m]

  // Validated parameters: finite, m > 0, k > 0.
  static Result<HarmonicOscillator> make(S mass, S stiffness) {
    if (!is_finite(mass) || !is_finite(stiffness)) return Error::non_finite;
    if (!(mass > S(0)) || !(stiffness > S(0))) return Error::invalid_parameter;
    HarmonicOscillator o;
    o.m = mass, o.k = stiffness;
    return o;
  }

  ATTRACTOR_ALWAYS_INLINE State field(const State& x) const { return State(x[1] / m, -k * x[0]); }
  Invariants invariants(const State& x) const { return Invariants(x[1] * x[1] / (S(2) * m) + k * x[0] * x[0] / S(2)); }
  // grad H = (k q, p/m).
  Mat<S, M, N> invariants_jacobian(const State& x) const { return Mat<S, M, N>(k * x[0], x[1] / m); }

  // The exact flow from x0 after time t (in the state's precision).
  State exact(const State& x0, S t) const {
    using std::cos;
    using std::sin;
    using std::sqrt;
    const S w = sqrt(k / m), c = cos(w * t), s = sin(w * t);
    return State(x0[0] * c + x0[1] / (m * w) * s, -m * w * x0[0] * s + x0[1] * c);
  }
};

}  // namespace attractor
