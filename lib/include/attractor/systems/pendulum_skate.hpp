// SPDX-License-Identifier: Apache-2.0
// Pendulum skate (Gzenda & Putkaradze; paper 003 = Garcia & Ohsawa, §2.1, Example 8, §5).
//
// API summary (all allocation-free, float or double, fixed cost per call):
//   PendulumSkateParams<S>{m, l, I1, I2, I3, g}          eq. (7); validate() -> Error
//   PendulumSkate<S>        reduced eqs. (35)/(38) in ζ = (v1, v2, v3, Γ2, Γ3); N = 5, M = 4
//                           invariants (E (30), C1 (36), C2 (37, corrected), Γ2²+Γ3²) + analytic Jacobian:
//                           a System for Feedback<> (integrate/feedback.hpp).
//   PendulumSkateFull<S>    nonholonomic Euler–Poincaré eqs. (21) in z = (Ω, Y, Γ) ∈ R⁹ with the
//                           multipliers eliminated; N = 9, M = 8 invariants
//                           (E, C1, C2, |Γ|², Γ1, v4, v5, v6) + analytic Jacobian.
//   skate_zeta(z), skate_full(ζ), skate_body_rates(ζ)    conversions (33)
//   skate_tilted_sliding_state(φ0, Ω1, Ω3, Y1)           §7.2 start (59), on the constraint (33)
// Elsewhere, one concept per header:
//   systems/pendulum_skate_analysis.hpp   equilibria (40)/(41), Df of (38), Props. 11/12, A.1
//   systems/pendulum_skate_pose.hpp       reconstruction of R and the blade path (Ṙ = RΩ^, ẋ = RY)
//   systems/pendulum_skate_rotor.hpp      the controlled plant (44) with an internal rotor
//   estimate/advected_vertical.hpp        Γ̇ = Γ × Ω for attitude estimation (AdvectedGamma)
//
// Misprints found in paper 003 and what the code does instead (each checked numerically along
// RK4 trajectories at h = 1e-4 with /usr/bin/python3 and in host-tests/unit/pendulum_skate/pendulum_skate_test.cpp):
//   * (37): C2 printed with l/(I3(I2−I3)) in front of arctan. The integral
//     ∫ dΓ2 / ((I2−I3)Γ2² + I3) = arctan(√((I2−I3)/I3) Γ2) / √(I3(I2−I3)), so the factor is
//     l/√(I3(I2−I3)). The printed C2 drifts by 0.3 on the §7.2 run; the corrected one by 3e-15.
//     (Appendix A.1's DC2(ζsp) = (0,0,1,2lΩ0,0) agrees with the corrected form only.) For I2 < I3 the
//     integral is the artanh form, for I2 = I3 it is Γ2/I3 (the paper assumes I2 > I3).
//   * Appendix A.1: Df(ζsp) entry (1,4) printed (mgl − (I3+ml²−I2)Ω0²)/Ī1; differentiating (38)
//     gives (mgl + (Ī2−I3)Ω0²)/Ī1. The printed eigenvalues are nevertheless right (the v3 coupling
//     −2lΩ0 makes up the difference). skate_jacobian() differentiates (38).
//   * Appendix A.1: the tangent space ker(DC1, DC2, DC3) is spanned by e1 and e4 − 2lΩ0 e3 (not e4:
//     DC2·e4 = 2lΩ0). The resulting quadratic form happens to be the printed one.
//   * §5.1: the intermediate displays ξΓ = v1(0, Γ3, −Γ2) and the 3×3 "C p" matrix have opposite
//     signs (ξΓ = Ω×Γ = v1(0, −Γ3, Γ2)); the two sign slips cancel and (35)/(38) are correct, which
//     the agreement of PendulumSkate with PendulumSkateFull (eq. 21) confirms.
#pragma once

#include <cmath>
#include <type_traits>

#include "attractor/core/fast_atan.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/inline.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/solve3.hpp"
#include "attractor/core/types.hpp"
#include "attractor/geometry/so3.hpp"

