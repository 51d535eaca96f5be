// SPDX-License-Identifier: Apache-2.0
// What the nonholonomic systems' attractor-sim entries (paper 000 §3; feedback_entry.hpp) share:
// the check and the projection of an attitude R ∈ SO(n) stored column-major in the state, the
// projection of a momentum onto the plane ⟨Π, e⟩ = 0, and the sample states of an energy level
// on that plane (the region check_step and --gains auto look at). Host-only.
#pragma once

#include <Eigen/SVD>
#include <array>
#include <cmath>
#include <string>

#include "attractor/core/types.hpp"
#include "numbers.hpp"

namespace attractor::sim {

// "" when the n×n block at R is a rotation (|RᵀR − I| ≤ 1e-9, det > 0), else why not.
template <int n>
std::string rotation_error(const char* option, const double* R) {
  const Eigen::Map<const Mat<double, n, n>> r(R);
  const double dev = (r.transpose() * r - Mat<double, n, n>::Identity()).norm();
  if (dev <= 1e-9 && r.determinant() > 0) return "";
  return std::string(option) + " is not a rotation: |R^T R - I| = " + cli::exact(dev) +
         ", det = " + cli::exact(r.determinant());
}

// The nearest rotation (polar factor); "" or why there is none.
template <int n>
std::string project_rotation(const char* option, double* R) {
  Eigen::Map<Mat<double, n, n>> r(R);
  const Eigen::JacobiSVD<Mat<double, n, n>> svd(r, Eigen::ComputeFullU | Eigen::ComputeFullV);
  if (!r.allFinite() || !(svd.singularValues()[n - 1] > 1e-9 * svd.singularValues()[0]) || !(r.determinant() > 0))
    return std::string(option) + " cannot be projected onto SO(" + std::to_string(n) + ") (singular or a reflection)";
  r = svd.matrixU() * svd.matrixV().transpose();
  return "";
}

// "" when ⟨Π, e⟩ = 0 to 1e-9 relative, else the message.
inline std::string momentum_error(const char* what, const Vec3<double>& Pi, const Vec3<double>& e) {
  const double c = Pi.dot(e);
  if (std::abs(c) <= 1e-9 * e.norm() * (1 + Pi.norm())) return "";
  return std::string(what) + " is off the constraint: " + cli::exact(c) + " instead of 0";
}

// Π minus its component along e (the Euclidean projection onto ⟨Π, e⟩ = 0).
inline Vec3<double> project_momentum(const Vec3<double>& Pi, const Vec3<double>& e) {
  return e.squaredNorm() > 0 ? Vec3<double>(Pi - (Pi.dot(e) / e.squaredNorm()) * e) : Pi;
}

// x0 and eight states with the momentum (the last three entries) on the ellipse where the plane
// ⟨Π, e⟩ = 0 meets the energy level of x0 (row `energy_row`, quadratic in Π), the rest as x0:
// a Lie-group system moves on that ellipse, and its group rows do not depend on Π.
template <class Sys>
std::array<Vec<double, Sys::N>, 9> energy_ellipse(const Sys& sys, const Vec<double, Sys::N>& x0, const Vec3<double>& e,
                                                  int energy_row) {
  std::array<Vec<double, Sys::N>, 9> r;
  r.fill(x0);
  const Vec3<double> en = e.normalized(), u = en.unitOrthogonal(), v = en.cross(u);
  const double h0 = sys.invariants(x0)[energy_row];
  for (std::size_t k = 1; k < r.size(); ++k) {
    const double th = 0.25 * M_PI * double(k);
    r[k].template tail<3>() = std::cos(th) * u + std::sin(th) * v;
    const double hk = sys.invariants(r[k])[energy_row];
    r[k].template tail<3>() *= hk > 0 && h0 > 0 ? std::sqrt(h0 / hk) : 0.0;
  }
  return r;
}

}  // namespace attractor::sim
