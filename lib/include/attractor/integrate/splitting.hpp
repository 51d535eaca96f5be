// SPDX-License-Identifier: Apache-2.0
// Lie–Trotter and Strang splitting on T*S^{D-1} with exact sub-flows (paper 002 §2.3; Hairer,
// Lubich, Wanner, Geometric Numerical Integration, 2nd ed., pp. 253-254, and Sect. II.5):
//
//   H = H1 + H2,  H1 = |p|^2/(2m) (kinetic),  H2 = U(q) (potential, m g q3 for the pendulum)
//   Lie–Trotter:  Phi_h = phi1_h o phi2_h                 (order 1)
//   Strang:       Phi_h = phi1_{h/2} o phi2_h o phi1_{h/2}  (order 2, symmetric)
// (a o b applies b first), one force evaluation per step either way.
//
// The sub-flows are the exact flows of the Dirac-extended fields of H1 and H2 (paper 002
// eq. (1) with f1 = |q|^2, f2 = q.p), so they are defined near T*S^{D-1}, not only on it:
//   phi2_t (H2): q' = 0, p' = -grad U(q) + (grad U(q).q / f1) q. q is frozen, so the right side
//       is constant and the flow is p <- p - t (grad U - (grad U.q/|q|^2) q), exact for any U.
//   phi1_t (H1): q' = p/m - f2/(m f1) q, p' = f2/(m f1) p - |p|^2/(m f1) q. With
//       p = (f2/f1) q + p_perp, q moves with velocity p_perp/m: q and p_perp rotate rigidly in
//       their plane at rate w = |p_perp|/(m |q|) (a great circle of the sphere) while the
//       radial part stays (f2/f1) q. Checked against RK4 on that field in splitting_test.cpp.
// Both flows preserve f1, f2 and the vertical momentum J analytically (they commute with
// rotations about the gravity axis), so these methods keep them to rounding.
//
// A System supplies what RATTLE needs: Scalar, D, mass(), potential_gradient(q).
#pragma once

#include <cmath>

#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

namespace detail {
// sin(t)/t, with its series near 0 (no division by a tiny angle, defined at t = 0).
template <class S>
S sinc(S t) {
  const S t2 = t * t;
  if (t2 < S(1e-6)) return S(1) - t2 / S(6) + t2 * t2 / S(120);
  return std::sin(t) / t;
}
}  // namespace detail

// Exact flow of H1 = |p|^2/(2m), Dirac-extended (header comment), for time t.
// Written in increment form, x <- x + dx with cos(theta) - 1 = -2 sin^2(theta/2) computed
// directly: the rotation angle per step is small (theta ~ h |p|/(m l) = 1.4e-3 in §2.3), and
// forming cos(theta) q in float rounds cos(theta) ~ 1 - 1e-6 to a multiple of 6e-8 with the same
// error every step, a bias that makes |q| drift linearly (measured: |df1| = 3.3e-3 after 1e5
// Strang steps in float with the rotation-matrix form, 2.4e-5 with this form).
template <class S, int D>
void kinetic_flow(Vec<S, D>& q, Vec<S, D>& p, S m, S t) {
  const S f1 = q.squaredNorm();
  const S radial = q.dot(p) / f1;  // f2/f1
  const Vec<S, D> p_perp = p - radial * q;
  const S r = std::sqrt(f1);
  const S w = p_perp.norm();
  const S theta = w * t / (m * r);   // rotation angle
  const S sc = detail::sinc(theta);  // sin(theta)/theta
  const S sh = detail::sinc(theta / S(2));
  const S cm1 = -(theta * theta / S(2)) * sh * sh;  // cos(theta) - 1 = -2 sin^2(theta/2)
  // q1 = cos(theta) q + sin(theta) r/w p_perp,  p_perp1 = cos(theta) p_perp - sin(theta) w/r q,
  // p1 = p_perp1 + (f2/f1) q1 (sin(theta) r/w = sinc(theta) t/m, defined at w = 0).
  const Vec<S, D> dq = cm1 * q + (t / m * sc) * p_perp;
  const Vec<S, D> dp_perp = cm1 * p_perp - (theta * sc * w / r) * q;
  q += dq;
  p += dp_perp + radial * dq;
}

// Exact flow of H2 = U(q), Dirac-extended (header comment), for time t: one force evaluation.
template <class System>
void potential_flow(const System& sys, Vec<typename System::Scalar, 2 * System::D>& x, typename System::Scalar t) {
  using S = typename System::Scalar;
  constexpr int D = System::D;
  const Vec<S, D> q = x.template head<D>();
  const Vec<S, D> gU = sys.potential_gradient(q);
  x.template tail<D>() -= t * (gU - (gU.dot(q) / q.squaredNorm()) * q);
}

template <class System>
void kinetic_flow(const System& sys, Vec<typename System::Scalar, 2 * System::D>& x, typename System::Scalar t) {
  using S = typename System::Scalar;
  constexpr int D = System::D;
  Vec<S, D> q = x.template head<D>(), p = x.template tail<D>();
  kinetic_flow(q, p, sys.mass(), t);
  x.template head<D>() = q;
  x.template tail<D>() = p;
}

// Lie–Trotter: phi1_h o phi2_h (kick, then drift along the great circle).
template <class System>
void lie_trotter_step(const System& sys, Vec<typename System::Scalar, 2 * System::D>& x, typename System::Scalar h) {
  potential_flow(sys, x, h);
  kinetic_flow(sys, x, h);
}

// Strang: phi1_{h/2} o phi2_h o phi1_{h/2} (half drift, kick, half drift).
template <class System>
void strang_step(const System& sys, Vec<typename System::Scalar, 2 * System::D>& x, typename System::Scalar h) {
  using S = typename System::Scalar;
  kinetic_flow(sys, x, h / S(2));
  potential_flow(sys, x, h);
  kinetic_flow(sys, x, h / S(2));
}

// The same two methods in the stepper call shape (integrate/stepper.hpp): step(x, h) -> Error
// (always Error::none: the sub-flows are exact and defined for every q != 0).
template <class System>
struct LieTrotter {
  using Scalar = typename System::Scalar;
  using State = Vec<Scalar, 2 * System::D>;
  System sys{};
  [[nodiscard]] Error step(State& x, Scalar h) const {
    lie_trotter_step(sys, x, h);
    return Error::none;
  }
};
template <class System>
struct Strang {
  using Scalar = typename System::Scalar;
  using State = Vec<Scalar, 2 * System::D>;
  System sys{};
  [[nodiscard]] Error step(State& x, Scalar h) const {
    strang_step(sys, x, h);
    return Error::none;
  }
};

}  // namespace attractor