// After types.hpp (which sets EIGEN_NO_MALLOC before Eigen/Core).
#include <Eigen/Geometry>

namespace attractor {

// Physical parameters of the pendulum skate, paper 003 eq. (7); defaults are §7.2.
template <class S>
struct PendulumSkateParams {
  S m = S(2);                                   // total mass [kg]
  S l = S(0.8);                                 // distance blade contact -> centre of mass along E3 [m]
  S I1 = S(0.35), I2 = S(0.35), I3 = S(0.004);  // principal moments of inertia about the CM [kg m²]
  S g = S(9.8);                                 // gravitational acceleration [m/s²]

  S Ibar1() const { return I1 + m * l * l; }  // Ī1 = I1 + ml² (34)
  S Ibar2() const { return I2 + m * l * l; }  // Ī2 = I2 + ml² (34)

  // invalid_parameter unless all finite, m > 0, l > 0, I_i > 0, g >= 0.
  Error validate() const {
    if (!is_finite(m) || !is_finite(l) || !is_finite(I1) || !is_finite(I2) || !is_finite(I3) || !is_finite(g))
      return Error::non_finite;
    if (!(m > S(0)) || !(l > S(0)) || !(I1 > S(0)) || !(I2 > S(0)) || !(I3 > S(0)) || !(g >= S(0)))
      return Error::invalid_parameter;
    return Error::none;
  }
};

// A(Γ2) = ∫_0^Γ2 dx / ((I2−I3)x² + I3) and its derivative, the integral in C2 (37) (corrected,
// see header comment). Branches on the parameters only (same cost for every state).
// In float the arctan is fast_atan (core/fast_atan.hpp: within 3e-7 of atan, a fifth of atanf's
// instructions; C2 is evaluated in every stage of a feedback step).
template <class S>
S skate_c2_integral(S I2, S I3, S G2) {
  const S a = I2 - I3;
  if constexpr (std::is_same<S, float>::value) {
    if (a > S(0)) return fast_atan(std::sqrt(a / I3) * G2) / std::sqrt(a * I3);
  } else {
    if (a > S(0)) return std::atan(std::sqrt(a / I3) * G2) / std::sqrt(a * I3);
  }
  if (a < S(0)) return std::atanh(std::sqrt(-a / I3) * G2) / std::sqrt(-a * I3);
  return G2 / I3;
}
template <class S>
S skate_c2_integrand(S I2, S I3, S G2) {
  return S(1) / ((I2 - I3) * G2 * G2 + I3);
}

// ---------------------------------------------------------------------------------------------
// Reduced equations (35)/(38): ζ = (v1, v2, v3, Γ2, Γ3), v1 = Ω1, v2 = Ω·Γ, v3 = Y1 (33).
template <class S>
struct PendulumSkate {
  using Scalar = S;
  static constexpr int N = 5;  // ζ
  static constexpr int M = 4;  // E (30), C1 (36), C2 (37), Γ2²+Γ3²
  using State = Vec<S, 5>;
  PendulumSkateParams<S> p{};

  // X(ζ) = (I1+ml²) v̇1, the roll moment about the blade (numerator of f1 in (38); paper 003
  // writes it X(ζ) in (56)). The rotor skate's law and plant use it with the locked inertias.
  S roll_moment(const State& z) const {
    const S v2 = z[1], v3 = z[2], G2 = z[3], G3 = z[4];
    const S ml = p.m * p.l;
    return ((p.Ibar2() - p.I3) * G3 * v2 * v2 + ml * p.g) * G2 + ml * G3 * v2 * v3;
  }

