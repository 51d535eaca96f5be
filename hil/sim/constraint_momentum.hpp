// SPDX-License-Identifier: Apache-2.0
// The momentum rule of the nonholonomic commands with several constraints ⟨z, e_i⟩ = 0 in a
// metric m (attractor-sim rolling-disk, roller-racer; the attitude's rule is
// nonholonomic_entry.hpp's): off the constraints the driver refuses the start (exit 5) unless
// --project, which moves z by the metric projection z − m E C Eᵀ z, C = (Eᵀ m E)⁻¹ (the paper's
// extension keeps a constraint momentum constant, so a start must not carry one). Host-only.
#pragma once

#include <string>

#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/small_inverse.hpp"
#include "numbers.hpp"

namespace attractor::sim {

// "" when the constraint momenta Eᵀz vanish to 1e-9 (relative to |z|), else why not.
template <int Z, int K>
std::string constraint_momentum_error(const char* what, const Mat<double, Z, K>& E, const double* z) {
  const Vec<double, Z> v = Eigen::Map<const Vec<double, Z>>(z);
  const double c = (E.transpose() * v).cwiseAbs().maxCoeff();
  if (c <= 1e-9 * (1 + v.norm())) return "";
  return std::string(what) + " is off the constraints: |<z, e_i>| = " + cli::exact(c) + " instead of 0";
}

// z ← z − m E C Eᵀ z: the nearest point of the constraint set in the metric m⁻¹.
template <int Z, int K>
void project_constraint_momentum(const Mat<double, Z, Z>& m, const Mat<double, Z, K>& E, double* z) {
  Eigen::Map<Vec<double, Z>> v(z);
  const Mat<double, K, K> C = small_inverse<double, K>(Mat<double, K, K>(E.transpose() * m * E));
  v -= m * (E * (C * (E.transpose() * v)));
}

}  // namespace attractor::sim
