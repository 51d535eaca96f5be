// SPDX-License-Identifier: Apache-2.0
// The spherical robot as the nonholonomic Euler–Poincaré equations with advected parameter and
// Lagrange multipliers (paper 003 eq. (17)), the multipliers eliminated numerically. An
// independent formulation of systems/spherical_robot.hpp, used by the tests to cross-check the
// explicit (Newton–Euler) equations; not meant for the ISR (an 8×8 LDLT per call).
//
// z = (Ω, Y, Γ, θ̇) ∈ R¹¹, ξ = (Ω, Y) ∈ se(3), μ = δℓ/δξ = 𝔾ξ + 𝔾_ia θ̇ with the constant metric of
// the reduced Lagrangian (paper 003 (43)):
//   𝔾 = [[𝕀 + m l²(𝟙 − E3E3ᵀ), m l Ê3], [(m l Ê3)ᵀ, m𝟙]],  𝔾_ia = J_a (e_a, 0),  𝔾_ab = diag(J_a),
//   d/dt μ = ad*_ξ μ + 𝐊(δℓ/δΓ, Γ) + Ψ(Γ)ᵀλ   (17a),   d/dt(𝔾_ai ξ + 𝔾_ab θ̇) = u   (44b),
//   Γ̇ = −ξΓ = Γ×Ω   (17b),
// ad*_(Ω,Y)(Π,P) = (Π×Ω + P×Y, P×Ω) (paper 003 Example 8), 𝐊(−mgl E3, Γ) = (−mgl E3×Γ, 0) (20),
// Ψ rows ψ^a = (a e_a×Γ, e_a), i.e. Ψ = [a Γ̂, 𝟙] (Ψξ = Y − aΩ×Γ = 0 is the rolling constraint).
// λ is chosen so that d/dt(Ψξ) = 0 everywhere in R¹² (Ψ ξ̇ + Ψ̇ ξ = 0, Ψ̇ξ = a Γ̇×Ω):
//   (P 𝕄⁻¹ Pᵀ) λ = −Ψ̇ξ − P 𝕄⁻¹ b,   𝕄 = [[𝔾, 𝔾_ia], [𝔾_ai, 𝔾_ab]],  P = [Ψ, 0],
//   b = (ad*_ξ μ + 𝐊, u).
#pragma once

#include "attractor/core/types.hpp"
#include "attractor/geometry/so3.hpp"
#include "attractor/systems/spherical_robot.hpp"

// After types.hpp (which sets EIGEN_NO_MALLOC before Eigen/Core).
#include <Eigen/Cholesky>

namespace attractor {

template <class S>
struct SphericalRobotMultipliers {
  using Scalar = S;
  static constexpr int N = 11;  // (Ω, Y, Γ, θ̇)
  using State = Vec<S, 11>;
  SphericalRobotParams<S> p{};
  Vec<S, 2> torque = Vec<S, 2>::Zero();

  // 𝕄: the 8×8 metric of ℓ in (ξ, θ̇).
  Mat<S, 8, 8> metric() const {
    const Vec3<S> e3(S(0), S(0), S(1));
    const S ml = p.m * p.l;
    Mat<S, 8, 8> G = Mat<S, 8, 8>::Zero();
    G.template block<3, 3>(0, 0) = p.m * p.l * p.l * (Mat3<S>::Identity() - e3 * e3.transpose());
    G(0, 0) += p.I1;
    G(1, 1) += p.I2;
    G(2, 2) += p.I3;
    G.template block<3, 3>(0, 3) = ml * hat(e3);  // m Y·(lΩ×E3) = m l Ωᵀ Ê3 Y
    G.template block<3, 3>(3, 0) = (ml * hat(e3)).transpose();
    G.template block<3, 3>(3, 3) = p.m * Mat3<S>::Identity();
    G(0, 6) = G(6, 0) = G(6, 6) = p.J1;  // ½J1(Ω1+θ̇1)²
    G(1, 7) = G(7, 1) = G(7, 7) = p.J2;
    return G;
  }

  State field(const State& z, const Vec<S, 2>& u) const {
    const Vec3<S> Om = z.template segment<3>(0), Y = z.template segment<3>(3), Ga = z.template segment<3>(6);
    const Vec3<S> e3(S(0), S(0), S(1));
    const Mat<S, 8, 8> Mm = metric();
    Vec<S, 8> q;  // (ξ, θ̇)
    q << Om, Y, z.template segment<2>(9);
    const Vec<S, 8> mom = Mm * q;  // (μ, π)
    const Vec3<S> Pi = mom.template segment<3>(0), Pp = mom.template segment<3>(3);
    Vec<S, 8> b;
    b.template segment<3>(0) = Pi.cross(Om) + Pp.cross(Y) - (p.m * p.g * p.l) * e3.cross(Ga);
    b.template segment<3>(3) = Pp.cross(Om);
    b.template segment<2>(6) = u;
    const Vec3<S> Gd = Ga.cross(Om);
    Mat<S, 8, 3> PT = Mat<S, 8, 3>::Zero();  // Pᵀ
    PT.template block<3, 3>(0, 0) = (p.radius * hat(Ga)).transpose();
    PT.template block<3, 3>(3, 0) = Mat3<S>::Identity();
    const Vec3<S> Pdot_q = p.radius * Gd.cross(Om);
    const Eigen::LDLT<Mat<S, 8, 8>> ldlt(Mm);
    Mat<S, 8, 3> MiPT;
    for (int c = 0; c < 3; ++c) MiPT.col(c) = ldlt.solve(Vec<S, 8>(PT.col(c)));  // vector RHS: no heap
    const Vec<S, 8> Mib = ldlt.solve(b);
    const Mat3<S> A = PT.transpose() * MiPT;
    const Vec3<S> lambda = A.ldlt().solve(Vec3<S>(-Pdot_q - PT.transpose() * Mib));
    const Vec<S, 8> acc = Mib + MiPT * lambda;  // (ξ̇, θ̈)
    State out;
    out.template segment<6>(0) = acc.template segment<6>(0);
    out.template segment<3>(6) = Gd;
    out.template segment<2>(9) = acc.template segment<2>(6);
    return out;
  }
  State field(const State& z) const { return field(z, torque); }
  State operator()(const State& z) const { return field(z, torque); }
};

// x = (Ω, Γ, θ̇) -> z = (Ω, Y = aΩ×Γ, Γ, θ̇) on the constraint, and back.
template <class S>
Vec<S, 11> spherical_robot_full_state(const Vec<S, 8>& x, S radius) {
  const Vec3<S> Om = x.template segment<3>(0), G = x.template segment<3>(3);
  Vec<S, 11> z;
  z << Om, radius * Om.cross(G), G, x.template segment<2>(6);
  return z;
}
template <class S>
Vec<S, 8> spherical_robot_reduced_state(const Vec<S, 11>& z) {
  Vec<S, 8> x;
  x << z.template segment<3>(0), z.template segment<3>(6), z.template segment<2>(9);
  return x;
}

}  // namespace attractor
