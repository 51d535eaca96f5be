// SPDX-License-Identifier: Apache-2.0
// The inverse of a small (1×1, 2×2 or 3×3) matrix by the adjugate: fixed cost, no pivoting, no
// Eigen/LU. The nonholonomic adapters invert the constraints' Gram matrix C^{ℓi} = ⟨e_ℓ♭, e_i⟩
// (paper 000 Remark 2.4, K ≤ 3 constraints) and a constant locked inertia (3×3). A singular
// matrix gives Inf/NaN entries: callers reject such parameters in validate().
#pragma once

#include "attractor/core/types.hpp"

#include <Eigen/Geometry>  // cross()

namespace attractor {

template <class S, int K>
Mat<S, K, K> small_inverse(const Mat<S, K, K>& A) {
  static_assert(K >= 1 && K <= 3, "small_inverse: 1x1, 2x2 or 3x3 only");
  Mat<S, K, K> R;
  if constexpr (K == 1) {
    R(0, 0) = S(1) / A(0, 0);
  } else if constexpr (K == 2) {
    const S inv_det = S(1) / (A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0));
    R << A(1, 1) * inv_det, -A(0, 1) * inv_det, -A(1, 0) * inv_det, A(0, 0) * inv_det;
  } else {
    // Columns of the adjugate transpose are cross products of A's columns.
    const Vec3<S> c0 = A.col(0), c1 = A.col(1), c2 = A.col(2);
    const Vec3<S> r0 = c1.cross(c2), r1 = c2.cross(c0), r2 = c0.cross(c1);
    const S inv_det = S(1) / c0.dot(r0);
    R.row(0) = r0.transpose() * inv_det;
    R.row(1) = r1.transpose() * inv_det;
    R.row(2) = r2.transpose() * inv_det;
  }
  return R;
}

// True when the symmetric A is positive definite (leading minors > 0; Sylvester's criterion).
template <class S, int K>
bool is_symmetric_positive_definite(const Mat<S, K, K>& A) {
  static_assert(K >= 1 && K <= 3, "is_symmetric_positive_definite: 1x1, 2x2 or 3x3 only");
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j)
      if (!(A(i, j) == A(j, i))) return false;  // also false on NaN
  if (!(A(0, 0) > S(0))) return false;
  if constexpr (K >= 2) {
    if (!(A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0) > S(0))) return false;
  }
  if constexpr (K == 3) {
    if (!(A.col(0).dot(Vec3<S>(A.col(1)).cross(Vec3<S>(A.col(2)))) > S(0))) return false;
  }
  return true;
}

}  // namespace attractor
