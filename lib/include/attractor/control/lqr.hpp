// SPDX-License-Identifier: Apache-2.0
// Discrete LQR baseline on fixed-size matrices (no heap): zero-order-hold discretization of a
// continuous pair (A, B), the discrete algebraic Riccati equation (DARE)
//   P = Q + AᵀPA − AᵀPB (R + BᵀPB)⁻¹ BᵀPA,    K = (R + BᵀPB)⁻¹ BᵀPA,    u = −K x,
// solved by Riccati iteration in doubling steps, and the gain certified before it is returned.
// For set-up, not for the control tick (the loops' lengths depend on the data).
//
//   auto d = zoh_discretize<S, N, M>(A, B, dt);         // Ad = e^{A dt}, Bd = ∫₀^dt e^{As} ds B
//   auto lqr = discrete_lqr<S, N, M>(d->A, d->B, Q, R);  // Result<DiscreteLqr>: K, P, doublings
//   auto lqr = lqr_zoh<S, N, M>(A, B, Q, R, dt);          // both in one call
//
// Errors (never a silently bad gain):
//   Error::non_finite              a non-finite input
//   Error::invalid_parameter       dt <= 0; Q not symmetric positive definite; R not symmetric
//                                  positive definite (Q ≻ 0 makes every mode detectable, so a
//                                  converged P always stabilizes)
//   Error::singular                R + BᵀPB or a doubling step's I + GH not invertible
//   Error::out_of_range            the iteration did not converge within `max_doublings`
//                                  (2^max_doublings Riccati steps) or diverged to Inf: (A, B) is not
//                                  stabilizable, or the tolerance is below what the scalar reaches
//   Error::outside_stability_range the certificate failed: P ≻ 0 and P − A_clᵀ P A_cl ≻ 0 (a
//                                  Lyapunov function for A_cl = A − BK) did not both hold
//
// Doubling (the structure-preserving doubling algorithm): with A₀ = A, G₀ = B R⁻¹ Bᵀ, H₀ = Q,
//   W = I + G_k H_k,  A_{k+1} = A_k W⁻¹ A_k,  G_{k+1} = G_k + A_k W⁻¹ G_k A_kᵀ,
//   H_{k+1} = H_k + A_kᵀ H_k W⁻¹ A_k,
// H_k equals the plain Riccati iterate P_{2^k} started at P = 0 (each step doubles the horizon),
// so a 1 kHz discretization (closed-loop poles at 1 − O(dt)) converges in about a dozen steps (the
// wheel pendulum: 12–13, where plain iteration needs ~3·10³). H_k grows like |λ|^(2^k) for an
// unstable mode B cannot reach: Inf, then out_of_range.
#pragma once

#include <cmath>
#include <limits>

#include "attractor/control/controlled_lagrangian.hpp"  // detail::inverse_by_columns
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

// After types.hpp (which sets EIGEN_NO_MALLOC before Eigen/Core).
#include <Eigen/Cholesky>