  // f(ζ) of (38) with the roll acceleration v̇1 given: v̇2, v̇3 and Γ̇ (35b) do not depend on
  // how v̇1 comes about (a rotor torque enters only through it, see pendulum_skate_rotor.hpp).
  State field_given_roll_acceleration(const State& z, S v1_dot) const {
    const S v1 = z[0], v2 = z[1], G2 = z[3], G3 = z[4];
    const S D = p.I2 * G2 * G2 + p.I3 * G3 * G3;
    State f;
    f[0] = v1_dot;
    f[1] = S(2) * (p.I3 - p.I2) * G2 * G3 * v1 * v2 / D;
    f[2] = -S(2) * p.l * p.I3 * G3 * v1 * v2 / D;
    f[3] = v1 * G3;   // (35b)
    f[4] = -v1 * G2;  // (35b)
    return f;
  }

  // f(ζ) of (38) (paper 003). Equivalent to (35) on Γ2²+Γ3² = 1.
  State field(const State& z) const { return field_given_roll_acceleration(z, roll_moment(z) / p.Ibar1()); }
  State operator()(const State& z) const { return field(z); }

  // Constrained energy (30): ½ G_αβ v^α v^β + U with G from (34) on ξ ∈ 𝔡(Γ).
  S energy(const State& z) const {
    const S v1 = z[0], v2 = z[1], v3 = z[2], G2 = z[3], G3 = z[4];
    return S(0.5) * (p.Ibar1() * v1 * v1 + (p.Ibar2() * G2 * G2 + p.I3 * G3 * G3) * v2 * v2) +
           p.m * p.l * G2 * v2 * v3 + S(0.5) * p.m * v3 * v3 + p.m * p.g * p.l * G3;
  }
  // C1 (36) = (I2 Γ2² + I3 Γ3²) v2.
  S c1(const State& z) const { return (p.I2 * z[3] * z[3] + p.I3 * z[4] * z[4]) * z[1]; }
  // C2 (37), corrected factor (see header).
  S c2(const State& z) const { return p.l * z[3] * z[1] + z[2] + p.l * c1(z) * skate_c2_integral(p.I2, p.I3, z[3]); }

  Vec<S, 4> invariants(const State& z) const { return Vec<S, 4>(energy(z), c1(z), c2(z), z[3] * z[3] + z[4] * z[4]); }

  Mat<S, 4, 5> invariants_jacobian(const State& z) const {
    const S v1 = z[0], v2 = z[1], v3 = z[2], G2 = z[3], G3 = z[4];
    const S ml = p.m * p.l;
    Mat<S, 4, 5> J;
    // dE
    J(0, 0) = p.Ibar1() * v1;
    J(0, 1) = (p.Ibar2() * G2 * G2 + p.I3 * G3 * G3) * v2 + ml * G2 * v3;
    J(0, 2) = ml * G2 * v2 + p.m * v3;
    J(0, 3) = p.Ibar2() * G2 * v2 * v2 + ml * v2 * v3;
    J(0, 4) = p.I3 * G3 * v2 * v2 + p.m * p.g * p.l;
    // dC1
    const S D = p.I2 * G2 * G2 + p.I3 * G3 * G3;
    J(1, 0) = S(0);
    J(1, 1) = D;
    J(1, 2) = S(0);
    J(1, 3) = S(2) * p.I2 * G2 * v2;
    J(1, 4) = S(2) * p.I3 * G3 * v2;
    // dC2 = l v2 dΓ2 + l Γ2 dv2 + dv3 + l A dC1 + l C1 A' dΓ2
    const S A = skate_c2_integral(p.I2, p.I3, G2);
    const S dA = skate_c2_integrand(p.I2, p.I3, G2);
    const S C1 = D * v2;
    J.row(2) = p.l * A * J.row(1);
    J(2, 1) += p.l * G2;
    J(2, 2) += S(1);
    J(2, 3) += p.l * v2 + p.l * C1 * dA;
    // d(Γ2²+Γ3²)
    J(3, 0) = S(0);
    J(3, 1) = S(0);
    J(3, 2) = S(0);
    J(3, 3) = S(2) * G2;
    J(3, 4) = S(2) * G3;
    return J;
  }

