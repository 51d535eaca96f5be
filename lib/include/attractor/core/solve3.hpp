// SPDX-License-Identifier: Apache-2.0
// x = M⁻¹ b for a 3×3 M by the adjugate: fixed cost (no pivoting, no branches), the determinant
// returned for the caller's singularity test (det = 0 gives Inf/NaN, which callers check). Used
// where a model's structure reduces its solve to 3×3 (spherical robot (A(Γ) − J)Ω̇ = f, the
// skate's multiplier system Ψ𝔾⁻¹Ψᵀ λ = r).
#pragma once

#include "attractor/core/types.hpp"

// After types.hpp (which sets EIGEN_NO_MALLOC before Eigen/Core).
#include <Eigen/Geometry>

namespace attractor::detail {

template <class S>
Vec3<S> solve3_adjugate(const Mat3<S>& M, const Vec3<S>& b, S& det) {
  const Vec3<S> c0 = M.col(0), c1 = M.col(1), c2 = M.col(2);
  const Vec3<S> r0 = c1.cross(c2), r1 = c2.cross(c0), r2 = c0.cross(c1);  // rows of adj(M)
  det = c0.dot(r0);
  return Vec3<S>(r0.dot(b), r1.dot(b), r2.dot(b)) / det;
}

}  // namespace attractor::detail