namespace attractor {

template <class S, int N, int M>
struct DiscretePair {
  Mat<S, N, N> A = Mat<S, N, N>::Identity();
  Mat<S, N, M> B = Mat<S, N, M>::Zero();
};

template <class S, int N, int M>
struct DiscreteLqr {
  Mat<S, M, N> K = Mat<S, M, N>::Zero();  // u = −K x
  Mat<S, N, N> P = Mat<S, N, N>::Zero();  // the DARE's solution
  int doublings = 0;                      // doubling steps used (2^doublings Riccati steps)
};

// u = u0 − K (x − x0): a state feedback about an equilibrium (x0, u0), e.g. an LQR gain.
template <class S, int N, int M>
struct LinearStateFeedback {
  Mat<S, M, N> K = Mat<S, M, N>::Zero();
  Vec<S, N> x0 = Vec<S, N>::Zero();
  Vec<S, M> u0 = Vec<S, M>::Zero();
  Vec<S, M> control(const Vec<S, N>& x) const { return u0 - K * (x - x0); }
};

namespace detail {
template <class S, int D>
bool symmetric_positive_definite(const Mat<S, D, D>& X) {
  const S scale = X.cwiseAbs().maxCoeff();
  const S asym = (X - X.transpose()).cwiseAbs().maxCoeff();
  if (!(asym <= S(64) * std::numeric_limits<S>::epsilon() * scale)) return false;
  const Eigen::LLT<Mat<S, D, D>> llt(X);
  return llt.info() == Eigen::Success;
}
}  // namespace detail

// e^{Z}, Z = [[A, B], [0, 0]] dt, by scaling and squaring: Z/2^s with ‖Z/2^s‖₁ ≤ ½, the Taylor
// series to degree 14 (remainder below 3e-17 relative), then s squarings. Ad, Bd are its blocks.
template <class S, int N, int M>
Result<DiscretePair<S, N, M>> zoh_discretize(const Mat<S, N, N>& A, const Mat<S, N, M>& B, S dt) {
  constexpr int D = N + M;
  if (!all_finite(A) || !all_finite(B) || !is_finite(dt)) return Error::non_finite;
  if (!(dt > S(0))) return Error::invalid_parameter;
  Mat<S, D, D> Z = Mat<S, D, D>::Zero();
  Z.template topLeftCorner<N, N>() = A * dt;
  Z.template topRightCorner<N, M>() = B * dt;
  const S norm = Z.cwiseAbs().colwise().sum().maxCoeff();
  if (!is_finite(norm)) return Error::non_finite;
  int squarings = 0;
  S scaled = norm;
  while (scaled > S(0.5)) {
    scaled *= S(0.5);
    if (++squarings > 1000) return Error::non_finite;  // unreachable for a finite norm
  }
  Z *= std::ldexp(S(1), -squarings);
  Mat<S, D, D> E = Mat<S, D, D>::Identity();
  for (int j = 14; j >= 1; --j) E = Mat<S, D, D>::Identity() + (Z * E) / S(j);  // Horner
  for (int i = 0; i < squarings; ++i) E = (E * E).eval();
  if (!all_finite(E)) return Error::non_finite;
  DiscretePair<S, N, M> out;
  out.A = E.template topLeftCorner<N, N>();
  out.B = E.template topRightCorner<N, M>();
  return out;
}

// The DARE by doubling (header comment). `tolerance`: relative change of P below which it has
// converged (default 64 ε).
template <class S, int N, int M>
Result<DiscreteLqr<S, N, M>> discrete_lqr(const Mat<S, N, N>& A, const Mat<S, N, M>& B, const Mat<S, N, N>& Q,
                                          const Mat<S, M, M>& R, int max_doublings = 60,
                                          S tolerance = S(64) * std::numeric_limits<S>::epsilon()) {
  using MatN = Mat<S, N, N>;
  if (!all_finite(A) || !all_finite(B) || !all_finite(Q) || !all_finite(R) || !is_finite(tolerance))
    return Error::non_finite;
  if (!detail::symmetric_positive_definite<S, N>(Q) || !detail::symmetric_positive_definite<S, M>(R) ||
      !(tolerance > S(0)) || max_doublings < 1)
    return Error::invalid_parameter;
  Mat<S, M, M> R_inv;
  if (!detail::inverse_by_columns<S, M>(R, R_inv)) return Error::singular;

  MatN Ak = A, Gk = B * R_inv * B.transpose(), Hk = Q;
  DiscreteLqr<S, N, M> out;
  bool converged = false;
  for (int k = 0; k < max_doublings && !converged; ++k) {
    MatN W_inv;
    if (!detail::inverse_by_columns<S, N>(MatN(MatN::Identity() + Gk * Hk), W_inv)) {
      if (!all_finite(Gk) || !all_finite(Hk)) return Error::out_of_range;  // diverged
      return Error::singular;
    }
    const MatN AW = Ak * W_inv;
    const MatN H_next = Hk + Ak.transpose() * Hk * W_inv * Ak;
    Gk = (Gk + AW * Gk * Ak.transpose()).eval();
    Ak = (AW * Ak).eval();
    if (!all_finite(H_next) || !all_finite(Gk) || !all_finite(Ak)) return Error::out_of_range;  // diverged
    const S change = (H_next - Hk).cwiseAbs().maxCoeff();
    converged = change <= tolerance * H_next.cwiseAbs().maxCoeff();
    Hk = S(0.5) * (H_next + H_next.transpose());  // keep P symmetric against rounding
    out.doublings = k + 1;
  }
  if (!converged) return Error::out_of_range;

  out.P = Hk;
  Mat<S, M, M> S_inv;
  if (!detail::inverse_by_columns<S, M>(Mat<S, M, M>(R + B.transpose() * Hk * B), S_inv)) return Error::singular;
  out.K = S_inv * (B.transpose() * Hk * A);
  // Certificate: V(x) = xᵀPx decreases along x⁺ = A_cl x.
  const MatN A_cl = A - B * out.K;
  const MatN decrease = Hk - A_cl.transpose() * Hk * A_cl;
  if (!all_finite(out.K) || !detail::symmetric_positive_definite<S, N>(Hk) ||
      !detail::symmetric_positive_definite<S, N>(MatN(S(0.5) * (decrease + decrease.transpose()))))
    return Error::outside_stability_range;
  return out;
}

// Discretize (zero-order hold, period dt) and solve: the gain for a controller sampling at 1/dt.
template <class S, int N, int M>
Result<DiscreteLqr<S, N, M>> lqr_zoh(const Mat<S, N, N>& A, const Mat<S, N, M>& B, const Mat<S, N, N>& Q,
                                     const Mat<S, M, M>& R, S dt) {
  const Result<DiscretePair<S, N, M>> d = zoh_discretize<S, N, M>(A, B, dt);
  if (!d) return d.error();
  return discrete_lqr<S, N, M>(d.value().A, d.value().B, Q, R);
}

}  // namespace attractor