  // Fused grad V = DF^T K (F − F0) (integrate/system.hpp; paper 000 eq. (6)) from the rows
  // above: DC2 = l A DC1 + (0, l Γ2, 1, l v2 + l C1 A', 0), so
  //   grad V = e0 DE + (e1 + l A e2) DC1 + e2 (0, l Γ2, 1, l v2 + l C1 A', 0) + e3 (0,0,0, 2Γ2, 2Γ3),
  // with D, A(Γ2) (an arctan) and C1 computed once instead of in invariants() and the Jacobian.
  State feedback_gradient(const State& z, const Vec<S, 4>& F0, const Vec<S, 4>& K) const {
    const S v1 = z[0], v2 = z[1], v3 = z[2], G2 = z[3], G3 = z[4];
    const S ml = p.m * p.l;
    const S D = p.I2 * G2 * G2 + p.I3 * G3 * G3;
    const S A = skate_c2_integral(p.I2, p.I3, G2);
    const S dA = skate_c2_integrand(p.I2, p.I3, G2);
    const S C1 = D * v2;
    const S e0 = K[0] * (energy(z) - F0[0]);
    const S e1 = K[1] * (C1 - F0[1]);
    const S e2 = K[2] * (p.l * G2 * v2 + v3 + p.l * C1 * A - F0[2]);
    const S e3 = K[3] * (G2 * G2 + G3 * G3 - F0[3]);
    const S c = e1 + p.l * A * e2;  // DC1's coefficient
    State gv;
    gv[0] = e0 * (p.Ibar1() * v1);
    gv[1] = e0 * ((p.Ibar2() * G2 * G2 + p.I3 * G3 * G3) * v2 + ml * G2 * v3) + c * D + e2 * (p.l * G2);
    gv[2] = e0 * (ml * G2 * v2 + p.m * v3) + e2;
    gv[3] = e0 * (p.Ibar2() * G2 * v2 * v2 + ml * v2 * v3) + c * (S(2) * p.I2 * G2 * v2) +
            e2 * (p.l * v2 + p.l * C1 * dA) + e3 * (S(2) * G2);
    gv[4] = e0 * (p.I3 * G3 * v2 * v2 + p.m * p.g * p.l) + c * (S(2) * p.I3 * G3 * v2) + e3 * (S(2) * G3);
    return gv;
  }
};

// ---------------------------------------------------------------------------------------------
// Full nonholonomic Euler–Poincaré equations (21) in z = (Ω, Y, Γ) with the multipliers eliminated:
//   𝔾 ξ̇ = ad*_ξ(𝔾ξ) + 𝐊(∂ℓ/∂Γ, Γ) + Ψ(Γ)ᵀλ,   Γ̇ = Γ × Ω,   ξ = (Ω, Y),
// 𝔾 the constant metric of (34), Ψ rows ψ¹ = (E1×Γ, 0), ψ² = (0, Γ), ψ³ = (0, E1×Γ) (Example 8),
// λ chosen so that d/dt(Ψξ) = 0 everywhere in R⁹ (so v4, v5, v6 are invariants of the extension):
//   (Ψ𝔾⁻¹Ψᵀ) λ = −Ψ𝔾⁻¹ f − Ψ̇ ξ.
template <class S>
struct PendulumSkateFull {
  using Scalar = S;
  static constexpr int N = 9;  // (Ω, Y, Γ)
  static constexpr int M = 8;  // E, C1, C2, |Γ|², Γ1, v4, v5, v6
  using State = Vec<S, 9>;
  PendulumSkateParams<S> p{};

  // 𝔾 of (34): ℓ = ½ ξᵀ𝔾ξ − mgl Γ3.
  Mat<S, 6, 6> metric() const {
    Mat<S, 6, 6> G = Mat<S, 6, 6>::Zero();
    const Vec3<S> e3(S(0), S(0), S(1));
    G(0, 0) = p.Ibar1();
    G(1, 1) = p.Ibar2();
    G(2, 2) = p.I3;
    G.template block<3, 3>(0, 3) = p.m * p.l * hat(e3);
    G.template block<3, 3>(3, 0) = (p.m * p.l * hat(e3)).transpose();
    G.template block<3, 3>(3, 3) = p.m * Mat3<S>::Identity();
    return G;
  }

