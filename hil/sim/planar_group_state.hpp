// SPDX-License-Identifier: Apache-2.0
// The initial-state rules the planar nonholonomic commands share (attractor-sim rolling-disk,
// roller-racer): the heading is given as R ∈ SO(2), column-major (cos θ, sin θ, −sin θ, cos θ),
// the state's own layout (se2.hpp), and the momentum must satisfy the constraints
// ⟨z, e_i⟩ = 0. Off either, the driver refuses the start (exit 5) unless --project, which moves
// R to the rotation of the same angle and z by the metric projection z − m E C Eᵀ z (the
// paper's extension leaves such a component constant, so the start must not carry one).
#pragma once

#include <cmath>
#include <string>

#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/small_inverse.hpp"

namespace attractor::sim {

// "" when R (4 entries) is a rotation to 1e-9, else why not.
inline std::string planar_off_rotation(const double* R) {
  const double c = R[0], s = R[1];
  const double worst = std::fmax(std::fabs(c * c + s * s - 1), std::fmax(std::fabs(R[2] + s), std::fabs(R[3] - c)));
  return worst <= 1e-9 ? "" : "R0 is not a rotation (cos t, sin t, -sin t, cos t)";
}

// R onto SO(2): the rotation by atan2(R[1], R[0]); refuses R[0] = R[1] = 0.
inline std::string planar_project_rotation(double* R) {
  const double t = std::atan2(R[1], R[0]);
  if (!(std::hypot(R[0], R[1]) > 1e-12)) return "R0 = 0 cannot be projected onto a rotation";
  R[0] = std::cos(t), R[1] = std::sin(t), R[2] = -R[1], R[3] = R[0];
  return "";
}

// "" when the constraint momenta Eᵀz vanish to 1e-9 (relative to |z|), else why not.
template <int Z, int K>
std::string planar_off_constraint(const Mat<double, Z, K>& E, const double* z) {
  const Vec<double, Z> v = Eigen::Map<const Vec<double, Z>>(z);
  const double c = (E.transpose() * v).cwiseAbs().maxCoeff();
  return c <= 1e-9 * (1 + v.norm()) ? "" : "the momentum is off the constraint (rolling without slipping)";
}

// z ← z − m E C Eᵀ z, C = (Eᵀ m E)⁻¹: the nearest point of the constraint set in the metric m⁻¹.
template <int Z, int K>
void planar_project_momentum(const Mat<double, Z, Z>& m, const Mat<double, Z, K>& E, double* z) {
  Eigen::Map<Vec<double, Z>> v(z);
  const Mat<double, K, K> C = small_inverse<double, K>(Mat<double, K, K>(E.transpose() * m * E));
  v -= m * (E * (C * (E.transpose() * v)));
}

}  // namespace attractor::sim
