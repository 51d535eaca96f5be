// SPDX-License-Identifier: Apache-2.0
// Accelerations of a mechanical system from its Lagrangian and linear velocity constraints by
// the Lagrange–d'Alembert principle with multipliers, numerically (double, central differences):
//
//   M(q) q̈ = ∂L/∂q − (∂²L/∂q̇∂q) q̇ + Aᵀ(q) λ,   A(q) q̈ + (d/dt A) q̇ = 0,
//   M = ∂²L/∂q̇².
//
// An independent check of a reduced model's equations against the Lagrangian they came from:
// L(q, q̇) and A(q) are written as the paper prints them, nothing else is derived by hand.
#pragma once

#include <Eigen/Dense>

#include "attractor/core/types.hpp"

namespace attractor::test {

// q̈ for L(q, q̇) → double and A(q) → Mat<double, K, n>; accuracy ~1e-7 relative.
template <int n, int K, class Lagrangian, class Constraints>
Vec<double, n> lagrange_dalembert_accel(const Lagrangian& L, const Constraints& A, const Vec<double, n>& q,
                                        const Vec<double, n>& qd) {
  const double e = 1e-4;
  auto dL_dqd = [&](const Vec<double, n>& qq, const Vec<double, n>& vv) {
    Vec<double, n> g;
    for (int i = 0; i < n; ++i) {
      Vec<double, n> vp = vv, vm = vv;
      vp[i] += e, vm[i] -= e;
      g[i] = (L(qq, vp) - L(qq, vm)) / (2 * e);
    }
    return g;
  };
  Mat<double, n, n> Mq, Cross;  // ∂²L/∂q̇², ∂²L/∂q̇∂q
  Vec<double, n> dL_dq;
  for (int j = 0; j < n; ++j) {
    Vec<double, n> vp = qd, vm = qd, qp = q, qm = q;
    vp[j] += e, vm[j] -= e, qp[j] += e, qm[j] -= e;
    Mq.col(j) = (dL_dqd(q, vp) - dL_dqd(q, vm)) / (2 * e);
    Cross.col(j) = (dL_dqd(qp, qd) - dL_dqd(qm, qd)) / (2 * e);
    dL_dq[j] = (L(qp, qd) - L(qm, qd)) / (2 * e);
  }
  const Mat<double, K, n> Aq = A(q);
  const Mat<double, K, n> Adot = (A(Vec<double, n>(q + e * qd)) - A(Vec<double, n>(q - e * qd))) / (2 * e);
  Mat<double, n + K, n + K> kkt = Mat<double, n + K, n + K>::Zero();
  kkt.template topLeftCorner<n, n>() = Mq;
  kkt.template topRightCorner<n, K>() = -Aq.transpose();
  kkt.template bottomLeftCorner<K, n>() = Aq;
  Vec<double, n + K> rhs;
  rhs.template head<n>() = dL_dq - Cross * qd;
  rhs.template tail<K>() = -Adot * qd;
  return kkt.fullPivLu().solve(rhs).template head<n>();
}

}  // namespace attractor::test