  // 𝔾⁻¹(a, b) in closed form. 𝔾 = [[D, B], [Bᵀ, m𝟙]] with D = diag(Ī1, Ī2, I3), B = ml ê3; its
  // Schur complement D − BBᵀ/m = diag(Ī1 − ml², Ī2 − ml², I3) = diag(I1, I2, I3) is diagonal,
  // so 𝔾(u, w) = (a, b) gives u = ((a1 + l b2)/I1, (a2 − l b1)/I2, a3/I3), w = b/m + l E3×u.
  // (Checked against a general LDLT of metric() in pendulum_skate_test.)
  Vec<S, 6> metric_solve(const Vec3<S>& a, const Vec3<S>& b) const {
    const Vec3<S> u((a[0] + p.l * b[1]) / p.I1, (a[1] - p.l * b[0]) / p.I2, a[2] / p.I3);
    Vec<S, 6> o;
    o << u, b / p.m + p.l * Vec3<S>(-u[1], u[0], S(0));
    return o;
  }

  // ad*_(Ω,Y)(Π,P) = (Π×Ω + P×Y, P×Ω) on 𝔰𝔢(3) (Example 8).
  static Vec<S, 6> ad_star(const Vec<S, 6>& xi, const Vec<S, 6>& mu) {
    const Vec3<S> Om = xi.template head<3>(), Y = xi.template tail<3>();
    const Vec3<S> Pi = mu.template head<3>(), P = mu.template tail<3>();
    Vec<S, 6> o;
    o << Pi.cross(Om) + P.cross(Y), P.cross(Om);
    return o;
  }
  // 𝐊(∂ℓ/∂Γ, Γ) = 𝐊(−mgl E3, Γ) = (−mgl E3 × Γ, 0) (20).
  Vec<S, 6> potential_force(const Vec3<S>& Ga) const {
    const Vec3<S> e3(S(0), S(0), S(1));
    Vec<S, 6> o;
    o << -(p.m * p.g * p.l) * e3.cross(Ga), Vec3<S>::Zero();
    return o;
  }

  ATTRACTOR_FLATTEN State field(const State& z) const {  // core/inline.hpp
    const Vec3<S> Om = z.template segment<3>(0), Y = z.template segment<3>(3), Ga = z.template segment<3>(6);
    const Vec3<S> e1(S(1), S(0), S(0));
    const Mat<S, 6, 6> G = metric();
    const Vec<S, 6> xi = z.template head<6>();
    const Vec<S, 6> f = ad_star(xi, G * xi) + potential_force(Ga);
    const Vec3<S> e1g = e1.cross(Ga);
    const Vec3<S> Gd = Ga.cross(Om);  // (21) third line
    const Vec3<S> e1gd = e1.cross(Gd);
    // Ψᵀ columns (E1×Γ, 0), (0, Γ), (0, E1×Γ); 𝔾⁻¹ in closed form (metric_solve), so the
    // multiplier system Ψ𝔾⁻¹Ψᵀ λ = −Ψ𝔾⁻¹f − Ψ̇ξ is one 3×3 adjugate solve (no general LDLT).
    Mat<S, 6, 3> GiPsiT;
    GiPsiT.col(0) = metric_solve(e1g, Vec3<S>::Zero());
    GiPsiT.col(1) = metric_solve(Vec3<S>::Zero(), Ga);
    GiPsiT.col(2) = metric_solve(Vec3<S>::Zero(), e1g);
    const Vec<S, 6> Gif = metric_solve(f.template head<3>(), f.template tail<3>());
    const Vec3<S> psid_xi(e1gd.dot(Om), Gd.dot(Y), e1gd.dot(Y));
    // Ψv for v = (v_Ω, v_Y): (E1×Γ·v_Ω, Γ·v_Y, E1×Γ·v_Y).
    const auto psi = [&](const Vec<S, 6>& v) {
      return Vec3<S>(e1g.dot(v.template head<3>()), Ga.dot(v.template tail<3>()), e1g.dot(v.template tail<3>()));
    };
    Mat3<S> A;
    for (int c = 0; c < 3; ++c) A.col(c) = psi(GiPsiT.col(c));
    S det;
    const Vec3<S> lambda = detail::solve3_adjugate<S>(A, Vec3<S>(-(psi(Gif) + psid_xi)), det);
    State out;
    out.template head<6>() = Gif + GiPsiT * lambda;
    out.template tail<3>() = Gd;
    return out;
  }
  State operator()(const State& z) const { return field(z); }

