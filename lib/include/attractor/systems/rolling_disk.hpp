// SPDX-License-Identifier: Apache-2.0
// The vertical rolling disk: a disk of radius R rolling upright without slipping on the plane,
// heading θ, contact point (x, y), rolling angle ψ (paper 000 §3.4; Bloch, Nonholonomic Mechanics,
// §1.4), as the Lie-group extension of nonholonomic/lie_group_extension.hpp on G = SE(2) × S¹:
//
//   𝕀 = diag(J, m, m, I),  h = Πθ²/(2J) + (Πx² + Πy²)/(2m) + Πψ²/(2I)
//   constraints (ẋ, ẏ) = R ψ̇ (cos θ, sin θ):  Πy = 0,  IΠx − mRΠψ = 0,
//   e1 = (0, 0, 1, 0)/√m,  e2 = (0, I, 0, −mR)/√(mI(I + mR²))   (𝕀-orthonormal)
//   h̃ = Πθ²/(2J) + (RΠx + Πψ)²/(2(I + mR²))
//   ad*_ξ μ = (−μy ξx + μx ξy, μy ξθ, −μx ξθ, 0)   (se(2)* × R, eq. (48))
//   field: eq. (59), the extension (17) itself; ψ is stored as an angle (ψ̇ = ξ̃ψ).
//
// State layout x = (R column-major (4), x, y, ψ, Πθ, Πx, Πy, Πψ), N = 11, R = [[cos θ, −sin θ],
// [sin θ, cos θ]]. Invariants (M = 7):
//   row 0  J1 = Πy/√m                            constraint, target 0
//   row 1  J2 = (IΠx − mRΠψ)/√(mI(I + mR²))      constraint, target 0
//   row 2  h̃ (default) or h                      energy
//   row 3  Πθ                                     momentum (spin about the vertical)
//   rows 4..6  RᵀR − I                            one gain group, target 0
// With J1 = J2 = 0, h̃ and Πθ fix all four momenta (RΠx + Πψ from h̃ and, with J2, Πx and Πψ), so
// V⁻¹(0) is the paper's set Π = Π0; gains K = (k_J1, k_J2, k_h̃, k_Πθ, k_R × 3).
//
// Paper deviations (paper 000 §3.4): the paper builds its integrator (61) on a second extension
// (60), obtained by substituting the constraints into (59), in which every Π is constant
// everywhere. Here the field is the general extension (59) (no hand-coded field): J1, J2 and h̃
// are first integrals of it on all of G × 𝔤*, Πθ only on the constraint set (Π̇θ = −R ξ̃ψ Πy); on
// the constraint set (59) = (60). The printed condition IΠx0 − RΠψ0 = 0 below (60) is a
// misprint for IΠx0 − mRΠψ0 = 0 (the constraint set above it). (59b) and its λ̃1, λ̃2 are as
// printed (asserted in host-tests/unit/nonholonomic).
//
// exact_state() is the closed-form solution from an on-constraint start: Π constant, θ = θ0 + ωt
// (ω = Πθ/J), ψ = ψ0 + Πψ t/I, the contact point on a circle of radius v/ω (v = Πx/m).
#pragma once

#include <cmath>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/lie_group_extension.hpp"
#include "attractor/nonholonomic/se2.hpp"

