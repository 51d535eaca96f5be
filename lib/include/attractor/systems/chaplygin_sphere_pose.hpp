// SPDX-License-Identifier: Apache-2.0
// The Chaplygin sphere (systems/chaplygin_sphere.hpp) with where it rolls to: the reduced state
// (Ω, Γ) beside the attitude R (body -> space) and the contact point (x, y) on the plane, so that
// one step of any scheme (or the feedback integrator) advances all of them together.
//
// Reconstruction (the rolling constraints of paper 004's slides, ẋ = a ω_y, ẏ = −a ω_x for the
// space rate ω = RΩ; chaplygin_sphere.hpp): with a the radius,
//   Ṙ = R Ω^,   ẋ = a (RΩ)₂,   ẏ = −a (RΩ)₁,
// the reduced field unchanged. The contact point is the foot of the centre (the centre is at
// height a), so (x, y) is both. The reduced system stays the sphere's own: this is a separate
// system, as chaplygin_sleigh_xy.hpp and spherical_robot_pose.hpp are beside theirs.
//
// State x = (Ω, Γ, vec R (column-major), x, y) ∈ R¹⁷. Invariants (M = 13):
//   rows 0..3   the sphere's |Γ|², H, K, |M|² (chaplygin_sphere.hpp), targets 1, F(x0), F(x0), F(x0)
//   rows 4..9   RᵀR − I (nonholonomic/orthogonality_rows.hpp), target 0, one gain group
//   rows 10..12 Rᵀe3 − Γ: the attitude and the vertical agree (Γ is Rᵀe3 by definition), target 0,
//               one gain group
// Each group is a first integral of the field on all of R¹⁷ as a sum of squares, its single rows
// only where the group is 0: ‖RᵀR − I‖² (orthogonality_rows.hpp), and |D|² for D = Rᵀe3 − Γ, since
// d/dt(Rᵀe3) = −Ω^Rᵀe3 = Rᵀe3 × Ω is Γ̇ = Γ × Ω's law, so Ḋ = D × Ω. With one gain per group
// the feedback term's Lyapunov function is kept by the field (integrate/system.hpp). The spatial angular momentum about
// the contact point, R M, is fixed (chaplygin_sphere.hpp): spatial_momentum() is a check of the reconstruction, not a
// row (its first two components are not integrals of the reduced system alone). The position has no invariant: it
// drifts with the truncation error like any reconstruction.
#pragma once

#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/geometry/so3.hpp"
#include "attractor/nonholonomic/orthogonality_rows.hpp"
#include "attractor/systems/chaplygin_sphere.hpp"

namespace attractor {

// The sphere's parameters and start (chaplygin_sphere.hpp), the attitude and contact point beside
// them. The documented R0 is the smallest rotation with R0ᵀe3 = Γ0 = (0.6, 0, 0.8): the rotation
// about −e2 by acos 0.8, so R0 = [[0.8, 0, −0.6], [0, 1, 0], [0.6, 0, 0.8]] (column-major below).
struct ChaplyginSpherePoseFacts {
  static constexpr const facts::Param (&params)[5] = ChaplyginSphereFacts::params;
  static constexpr const int (&principal_moments)[3] = ChaplyginSphereFacts::principal_moments;
  static constexpr const char* states[] = {"W1",  "W2",  "W3",  "G1",  "G2",  "G3",  "R11", "R21", "R31",
                                           "R12", "R22", "R32", "R13", "R23", "R33", "x",   "y"};
  static constexpr facts::Invariant invariants[] = {
      {"G", facts::InvariantKind::constraint, "|Gamma|^2, target 1"},
      {"H", facts::InvariantKind::energy, "the energy"},
      {"K", facts::InvariantKind::momentum, "M.Gamma, the nonholonomic momentum"},
      {"M2", facts::InvariantKind::momentum, "|M|^2"},
      {"RtR11", facts::InvariantKind::group, "R^T R - I"},
      {"RtR12", facts::InvariantKind::group, "R^T R - I"},
      {"RtR13", facts::InvariantKind::group, "R^T R - I"},
      {"RtR22", facts::InvariantKind::group, "R^T R - I"},
      {"RtR23", facts::InvariantKind::group, "R^T R - I"},
      {"RtR33", facts::InvariantKind::group, "R^T R - I"},
      {"Re3-G1", facts::InvariantKind::group, "R^T e3 - Gamma, target 0"},
      {"Re3-G2", facts::InvariantKind::group, "R^T e3 - Gamma, target 0"},
      {"Re3-G3", facts::InvariantKind::group, "R^T e3 - Gamma, target 0"}};
  static constexpr double x0[] = {1, 0.5, 2, 0.6, 0, 0.8, 0.8, 0, 0.6, 0, 1, 0, -0.6, 0, 0.8, 0, 0};
  static constexpr facts::Case documented = {
      "documented", "paper 004 (the slides give no numbers)", x0, 1e-3, 20, "feedback-rk4", 1};
};

template <class S>
struct ChaplyginSpherePose {
  using Scalar = S;
  using Sphere = ChaplyginSphere<S>;
  using Rows = OrthogonalityRows<S, 3>;
  static constexpr int N = 17;  // (Ω, Γ, vec R, x, y)
  static constexpr int M = 13;  // the sphere's 4, RᵀR − I (6), Rᵀe3 − Γ (3)
  static constexpr int R_at = 6, XY_at = 15;
  static constexpr int orthogonality_row = 4, vertical_row = 10;
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;

