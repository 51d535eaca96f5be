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
  static Rot gradient(const Rot& R, const Vec<S, count>& e) { return R * weight_matrix(e); }

  static Rot weight_matrix(const Vec<S, count>& e) {
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
    return W;
  }

  // The W of gradient() for the row weights e = k∘(values(R) − f0), straight from A = RᵀR − I
  // without forming values(): W_ij = k_r (A_ij − f0_r) off the diagonal, W_ii = k_r (A_ii − √2 f0_r)
  // (the diagonal rows are A_ii/√2: √2 k_r (A_ii/√2 − f0_r)). Written out for n = 2, 3 so that
  // it compiles to straight-line code (the feedback field's hot path; lie_group_extension.hpp).
  static Rot feedback_weights(const Rot& R, const Vec<S, count>& k, const Vec<S, count>& f0) {
    const S s2 = std::sqrt(S(2));
    Rot W;
    if constexpr (n == 2) {
      const S a00 = R.col(0).squaredNorm() - S(1), a01 = R.col(0).dot(R.col(1)), a11 = R.col(1).squaredNorm() - S(1);
      W(0, 0) = k[0] * (a00 - s2 * f0[0]);
      W(0, 1) = W(1, 0) = k[1] * (a01 - f0[1]);
      W(1, 1) = k[2] * (a11 - s2 * f0[2]);
    } else {
      const S a00 = R.col(0).squaredNorm() - S(1), a01 = R.col(0).dot(R.col(1)), a02 = R.col(0).dot(R.col(2));
      const S a11 = R.col(1).squaredNorm() - S(1), a12 = R.col(1).dot(R.col(2)), a22 = R.col(2).squaredNorm() - S(1);
      W(0, 0) = k[0] * (a00 - s2 * f0[0]);
      W(0, 1) = W(1, 0) = k[1] * (a01 - f0[1]);
      W(0, 2) = W(2, 0) = k[2] * (a02 - f0[2]);
      W(1, 1) = k[3] * (a11 - s2 * f0[3]);
      W(1, 2) = W(2, 1) = k[4] * (a12 - f0[4]);
      W(2, 2) = k[5] * (a22 - s2 * f0[5]);
    }
    return W;
  }
};

}  // namespace attractor
