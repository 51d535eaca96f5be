// SPDX-License-Identifier: Apache-2.0
// Central differences in double, the one reference the tests hold analytic derivatives to
// (invariant Jacobians in conformance.hpp, field Jacobians, Hessians): column j is
// (f(x + e_j δ_j) − f(x − e_j δ_j)) / (2δ_j), δ_j = step · max(1, |x_j|). Truncation O(δ²),
// rounding O(eps |f| / δ): ~1e-10 relative at the default step.
#pragma once

#include <algorithm>
#include <cmath>

#include "attractor/core/types.hpp"

namespace attractor::test {

template <int R, int N, class F>
Mat<double, R, N> numeric_jacobian(const F& f, const Vec<double, N>& x, double step = 1e-6) {
  Mat<double, R, N> J;
  for (int j = 0; j < N; ++j) {
    const double e = step * std::max(1.0, std::abs(x[j]));
    Vec<double, N> a = x, b = x;
    a[j] += e;
    b[j] -= e;
    J.col(j) = (Vec<double, R>(f(a)) - Vec<double, R>(f(b))) / (a[j] - b[j]);
  }
  return J;
}

}  // namespace attractor::test