  Sphere sphere{};

  static Result<ChaplyginSpherePose> make(const ChaplyginSphereParams<S>& prm = ChaplyginSphereParams<S>{}) {
    const Result<Sphere> s = Sphere::make(prm);
    if (!s) return s.error();
    ChaplyginSpherePose p;
    p.sphere = *s;
    return p;
  }

  static State state(const Vec3<S>& Omega, const Vec3<S>& Gamma, const Mat3<S>& R, const Vec<S, 2>& xy) {
    State x;
    x << Omega, Gamma, Eigen::Map<const Vec<S, 9>>(R.data()), xy;
    return x;
  }
  static typename Sphere::State reduced(const State& x) { return x.template head<6>(); }
  static Mat3<S> attitude(const State& x) { return Eigen::Map<const Mat3<S>>(x.data() + R_at); }
  static Vec<S, 2> contact_point(const State& x) { return x.template segment<2>(XY_at); }

  State field(const State& x) const {
    const Vec3<S> Om = x.template head<3>();
    const Mat3<S> R = attitude(x);
    const Vec3<S> ws = R * Om;
    const Mat3<S> Rd = R * hat(Om);
    State dx;
    dx.template head<6>() = sphere.field(reduced(x));
    dx.template segment<9>(R_at) = Eigen::Map<const Vec<S, 9>>(Rd.data());
    dx[XY_at] = sphere.p.radius * ws[1];
    dx[XY_at + 1] = -sphere.p.radius * ws[0];
    return dx;
  }

  Invariants invariants(const State& x) const {
    const Mat3<S> R = attitude(x);
    Invariants F;
    F << sphere.invariants(reduced(x)), Rows::values(R), Vec3<S>(R.row(2).transpose() - x.template segment<3>(3));
    return F;
  }

  Mat<S, M, N> invariants_jacobian(const State& x) const {
    Mat<S, M, N> J = Mat<S, M, N>::Zero();
    J.template block<4, 6>(0, 0) = sphere.invariants_jacobian(reduced(x));
    J.template block<6, 9>(orthogonality_row, R_at) = Rows::jacobian(attitude(x));
    for (int j = 0; j < 3; ++j) {
      J(vertical_row + j, R_at + 3 * j + 2) = S(1);  // ∂R(2, j) in vec R (column-major)
      J(vertical_row + j, 3 + j) = S(-1);
    }
    return J;
  }

  // The sphere's targets (|Γ|² = 1), the attitude rows at 0.
  Invariants invariant_targets(const Invariants& F0) const {
    Invariants T = Invariants::Zero();
    T.template head<4>() = sphere.invariant_targets(Vec<S, 4>(F0.template head<4>()));
    return T;
  }

  // The RᵀR − I rows share one gain, and the Rᵀe3 − Γ rows another (header comment).
  static constexpr int gain_group(int row) {
    return row >= vertical_row ? vertical_row : row >= orthogonality_row ? orthogonality_row : row;
  }

  // R M: the angular momentum about the contact point in space, constant along the motion.
  Vec3<S> spatial_momentum(const State& x) const {
    return attitude(x) * sphere.contact_momentum(x.template head<3>(), x.template segment<3>(3));
  }
};

}  // namespace attractor
