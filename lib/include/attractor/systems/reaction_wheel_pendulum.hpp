// SPDX-License-Identifier: Apache-2.0
// The reaction-wheel pendulum: an arm on a fixed pivot, swinging in a vertical plane, with a wheel
// at distance l_w from the pivot spun by a motor on the arm (torque u on the wheel, −u on the arm).
// Three views of the same system:
//   ReactionWheelParams<S>      masses, distances, inertias; validate() refuses bad ones
//   ReactionWheelPendulum<S>    the plant: field(x, u), x = (Ω, Γ1, Γ2, θ̇)
//   ReactionWheelAngles<S>      the plant in the angle φ: field(x, u), x = (φ, Ω, θ̇) (linearization, LQR)
//   ReactionWheelHamel<S>       the same system as a HamelRotorModel (control/controlled_lagrangian.hpp):
//                               n = 1 (Ω ∈ so(2)), r = 0 constraints, s = 1 rotor, k = 2 (Γ)
//
// Coordinates. φ is the arm's angle from the upward vertical (counterclockwise), Ω = φ̇, θ the
// wheel's angle relative to the arm. The advected parameter is the upward vertical seen from the
// arm, Γ = Rᵀ(φ) e_up = (sin φ, cos φ); upright is Γ = (0, 1). Γ̇ = −ξΓ = Ω (Γ2, −Γ1) (paper 003 (17b)
// with ξ = Ω·[[0, −1], [1, 0]]).
//
// Lagrangian. With 𝕀 = I_p + m_w l_w² (arm about the pivot, wheel as a point mass), the wheel's
// spin inertia I_w and the first moment M = m_p l + m_w l_w,
//   ℓ = ½ 𝕀 Ω² + ½ I_w (Ω + θ̇)² − M g Γ2,
// so the metric blocks of paper 003 (43) are 𝔾 = 𝕀 + I_w (the locked inertia), 𝔾_ia = 𝔾_ab = I_w.
// so(2) is abelian: ad* = 0. The potential force is the gravity moment about the pivot,
// 𝐊 = −∂U/∂φ = M g sin φ = M g Γ1 (it pushes away from upright). The equations (44):
//   (𝕀 + I_w) Ω̇ + I_w θ̈ = M g Γ1,      I_w (Ω̇ + θ̈) = u,
// i.e. 𝕀 Ω̇ = M g Γ1 − u and θ̈ = u/I_w − Ω̇.
#pragma once

#include <cmath>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

template <class S>
struct ReactionWheelParams {
  S m_p = S(0.2);     // arm mass [kg]
  S l = S(0.1);       // pivot to the arm's centre of mass [m]
  S I_p = S(2.6e-3);  // arm's inertia about the pivot [kg m²]
  S m_w = S(0.1);     // wheel mass [kg]
  S l_w = S(0.15);    // pivot to the wheel's axis [m]
  S I_w = S(3.0e-4);  // wheel's spin inertia about its axis [kg m²]
  S g = S(9.81);      // gravity [m/s²]

  // 𝕀 = I_p + m_w l_w²: the body about the pivot without the wheel's spin inertia.
  S body_inertia() const { return I_p + m_w * l_w * l_w; }
  // 𝔾 = 𝕀 + I_w: the inertia with the wheel locked to the arm.
  S locked_inertia() const { return body_inertia() + I_w; }
  // M g = (m_p l + m_w l_w) g: the gravity moment's amplitude.
  S gravity_moment() const { return (m_p * l + m_w * l_w) * g; }

  // Error::non_finite for NaN/Inf; Error::invalid_parameter for a non-positive I_p, I_w, M g
  // (no upright equilibrium to stabilize), or negative masses and distances.
  Error validate() const {
    const S v[] = {m_p, l, I_p, m_w, l_w, I_w, g};
    for (S x : v)
      if (!is_finite(x)) return Error::non_finite;
    for (S x : v)
      if (x < S(0)) return Error::invalid_parameter;
    if (!(I_p > S(0)) || !(I_w > S(0)) || !(gravity_moment() > S(0))) return Error::invalid_parameter;
    return Error::none;
  }
};

// The plant in the Hamel variables: x = (Ω, Γ1, Γ2, θ̇); |Γ| = 1 is invariant.
template <class S>
struct ReactionWheelPendulum {
  static constexpr int dim = 4;
  ReactionWheelParams<S> p{};
  Vec<S, 4> field(const Vec<S, 4>& x, S u) const {
    const S Om = x[0];
    const S Om_dot = (p.gravity_moment() * x[1] - u) / p.body_inertia();
    Vec<S, 4> d;
    d << Om_dot, Om * x[2], -Om * x[1], u / p.I_w - Om_dot;
    return d;
  }
};

// The same plant in the angle: x = (φ, Ω, θ̇), Γ = (sin φ, cos φ).
template <class S>
struct ReactionWheelAngles {
  static constexpr int dim = 3;
  ReactionWheelParams<S> p{};
  Vec<S, 3> field(const Vec<S, 3>& x, const Vec<S, 1>& u) const {
    using std::sin;
    const S Om_dot = (p.gravity_moment() * sin(x[0]) - u[0]) / p.body_inertia();
    Vec<S, 3> d;
    d << x[1], Om_dot, u[0] / p.I_w - Om_dot;
    return d;
  }
};

// The HamelRotorModel (paper 003 §6 (43)–(44)); no constraint, so ℰ = 1 and ℰ̇ = 0.
template <class S>
struct ReactionWheelHamel {
  using Scalar = S;
  static constexpr int algebra_dim = 1, constraint_count = 0, rotor_count = 1, advected_dim = 2;
  Mat<S, 1, 1> G = Mat<S, 1, 1>::Zero();    // 𝔾 = 𝕀 + I_w
  Mat<S, 1, 1> Gia = Mat<S, 1, 1>::Zero();  // 𝔾_ia = I_w
  Mat<S, 1, 1> Gab = Mat<S, 1, 1>::Zero();  // 𝔾_ab = I_w
  S mg = S(0);                              // M g

  static ReactionWheelHamel from(const ReactionWheelParams<S>& p) {
    ReactionWheelHamel h;
    h.G(0, 0) = p.locked_inertia();
    h.Gia(0, 0) = p.I_w;
    h.Gab(0, 0) = p.I_w;
    h.mg = p.gravity_moment();
    return h;
  }

  Mat<S, 1, 1> basis(const Vec<S, 2>&) const { return Mat<S, 1, 1>::Identity(); }
  Mat<S, 1, 1> basis_rate(const Vec<S, 2>&, const Vec<S, 2>&) const { return Mat<S, 1, 1>::Zero(); }
  Vec<S, 1> ad_star(const Vec<S, 1>&, const Vec<S, 1>&) const { return Vec<S, 1>::Zero(); }  // so(2) abelian
  Vec<S, 2> advected_rate(const Vec<S, 1>& xi, const Vec<S, 2>& Ga) const {
    return Vec<S, 2>(xi[0] * Ga[1], -xi[0] * Ga[0]);  // Γ̇ = −ξΓ
  }
  Vec<S, 1> potential_force(const Vec<S, 2>& Ga) const { return Vec<S, 1>(mg * Ga[0]); }
};

}  // namespace attractor
