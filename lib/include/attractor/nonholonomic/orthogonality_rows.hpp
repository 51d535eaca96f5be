// SPDX-License-Identifier: Apache-2.0
// RᵀR = I as invariant rows for a rotation R ∈ SO(n), n = 2 or 3, stored in the ambient R^{n×n}
// (column-major, as Eigen stores it). The rows are the entries A_ij, i ≤ j, of A = RᵀR − I with
// the diagonal ones divided by √2, so that with one gain k for the whole group
//     ½ k Σ_rows f² = (k/4) ‖RᵀR − I‖²   and   its R-gradient = k R (RᵀR − I),
// exactly the paper's term (paper 000 eqs. (36), (37)). ‖A‖² is a first integral of Ṙ = R ξ^
// in all of R^{n×n} (d/dt ‖A‖² = 2 tr(A[A, ξ^]) = 0), the single rows only on SO(n): the rows
// form one gain group (integrate/system.hpp), target 0.
#pragma once

#include <cmath>

#include "attractor/core/types.hpp"

namespace attractor {

template <class S, int n>
struct OrthogonalityRows {
  static_assert(n == 2 || n == 3, "OrthogonalityRows: SO(2) or SO(3)");
  static constexpr int count = n * (n + 1) / 2;
  static constexpr int entries = n * n;
  using Rot = Mat<S, n, n>;

  static S diagonal_scale() { return S(1) / std::sqrt(S(2)); }

  // f = (A_ij, i ≤ j, diagonal / √2), row-major over the upper triangle.
  static Vec<S, count> values(const Rot& R) {
    const Rot A = R.transpose() * R - Rot::Identity();
    Vec<S, count> f;
    int r = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i; j < n; ++j) f[r++] = i == j ? A(i, i) * diagonal_scale() : A(i, j);
    return f;
  }

  // d f / d vec(R) (count × n², vec column-major): ∂(r_iᵀ r_j)/∂r_i = r_j, ∂/∂r_j = r_i.
  static Mat<S, count, entries> jacobian(const Rot& R) {
    Mat<S, count, entries> J = Mat<S, count, entries>::Zero();
    int r = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i; j < n; ++j, ++r) {
        if (i == j) {
          J.row(r).template segment<n>(n * i) = (S(2) * diagonal_scale()) * R.col(i).transpose();
        } else {
          J.row(r).template segment<n>(n * i) = R.col(j).transpose();
          J.row(r).template segment<n>(n * j) = R.col(i).transpose();
        }
      }
    return J;
  }

  // jacobian(R)ᵀ e as a matrix, without the count × n² product: R W with W symmetric,
  // W_ii = √2 e_ii, W_ij = W_ji = e_ij (the row weights e in the order of values()).
  static Rot gradient(const Rot& R, const Vec<S, count>& e) {
    Rot W;
    int r = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i; j < n; ++j, ++r) {
        if (i == j) {
          W(i, i) = (S(2) * diagonal_scale()) * e[r];
        } else {
          W(i, j) = e[r];
          W(j, i) = e[r];
        }
      }
    return R * W;
  }
};

}  // namespace attractor