namespace attractor {

// The rolling disk's facts (core/facts.hpp). §3.4 gives no experiment; the documented case: m = R
// = 1, I = 1/2, J = 1/4, heading 0, Π = (1/4, m R/I, 0, 1) on the constraints (a circle of radius
// 2), feedback Euler, h = 1e-3, gains 50, t in [0, 20].
struct RollingDiskFacts {
  static constexpr facts::Param params[] = {
      {"m", "kg", 1, facts::positive(), "mass"},
      {"radius", "m", 1, facts::positive(), "disk radius R"},
      {"I", "kg m^2", 0.5, facts::positive(), "inertia about the axle"},
      {"J", "kg m^2", 0.25, facts::positive(), "inertia about a vertical diameter"}};
  static constexpr const char* states[] = {"R11", "R21",      "R12",  "R22",  "x",     "y",
                                           "psi", "Pi_theta", "Pi_x", "Pi_y", "Pi_psi"};
  static constexpr facts::Invariant invariants[] = {
      {"J1", facts::InvariantKind::constraint, "Pi_y/sqrt(m): no sliding sideways"},
      {"J2", facts::InvariantKind::constraint, "I Pi_x - m R Pi_psi (scaled): rolling"},
      {"h", facts::InvariantKind::energy, "the extended energy h~"},
      {"Pi_theta", facts::InvariantKind::momentum, "Pi_theta"},
      {"O11", facts::InvariantKind::group, "(R^T R - I)_11"},
      {"O12", facts::InvariantKind::group, "(R^T R - I)_12"},
      {"O22", facts::InvariantKind::group, "(R^T R - I)_22"}};
  static constexpr double x0[] = {1, 0, -0.0, 1, 0, 0, 0, 0.25, 2, 0, 1};
  static constexpr facts::Case documented = {
      "documented", "paper 000 §3.4 (no experiment)", x0, 1e-3, 20, "feedback-euler", 50};
};

template <class S>
struct RollingDiskParams {
  S mass = S(facts::default_of<RollingDiskFacts>(0));          // m
  S radius = S(facts::default_of<RollingDiskFacts>(1));        // R
  S inertia_axle = S(facts::default_of<RollingDiskFacts>(2));  // I, about the axle (a uniform disk: m R²/2)
  S inertia_spin = S(facts::default_of<RollingDiskFacts>(3));  // J, about a vertical diameter (a uniform disk: m R²/4)

  Error validate() const {
    const S v[] = {mass, radius, inertia_axle, inertia_spin};
    return facts::error_of(facts::check<RollingDiskFacts>(v));
  }
};

// The model of lie_group_model.hpp; μ = (Πθ, Πx, Πy, Πψ), g = (R, x, y, ψ).
template <class S>
struct RollingDiskModel {
  using Scalar = S;
  static constexpr int D = 4, K = 2, G = 7, rotation_size = 2, extra_integrals = 1;
  RollingDiskParams<S> prm{};

  Mat<S, 4, 4> locked_inertia() const {
    return Vec<S, 4>(prm.inertia_spin, prm.mass, prm.mass, prm.inertia_axle).asDiagonal();
  }
  Mat<S, 4, 4> inverse_locked_inertia() const {
    return Vec<S, 4>(S(1) / prm.inertia_spin, S(1) / prm.mass, S(1) / prm.mass, S(1) / prm.inertia_axle).asDiagonal();
  }
  Vec<S, 4> ad_star(const Vec<S, 4>& xi, const Vec<S, 4>& mu) const {
    Vec<S, 4> a;
    a.template head<3>() = se2_ad_star(Vec3<S>(xi.template head<3>()), Vec3<S>(mu.template head<3>()));
    a[3] = S(0);  // S¹ is abelian
    return a;
  }
  Mat<S, 4, 2> constraint_vectors() const {
    const S m = prm.mass, R = prm.radius, I = prm.inertia_axle;
    Mat<S, 4, 2> E = Mat<S, 4, 2>::Zero();
    E(2, 0) = S(1) / std::sqrt(m);
    const S n2 = S(1) / std::sqrt(m * I * (I + m * R * R));
    E(1, 1) = I * n2;
    E(3, 1) = -m * R * n2;
    return E;
  }
  Vec<S, G> group_velocity(const Vec<S, G>& g, const Vec<S, 4>& xi) const {
    Vec<S, G> d;
    se2_group_velocity(g, Vec3<S>(xi.template head<3>()), d);
    d[6] = xi[3];
    return d;
  }
  Vec<S, G> group_velocity(const Vec<S, G>& g, const Vec<S, 4>& xi, const Mat<S, 2, 2>& W) const {
    Vec<S, G> d;
    se2_group_velocity(g, Vec3<S>(xi.template head<3>()), W, d);
    d[6] = xi[3];
    return d;
  }
  Vec<S, 1> first_integrals(const Vec<S, 4>& mu) const { return Vec<S, 1>(mu[0]); }  // Πθ
  Mat<S, 1, 4> first_integrals_jacobian(const Vec<S, 4>&) const { return Mat<S, 1, 4>(S(1), S(0), S(0), S(0)); }