  // Fused grad V = DFᵀ K (F − F0) of the eight rows below (systems/pendulum_skate_full_gradient.hpp).
  ATTRACTOR_ALWAYS_INLINE State feedback_gradient(const State& z, const Vec<S, 8>& F0, const Vec<S, 8>& K) const;

  Vec<S, 8> invariants(const State& z) const {
    const Vec3<S> Om = z.template segment<3>(0), Y = z.template segment<3>(3), Ga = z.template segment<3>(6);
    const Vec3<S> e1g(S(0), -Ga[2], Ga[1]);  // E1 × Γ
    const Vec<S, 6> xi = z.template head<6>();
    const S E = S(0.5) * xi.dot(metric() * xi) + p.m * p.g * p.l * Ga[2];  // (30) on 𝔡
    const S v2 = Om.dot(Ga);
    const S C1 = (p.I2 * Ga[1] * Ga[1] + p.I3 * Ga[2] * Ga[2]) * v2;                         // (36)
    const S C2 = p.l * Ga[1] * v2 + Y[0] + p.l * C1 * skate_c2_integral(p.I2, p.I3, Ga[1]);  // (37)
    Vec<S, 8> F;
    F << E, C1, C2, Ga.squaredNorm(), Ga[0], e1g.dot(Om), Ga.dot(Y), e1g.dot(Y);
    return F;
  }

