// SPDX-License-Identifier: Apache-2.0
// Hand-written reference steps for the bench's hot paths: the same step as
// the library, written as straight-line scalar code on plain arrays, the field and the analytic
// gradient of V fused by hand and the constants (1/m, m g) formed once. Bench-only: apps/bench
// measures them beside the library's step on target (docs/BENCHMARKS.md, "Hand-written
// reference"), and host-bench/hand_written_test.cpp checks that each gives the library's step to
// rounding, so the comparison is between equal computations.
//
//   SphericalFeedbackRk4<S>   Feedback<SphericalPendulum<S>> + rk4_step (paper 002 eqs. (7)-(8))
//   SphericalRk4<S>           rk4_step on the Dirac-extended field X alone (pendulum.hpp)
//   GammaFeedbackRk4<S>       Feedback<AdvectedGamma<S>> + rk4_step: the skate-rotor estimator's
//                             step (estimate/advected_vertical.hpp, paper 003 eq. (21))
// Each has step(S* x, h), x in the library's state layout.
#pragma once

#include "attractor/core/inline.hpp"

namespace attractor::bench {

#if defined(__GNUC__)
#define BENCH_INLINE inline __attribute__((always_inline))
#else
#define BENCH_INLINE inline
#endif

// Classic RK4, k1..k4 on a field f(x, dx) of N components, stage sums written out.
template <class S, int N, class F>
BENCH_INLINE void rk4_by_hand(const F& f, S* x, S h) {
  S k1[N], k2[N], k3[N], k4[N], y[N];
  const S h2 = S(0.5) * h, h6 = h / S(6);
  f(x, k1);
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) y[i] = x[i] + h2 * k1[i];
  f(y, k2);
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) y[i] = x[i] + h2 * k2[i];
  f(y, k3);
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) y[i] = x[i] + h * k3[i];
  f(y, k4);
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) x[i] += h6 * (k1[i] + S(2) * (k2[i] + k3[i]) + k4[i]);
}

// The spherical pendulum's pieces (pendulum.hpp header comment): x = (q, p),
//   a = f2/(m f1), b = (m g q3 − |p|²/m)/f1,  X = (p/m − a q, a p + b q − m g e3).
template <class S>
struct SphericalConstants {
  S inv_m, mg;
  SphericalConstants(S m, S g) : inv_m(S(1) / m), mg(m * g) {}
};

// Feedback field X − DFᵀK(F − F0), F = (|q|², q·p, H, J), by hand:
//   q' = (1/m − e1) p − (a + 2 e0) q − e2 m g e3 + e3' (p2, −p1, 0)
//   p' = (a − e2/m) p + (b − e1) q − m g e3     + e3' (−q2, q1, 0),   e3' = −K3 (J − J0).
template <class S>
struct SphericalFeedbackRk4 {
  SphericalConstants<S> c;
  S F0[4], K[4];
  SphericalFeedbackRk4(S m, S g, const S* reference, const S* gains) : c(m, g) {
    for (int i = 0; i < 4; ++i) F0[i] = reference[i], K[i] = gains[i];
  }
  BENCH_INLINE void field(const S* x, S* dx) const {
    const S q0 = x[0], q1 = x[1], q2 = x[2], p0 = x[3], p1 = x[4], p2 = x[5];
    const S f1 = q0 * q0 + q1 * q1 + q2 * q2;
    const S f2 = q0 * p0 + q1 * p1 + q2 * p2;
    const S pp = p0 * p0 + p1 * p1 + p2 * p2;
    const S inv_f1 = S(1) / f1;
    const S a = f2 * c.inv_m * inv_f1;
    const S b = (c.mg * q2 - pp * c.inv_m) * inv_f1;
    const S e0 = K[0] * (f1 - F0[0]);
    const S e1 = K[1] * (f2 - F0[1]);
    const S e2 = K[2] * (S(0.5) * pp * c.inv_m + c.mg * q2 - F0[2]);
    const S e3 = -K[3] * (q0 * p1 - q1 * p0 - F0[3]);
    const S cp = c.inv_m - e1, cq = a + S(2) * e0;  // q' coefficients
    const S dp = a - e2 * c.inv_m, dq = b - e1;     // p' coefficients
    dx[0] = cp * p0 - cq * q0 + e3 * p1;
    dx[1] = cp * p1 - cq * q1 - e3 * p0;
    dx[2] = cp * p2 - cq * q2 - e2 * c.mg;
    dx[3] = dp * p0 + dq * q0 - e3 * q1;
    dx[4] = dp * p1 + dq * q1 + e3 * q0;
    dx[5] = dp * p2 + dq * q2 - c.mg;
  }
  BENCH_INLINE void step(S* x, S h) const {
    rk4_by_hand<S, 6>([this](const S* y, S* d) ATTRACTOR_LAMBDA_INLINE { field(y, d); }, x, h);
  }
};

// Plain RK4 on X.
template <class S>
struct SphericalRk4 {
  SphericalConstants<S> c;
  SphericalRk4(S m, S g) : c(m, g) {}
  BENCH_INLINE void field(const S* x, S* dx) const {
    const S q0 = x[0], q1 = x[1], q2 = x[2], p0 = x[3], p1 = x[4], p2 = x[5];
    const S f1 = q0 * q0 + q1 * q1 + q2 * q2;
    const S f2 = q0 * p0 + q1 * p1 + q2 * p2;
    const S pp = p0 * p0 + p1 * p1 + p2 * p2;
    const S inv_f1 = S(1) / f1;
    const S a = f2 * c.inv_m * inv_f1;
    const S b = (c.mg * q2 - pp * c.inv_m) * inv_f1;
    dx[0] = c.inv_m * p0 - a * q0;
    dx[1] = c.inv_m * p1 - a * q1;
    dx[2] = c.inv_m * p2 - a * q2;
    dx[3] = a * p0 + b * q0;
    dx[4] = a * p1 + b * q1;
    dx[5] = a * p2 + b * q2 - c.mg;
  }
  BENCH_INLINE void step(S* x, S h) const {
    rk4_by_hand<S, 6>([this](const S* y, S* d) ATTRACTOR_LAMBDA_INLINE { field(y, d); }, x, h);
  }
};

// The skate-rotor estimator's step: Γ' = Γ × Ω + κ (Γm − (Γ·Γm) Γ) − 2 e0 Γ − e1 E1, with
// e0 = K0 (|Γ|² − F00), e1 = K1 (Γ1 − F01) (advected_vertical.hpp).
template <class S>
struct GammaFeedbackRk4 {
  S omega[3], measured[3], kappa, F0[2], K[2];
  BENCH_INLINE void field(const S* G, S* dG) const {
    const S g0 = G[0], g1 = G[1], g2 = G[2];
    const S gm = g0 * measured[0] + g1 * measured[1] + g2 * measured[2];
    const S e0 = K[0] * (g0 * g0 + g1 * g1 + g2 * g2 - F0[0]);
    const S e1 = K[1] * (g0 - F0[1]);
    const S c = kappa * gm + S(2) * e0;  // coefficient of Γ
    dG[0] = g1 * omega[2] - g2 * omega[1] + kappa * measured[0] - c * g0 - e1;
    dG[1] = g2 * omega[0] - g0 * omega[2] + kappa * measured[1] - c * g1;
    dG[2] = g0 * omega[1] - g1 * omega[0] + kappa * measured[2] - c * g2;
  }
  BENCH_INLINE void step(S* G, S h) const {
    rk4_by_hand<S, 3>([this](const S* y, S* d) ATTRACTOR_LAMBDA_INLINE { field(y, d); }, G, h);
  }
};

}  // namespace attractor::bench
