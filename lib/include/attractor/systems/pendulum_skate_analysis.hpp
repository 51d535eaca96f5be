// SPDX-License-Identifier: Apache-2.0
// Pendulum skate analysis (paper 003 §5.3–5.4, Appendix A.1): the sliding (40) and spinning (41)
// equilibria, the analytic Jacobian Df of (38), the fall rate of Prop. 12, the spinning verdict
// of Prop. 11 / (42) and the energy–Casimir numbers. Misprints: see systems/pendulum_skate.hpp.
#pragma once

#include <cmath>

#include "attractor/core/types.hpp"
#include "attractor/geometry/so3.hpp"
#include "attractor/systems/pendulum_skate.hpp"

namespace attractor {

// ---------------------------------------------------------------------------------------------
// Equilibria (§5.3) and stability (§5.4, Appendix A.1).
template <class S>
Vec<S, 5> sliding_equilibrium(S Y0) {  // (40)
  Vec<S, 5> q;
  q << S(0), S(0), Y0, S(0), S(1);
  return q;
}
template <class S>
Vec<S, 5> spinning_equilibrium(S Omega0) {  // (41)
  Vec<S, 5> q;
  q << S(0), Omega0, S(0), S(0), S(1);
  return q;
}

// Df(ζ) of (38), analytic (Prop. 11 / 12 linearization at any ζ).
template <class S>
Mat<S, 5, 5> skate_jacobian(const PendulumSkateParams<S>& p, const Vec<S, 5>& z) {
  const S v1 = z[0], v2 = z[1], v3 = z[2], G2 = z[3], G3 = z[4];
  const S ml = p.m * p.l, Ib1 = p.Ibar1(), a = p.Ibar2() - p.I3;
  const S D = p.I2 * G2 * G2 + p.I3 * G3 * G3;
  const S dD2 = S(2) * p.I2 * G2, dD3 = S(2) * p.I3 * G3;
  Mat<S, 5, 5> J = Mat<S, 5, 5>::Zero();
  J(0, 1) = (S(2) * a * G3 * v2 * G2 + ml * G3 * v3) / Ib1;
  J(0, 2) = ml * G3 * v2 / Ib1;
  J(0, 3) = (a * G3 * v2 * v2 + ml * p.g) / Ib1;
  J(0, 4) = (a * v2 * v2 * G2 + ml * v2 * v3) / Ib1;
  const S n1 = S(2) * (p.I3 - p.I2);  // f2 = n1 Γ2Γ3 v1 v2 / D
  const S f2 = n1 * G2 * G3 * v1 * v2 / D;
  J(1, 0) = n1 * G2 * G3 * v2 / D;
  J(1, 1) = n1 * G2 * G3 * v1 / D;
  J(1, 3) = (n1 * G3 * v1 * v2 - f2 * dD2) / D;
  J(1, 4) = (n1 * G2 * v1 * v2 - f2 * dD3) / D;
  const S n3 = -S(2) * p.l * p.I3;  // f3 = n3 Γ3 v1 v2 / D
  const S f3 = n3 * G3 * v1 * v2 / D;
  J(2, 0) = n3 * G3 * v2 / D;
  J(2, 1) = n3 * G3 * v1 / D;
  J(2, 3) = -f3 * dD2 / D;
  J(2, 4) = (n3 * v1 * v2 - f3 * dD3) / D;
  J(3, 0) = G3;
  J(3, 4) = v1;
  J(4, 0) = -G2;
  J(4, 3) = -v1;
  return J;
}

// Prop. 12: the positive eigenvalue √(mgl/Ī1) of Df(ζsl) (growth rate of the fall).
template <class S>
S sliding_unstable_rate(const PendulumSkateParams<S>& p) {
  return std::sqrt(p.m * p.g * p.l / p.Ibar1());
}

// Prop. 11 and (42). `lambda2` is the square of the nonzero eigenvalue pair of Df(ζsp):
// λ² = (mgl − (I3+ml²−I2)Ω0²)/Ī1 (> 0: linearly unstable).
enum class SpinningStability : unsigned char {
  unstable = 0,      // Prop. 11 (i) (I3+ml² < I2), or λ² > 0
  stable = 1,        // (42) holds: energy–Casimir definite
  inconclusive = 2,  // I3+ml² > I2 but |Ω0| at or below the bound of (42)
};
template <class S>
struct SpinningAnalysis {
  SpinningStability verdict = SpinningStability::inconclusive;
  S lambda2 = S(0);    // see above
  S omega_min = S(0);  // √(mgl/(I3+ml²−I2)) of (42); +inf-like 0 if not applicable
};
template <class S>
SpinningAnalysis<S> spinning_stability(const PendulumSkateParams<S>& p, S Omega0) {
  SpinningAnalysis<S> r;
  const S ml2 = p.m * p.l * p.l, mgl = p.m * p.g * p.l;
  const S k = p.I3 + ml2 - p.I2;
  r.lambda2 = (mgl - k * Omega0 * Omega0) / p.Ibar1();
  if (k > S(0)) {
    r.omega_min = std::sqrt(mgl / k);
    r.verdict = std::fabs(Omega0) > r.omega_min ? SpinningStability::stable
                : r.lambda2 > S(0)              ? SpinningStability::unstable
                                                : SpinningStability::inconclusive;
  } else {
    r.verdict = SpinningStability::unstable;
  }
  return r;
}

// The energy–Casimir numbers of Appendix A.1 at ζsp: multipliers c = (−Ω0, 0, I3Ω0² − mgl) for
// (C1, C2, C3 = (Γ2²+Γ3²)/2), the Hessian ℋ = D²(E + Σ c_j C_j)(ζsp), the tangent basis
// w1 = e1, w2 = e4 − 2lΩ0 e3 of ker(DC1, DC2, DC3) and the quadratic form q = diag(w_iᵀℋw_i),
// q_offdiag = w1ᵀℋw2. Stable (42) iff q1 > 0 and q2 > 0.
template <class S>
struct EnergyCasimir {
  Vec<S, 3> c = Vec<S, 3>::Zero();
  Mat<S, 5, 5> hessian = Mat<S, 5, 5>::Zero();
  Vec<S, 5> gradient = Vec<S, 5>::Zero();  // D(E + Σ c C)(ζsp), zero by construction
  Vec<S, 5> w1 = Vec<S, 5>::Zero(), w2 = Vec<S, 5>::Zero();
  S q1 = S(0), q2 = S(0), q12 = S(0);
};
template <class S>
EnergyCasimir<S> spinning_energy_casimir(const PendulumSkateParams<S>& p, S Omega0) {
  EnergyCasimir<S> ec;
  const S ml = p.m * p.l, mgl = p.m * p.g * p.l, W = Omega0;
  ec.c << -W, S(0), p.I3 * W * W - mgl;
  // Analytic second derivatives at ζsp = (0, Ω0, 0, 0, 1) (derived from (30), (36), (37)):
  Mat<S, 5, 5>& H = ec.hessian;
  H(0, 0) = p.Ibar1();
  H(1, 1) = p.I3;
  H(2, 2) = p.m;
  H(2, 3) = H(3, 2) = ml * W;
  H(3, 3) = (p.Ibar2() - S(2) * p.I2 + p.I3) * W * W - mgl;             // = Ω0²(I3+ml²−I2) − mgl
  H(4, 4) = p.I3 * W * W - S(2) * p.I3 * W * W + (p.I3 * W * W - mgl);  // = −mgl
  // gradient: DE + c1 DC1 + c3 DC3 (DC2 has c2 = 0)
  ec.gradient << S(0), p.I3 * W + ec.c[0] * p.I3, S(0), S(0), p.I3 * W * W + mgl + ec.c[0] * S(2) * p.I3 * W + ec.c[2];
  ec.w1 << S(1), S(0), S(0), S(0), S(0);
  ec.w2 << S(0), S(0), -S(2) * p.l * W, S(1), S(0);
  ec.q1 = ec.w1.dot(H * ec.w1);
  ec.q2 = ec.w2.dot(H * ec.w2);
  ec.q12 = ec.w1.dot(H * ec.w2);
  return ec;
}

}  // namespace attractor
