// SPDX-License-Identifier: Apache-2.0
// The spherical robot as a HamelRotorModel (control/controlled_lagrangian.hpp): the data the
// generic matching (paper 003 Prop. 13, (52)–(53), Remark 14) and the generic plant (44) need.
// n = 6 (ξ = (Ω, Y) ∈ se(3)), r = 3 rolling constraints, s = 2 rotors, k = 3 (Γ).
//
// Hamel basis (paper 003 §4): 𝔡(Γ) = span{ℰ_α = (e_α, a e_α×Γ)}, α = 1..3, so the quasivelocities
// are v^α = Ω_α (ξ = Σ v^α ℰ_α = (Ω, aΩ×Γ) satisfies Y = aΩ×Γ); the complement ℰ_{3+a} = (0, e_a).
// dℰ_α/dt = (0, a e_α×Γ̇). Metric of the reduced Lagrangian (paper 003 (43)), ad* (Example 8), 𝐊 (20).
#pragma once

#include <Eigen/Geometry>  // cross()

#include "attractor/core/types.hpp"
#include "attractor/geometry/so3.hpp"
#include "attractor/systems/spherical_robot.hpp"

namespace attractor {

template <class S>
struct SphericalRobotHamel {
  using Scalar = S;
  // n = 6 (ξ ∈ se(3)), r = 3 rolling constraints, s = 2 rotors, k = 3 (Γ).
  static constexpr int algebra_dim = 6, constraint_count = 3, rotor_count = 2, advected_dim = 3;
  Mat<S, 6, 6> G = Mat<S, 6, 6>::Zero();    // 𝔾_ij
  Mat<S, 6, 2> Gia = Mat<S, 6, 2>::Zero();  // 𝔾_ia = J_a (e_a, 0)
  Mat<S, 2, 2> Gab = Mat<S, 2, 2>::Zero();  // 𝔾_ab = diag(J1, J2)
  S radius = S(0);
  S mgl = S(0);

  static SphericalRobotHamel from(const SphericalRobotParams<S>& p) {
    SphericalRobotHamel h;
    const Vec3<S> e3(S(0), S(0), S(1));
    const S ml = p.m * p.l;
    // ℓ = ½Ω·(𝕀−J)Ω + ½ΣJ_a(Ω_a+θ̇_a)² + ½m|Y + lΩ×E3|²: 𝔾_ΩΩ = 𝕀 + ml²(𝟙 − E3E3ᵀ) (J cancels)
    h.G.template block<3, 3>(0, 0) = p.m * p.l * p.l * (Mat3<S>::Identity() - e3 * e3.transpose());
    h.G(0, 0) += p.I1;
    h.G(1, 1) += p.I2;
    h.G(2, 2) += p.I3;
    h.G.template block<3, 3>(0, 3) = ml * hat(e3);
    h.G.template block<3, 3>(3, 0) = (ml * hat(e3)).transpose();
    h.G.template block<3, 3>(3, 3) = p.m * Mat3<S>::Identity();
    h.Gia(0, 0) = p.J1;
    h.Gia(1, 1) = p.J2;
    h.Gab(0, 0) = p.J1;
    h.Gab(1, 1) = p.J2;
    h.radius = p.radius;
    h.mgl = ml * p.g;
    return h;
  }

  Mat<S, 6, 6> basis(const Vec3<S>& Ga) const {
    Mat<S, 6, 6> E = Mat<S, 6, 6>::Zero();
    E.template block<3, 3>(0, 0) = Mat3<S>::Identity();
    // column α: (e_α, a e_α×Γ); e_α×Γ = −Γ̂ e_α
    E.template block<3, 3>(3, 0) = -radius * hat(Ga);
    E.template block<3, 3>(3, 3) = Mat3<S>::Identity();
    return E;
  }
  Mat<S, 6, 3> basis_rate(const Vec3<S>&, const Vec3<S>& Gd) const {
    Mat<S, 6, 3> Ed = Mat<S, 6, 3>::Zero();
    Ed.template block<3, 3>(3, 0) = -radius * hat(Gd);
    return Ed;
  }
  Vec<S, 6> ad_star(const Vec<S, 6>& xi, const Vec<S, 6>& mu) const {
    const Vec3<S> Om = xi.template head<3>(), Y = xi.template tail<3>();
    const Vec3<S> Pi = mu.template head<3>(), P = mu.template tail<3>();
    Vec<S, 6> o;
    o << Pi.cross(Om) + P.cross(Y), P.cross(Om);  // paper 003 Example 8
    return o;
  }
  Vec3<S> advected_rate(const Vec<S, 6>& xi, const Vec3<S>& Ga) const {
    return Ga.cross(Vec3<S>(xi.template head<3>()));  // (17b)
  }
  Vec<S, 6> potential_force(const Vec3<S>& Ga) const {
    const Vec3<S> e3(S(0), S(0), S(1));
    Vec<S, 6> o;
    o << -mgl * e3.cross(Ga), Vec3<S>::Zero();  // 𝐊(−mgl E3, Γ) (20)
    return o;
  }
};

}  // namespace attractor