  Mat<S, 8, 9> invariants_jacobian(const State& z) const {
    const Vec3<S> Om = z.template segment<3>(0), Y = z.template segment<3>(3), Ga = z.template segment<3>(6);
    const Vec<S, 6> xi = z.template head<6>();
    Mat<S, 8, 9> J = Mat<S, 8, 9>::Zero();
    // E
    J.template block<1, 6>(0, 0) = (metric() * xi).transpose();
    J(0, 8) = p.m * p.g * p.l;
    // C1 = D (Ω·Γ), D = I2Γ2² + I3Γ3²
    const S D = p.I2 * Ga[1] * Ga[1] + p.I3 * Ga[2] * Ga[2];
    const S v2 = Om.dot(Ga);
    J.template block<1, 3>(1, 0) = D * Ga.transpose();
    J.template block<1, 3>(1, 6) = D * Om.transpose();
    J(1, 7) += S(2) * p.I2 * Ga[1] * v2;
    J(1, 8) += S(2) * p.I3 * Ga[2] * v2;
    // C2 = l Γ2 v2 + Y1 + l C1 A(Γ2)
    const S A = skate_c2_integral(p.I2, p.I3, Ga[1]);
    const S dA = skate_c2_integrand(p.I2, p.I3, Ga[1]);
    J.row(2) = p.l * A * J.row(1);
    J.template block<1, 3>(2, 0) += p.l * Ga[1] * Ga.transpose();
    J.template block<1, 3>(2, 6) += p.l * Ga[1] * Om.transpose();
    J(2, 7) += p.l * v2 + p.l * D * v2 * dA;
    J(2, 3) += S(1);
    // |Γ|², Γ1
    J.template block<1, 3>(3, 6) = S(2) * Ga.transpose();
    J(4, 6) = S(1);
    // v4 = (E1×Γ)·Ω = −Γ3Ω2 + Γ2Ω3
    J(5, 1) = -Ga[2];
    J(5, 2) = Ga[1];
    J(5, 7) = Om[2];
    J(5, 8) = -Om[1];
    // v5 = Γ·Y
    J.template block<1, 3>(6, 3) = Ga.transpose();
    J.template block<1, 3>(6, 6) = Y.transpose();
    // v6 = (E1×Γ)·Y = −Γ3Y2 + Γ2Y3
    J(7, 4) = -Ga[2];
    J(7, 5) = Ga[1];
    J(7, 7) = Y[2];
    J(7, 8) = -Y[1];
    return J;
  }
};

// ---------------------------------------------------------------------------------------------
// Conversions (33). ζ from z: v1 = Ω1, v2 = Ω·Γ, v3 = Y1, Γ2, Γ3.
template <class S>
Vec<S, 5> skate_zeta(const Vec<S, 9>& z) {
  Vec<S, 5> q;
  q << z[0], z.template segment<3>(0).dot(z.template segment<3>(6)), z[3], z[7], z[8];
  return q;
}
template <class S>
Vec<S, 5> skate_zeta(const Vec3<S>& Omega, const Vec3<S>& Y, const Vec3<S>& Gamma) {
  Vec<S, 5> q;
  q << Omega[0], Omega.dot(Gamma), Y[0], Gamma[1], Gamma[2];
  return q;
}
// Body rates on the constraint: Ω = v1 E1 + v2 Γ, Y = v3 E1 (33) with v4 = v5 = v6 = 0, Γ1 = 0.
template <class S>
void skate_body_rates(const Vec<S, 5>& q, Vec3<S>& Omega, Vec3<S>& Y) {
  Omega = Vec3<S>(q[0], q[1] * q[3], q[1] * q[4]);
  Y = Vec3<S>(q[2], S(0), S(0));
}
template <class S>
Vec<S, 9> skate_full(const Vec<S, 5>& q) {
  Vec3<S> Om, Y;
  skate_body_rates(q, Om, Y);
  Vec<S, 9> z;
  z << Om, Y, S(0), q[3], q[4];
  return z;
}

// The tilted sliding start of paper 003 §7.2, eq. (59): tilt φ0 about E1 on top of the sliding motion,
// Ω(0) = (Ω1, Ω3 tan φ0, Ω3), Y(0) = (Y1, 0, 0), Γ(0) = (0, sin φ0, cos φ0).
// The paper prints Ω2 = 0.1 tan φ0 with Ω1 = Ω3 = 0.1, so it does not say which 0.1 is meant.
// The constraint (33) puts Ω in span{E1, Γ}: v4 = (E1×Γ)·Ω = Γ2Ω3 − Γ3Ω2 = 0 forces
// Ω2 = Ω3 Γ2/Γ3 = Ω3 tan φ0. (Ω1 tan φ0 is off the constraint whenever Ω1 ≠ Ω3.)
template <class S>
Vec<S, 9> skate_tilted_sliding_state(S phi0, S Omega1 = S(0.1), S Omega3 = S(0.1), S Y1 = S(1)) {
  Vec<S, 9> z;
  z << Omega1, Omega3 * std::tan(phi0), Omega3, Y1, S(0), S(0), S(0), std::sin(phi0), std::cos(phi0);
  return z;
}
// The same under its older name (the host tools' option code still calls it so).
template <class S>
Vec<S, 9> skate_initial_condition_59(S phi0, S Omega1 = S(0.1), S Omega3 = S(0.1), S Y1 = S(1)) {
  return skate_tilted_sliding_state(phi0, Omega1, Omega3, Y1);
}

}  // namespace attractor

#include "attractor/systems/pendulum_skate_full_gradient.hpp"  // PendulumSkateFull::feedback_gradient
