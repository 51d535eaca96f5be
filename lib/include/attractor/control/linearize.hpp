// SPDX-License-Identifier: Apache-2.0
// Linearization of a controlled field ẋ = f(x, u) at a point (x0, u0) by central differences:
//   A = ∂f/∂x (N×N),  B = ∂f/∂u (N×M),   column j: (f(x0 + h_j e_j) − f(x0 − h_j e_j)) / (2 h_j),
// with h_j = step · max(1, |x0_j|) (the error is O(h²) times the third derivative). Fixed size, no
// heap; 2(N + M) field evaluations. For set-up (an LQR gain), not for the control tick.
//
//   auto ab = linearize<S, N, M>(f, x0, u0);   // f(const Vec<S,N>&, const Vec<S,M>&) -> Vec<S,N>
//   if (!ab) -> Error::non_finite (x0, u0, step or a field value not finite) / invalid_parameter (step <= 0)
#pragma once

#include <cmath>
#include <limits>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

template <class S, int N, int M>
struct Linearization {
  Mat<S, N, N> A = Mat<S, N, N>::Zero();
  Mat<S, N, M> B = Mat<S, N, M>::Zero();
};

// The default step balances truncation (h²) against rounding (ε/h): ε^(1/3).
template <class S>
S default_difference_step() {
  using std::cbrt;
  return cbrt(std::numeric_limits<S>::epsilon());
}

template <class S, int N, int M, class Field>
Result<Linearization<S, N, M>> linearize(const Field& f, const Vec<S, N>& x0, const Vec<S, M>& u0,
                                         S step = default_difference_step<S>()) {
  using std::abs;
  if (!all_finite(x0) || !all_finite(u0) || !is_finite(step)) return Error::non_finite;
  if (!(step > S(0))) return Error::invalid_parameter;
  Linearization<S, N, M> out;
  for (int j = 0; j < N; ++j) {
    const S h = step * (abs(x0[j]) > S(1) ? abs(x0[j]) : S(1));
    Vec<S, N> xp = x0, xm = x0;
    xp[j] += h;
    xm[j] -= h;
    out.A.col(j) = (f(xp, u0) - f(xm, u0)) / ((xp[j] - xm[j]));  // the representable 2h
  }
  for (int j = 0; j < M; ++j) {
    const S h = step * (abs(u0[j]) > S(1) ? abs(u0[j]) : S(1));
    Vec<S, M> up = u0, um = u0;
    up[j] += h;
    um[j] -= h;
    out.B.col(j) = (f(x0, up) - f(x0, um)) / ((up[j] - um[j]));
  }
  if (!all_finite(out.A) || !all_finite(out.B)) return Error::non_finite;
  return out;
}

}  // namespace attractor