  // ∇_Π V with the energy row h̃, written out (lie_group_model.hpp): with the header's e1 = e_y/√m,
  // e2 = (0, I, 0, −mR)/√(mI(I + mR²)) (the adapter's E, these three entries nonzero) and
  //   ξ̃ = ∂h̃/∂Π = (Πθ/J, R u, 0, u),  u = (RΠx + Πψ)/(I + mR²),
  //   h̃ = ½ (Πθ ξ̃θ + Πx ξ̃x + Πψ ξ̃ψ),
  //   ∇_Π V = w1 e1 + w2 e2 + w_h ξ̃ + w_θ e_θ,  w = K∘(F − F0) of the rows (J1, J2, h̃, Πθ),
  // from the adapter's c = (J1, J2) and ξ̃. The adapter's dense E w, w_h ξ̃ and Jacobianᵀ w_θ
  // also multiply E's five zeros, ξ̃y (0 but for rounding) and the Πθ row's three zeros.
  template <class Inv>
  void add_momentum_feedback_gradient(const Vec<S, 4>& mu, const Vec<S, 4>& xi, const Vec<S, 2>& c,
                                      const Mat<S, 4, 2>& E, const Inv& F0, const Inv& K, S sign,
                                      Vec<S, 4>& out) const {
    const S w1 = sign * K[0] * (c[0] - F0[0]), w2 = sign * K[1] * (c[1] - F0[1]);
    const S wh = sign * K[2] * (S(0.5) * (mu[0] * xi[0] + mu[1] * xi[1] + mu[3] * xi[3]) - F0[2]);
    const S wt = sign * K[3] * (mu[0] - F0[3]);
    out[0] += wh * xi[0] + wt;
    out[1] += w2 * E(1, 1) + wh * xi[1];
    out[2] += w1 * E(2, 0);
    out[3] += w2 * E(3, 1) + wh * xi[3];
  }
};

template <class S, EnergyRow Row = EnergyRow::extended>
struct RollingDisk : LieGroupExtension<RollingDiskModel<S>, Row> {
  using Base = LieGroupExtension<RollingDiskModel<S>, Row>;
  using Params = RollingDiskParams<S>;
  using typename Base::State;

  RollingDisk() = default;
  explicit RollingDisk(const RollingDiskModel<S>& m) : Base(m) {}

  static Result<RollingDisk> make(const Params& prm = Params{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    RollingDiskModel<S> m;
    m.prm = prm;
    return RollingDisk(m);
  }

  // The state at heading θ, contact point (x, y), rolling angle ψ and momentum Π.
  static State state(S theta, S x, S y, S psi, const Vec<S, 4>& Pi) {
    State s;
    se2_element(theta, x, y, s);
    s[6] = psi;
    s.template tail<4>() = Pi;
    return s;
  }

  // Πx and Πy that put (Πθ, ·, ·, Πψ) on the constraint set: Πy = 0, Πx = mRΠψ/I.
  static Vec<S, 4> on_constraint(const Params& p, S Pi_theta, S Pi_psi) {
    return Vec<S, 4>(Pi_theta, p.mass * p.radius * Pi_psi / p.inertia_axle, S(0), Pi_psi);
  }

  // The closed-form solution at time t from an on-constraint x0 (R of x0 on SO(2)).
  State exact_state(const State& x0, S t) const {
    const Params& P = this->model().prm;
    const S th0 = std::atan2(x0[1], x0[0]), w = x0[7] / P.inertia_spin, v = x0[8] / P.mass;
    const S th = th0 + w * t;
    S dx, dy;
    if (std::abs(w * t) > S(1e-6)) {
      dx = v * (std::sin(th) - std::sin(th0)) / w;
      dy = -v * (std::cos(th) - std::cos(th0)) / w;
    } else {  // straight line (to O((ωt)²))
      dx = v * t * (std::cos(th0) - S(0.5) * w * t * std::sin(th0));
      dy = v * t * (std::sin(th0) + S(0.5) * w * t * std::cos(th0));
    }
    return state(th, x0[4] + dx, x0[5] + dy, x0[6] + x0[10] / P.inertia_axle * t, x0.template tail<4>());
  }
};

}  // namespace attractor
