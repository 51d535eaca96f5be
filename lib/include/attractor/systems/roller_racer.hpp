// SPDX-License-Identifier: Apache-2.0
// The roller racer: two planar bodies joined at a rotary joint, each on a pair of wheels that
// cannot slide sideways; heading θ and wheel-axle centre (x, y) of the first body, joint angle ϕ
// (paper 000 §3.5; Bloch, Nonholonomic Mechanics, pp. 42–43, 386–387). The symmetry SE(2) acts on
// (θ, x, y), ϕ is the shape: the principal-bundle extension of
// nonholonomic/principal_bundle_extension.hpp (§2.3) with z = (Πθ, Πx, Πy, pϕ):
//
//   L = m(ẋ² + ẏ²)/2 + I1 θ̇²/2 + I2 (θ̇ + ϕ̇)²/2,
//   h = (Πx² + Πy²)/(2m) + (Πθ − pϕ)²/(2I1) + pϕ²/(2I2),
//   m(ϕ) = [[I1 + I2, 0, 0, I2], [0, m, 0, 0], [0, 0, m, 0], [I2, 0, 0, I2]]  (constant)
//   constraints: no side slip of body 1, Πy = 0; of body 2 (joint a distance d1 from body 1's
//   axle centre, body 2's axle d2 from the joint), d1 cos ϕ θ̇ − sin ϕ v + d2 (θ̇ + ϕ̇) = 0
//   (v = Πx/m), i.e. ⟨z, e1⟩ = 0 with
//   e1 = (d1 cos ϕ/I1, −sin ϕ/m, 0, −d1 cos ϕ/I1 + d2/I2)/n(ϕ),
//   n(ϕ)² = sin²ϕ/m + d1² cos²ϕ/I1 + d2²/I2,   e2 = (0, 0, 1, 0)/√m   (m-orthonormal)
//   h̃ = h − (J1² + J2²)/2, field eq. (62) (with ad* of se(2)*, eq. (48)).
//
// State layout x = (R column-major (4), x, y, ϕ, Πθ, Πx, Πy, pϕ), N = 11. Invariants (M = 6):
//   row 0  J1 = ⟨z, e1(ϕ)⟩      constraint (rear axle), target 0
//   row 1  J2 = Πy/√m           constraint (front axle), target 0
//   row 2  h̃ (default) or h     energy (§3.5's V uses h̃; with m-orthonormal e_i h is a first
//                               integral too, Corollary 2.10)
//   rows 3..5  RᵀR − I          one gain group, target 0
// The paper's gains (k1, k2, k3) of its V map to K = (k1, k2, k3, k_R × 3); as in (63b) the
// feedback reaches the shape ϕ too (h̃ and J1 depend on it).
//
// Paper corrections (paper 000 §3.5): the constraint set 𝒞 is printed with d2/I2 pϕ as the pϕ
// coefficient of the first constraint; the rolling condition above (and the paper's own e1,
// J1 and (64)) give −d1 cos ϕ/I1 + d2/I2: p_θ = I1 θ̇ + I2(θ̇ + ϕ̇), so θ̇ = (pθ − pϕ)/I1. In
// Theorem 3.9's proof, k2/2 |h̃0|² is k3/2 |h̃0|² (k3 weighs h̃). The field (62), which the paper
// leaves uncomputed, is checked against the Lagrange–d'Alembert equations in
// host-tests/unit/nonholonomic. The system has no closed-form solution.
#pragma once

#include <cmath>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/principal_bundle_extension.hpp"
#include "attractor/nonholonomic/se2.hpp"

namespace attractor {

// The roller racer's facts (core/facts.hpp). §3.5 gives no experiment; the documented case: m =
// I1 = d1 = 1, I2 = d2 = 1/2, heading 0, phi0 = 0.5, Pi_theta = 1, p_phi = 0.2 with Pi_x, Pi_y on
// both constraints, feedback Euler, h = 1e-3, gains 50, t in [0, 20]. d2 = 0 puts the rear axle on
// the joint: then e1 vanishes at phi = ±pi/2 when d1 cos phi = 0.
struct RollerRacerFacts {
  static constexpr facts::Param params[] = {{"m", "kg", 1, facts::positive(), "mass"},
                                            {"I1", "kg m^2", 1, facts::positive(), "front body, about its axle centre"},
                                            {"I2", "kg m^2", 0.5, facts::positive(), "rear body, about the joint"},
                                            {"d1", "m", 1, facts::any_finite(), "front axle centre to the joint"},
                                            {"d2", "m", 0.5, facts::nonzero(), "joint to the rear axle, nonzero"}};
  static constexpr const char* states[] = {"R11", "R21",      "R12",  "R22",  "x",    "y",
                                           "phi", "Pi_theta", "Pi_x", "Pi_y", "p_phi"};
  static constexpr facts::Invariant invariants[] = {
      {"J1", facts::InvariantKind::constraint, "the rear axle rolls"},
      {"J2", facts::InvariantKind::constraint, "Pi_y/sqrt(m): the front axle rolls"},
      {"h", facts::InvariantKind::energy, "the extended energy h~"},
      {"O11", facts::InvariantKind::group, "(R^T R - I)_11"},
      {"O12", facts::InvariantKind::group, "(R^T R - I)_12"},
      {"O22", facts::InvariantKind::group, "(R^T R - I)_22"}};
  static constexpr double x0[] = {1, 0, -0.0, 1, 0, 0, 0.5, 1, 1.8815561059566592, 0, 0.2};
  static constexpr facts::Case documented = {
      "documented", "paper 000 §3.5 (no experiment)", x0, 1e-3, 20, "feedback-euler", 50};
};

template <class S>
struct RollerRacerParams {
  S mass = S(facts::default_of<RollerRacerFacts>(0));      // m, total
  S inertia1 = S(facts::default_of<RollerRacerFacts>(1));  // I1, first body about its axle centre
  S inertia2 = S(facts::default_of<RollerRacerFacts>(2));  // I2, second body about the joint
  S d1 = S(facts::default_of<RollerRacerFacts>(3));        // joint to the first body's axle centre
  S d2 = S(facts::default_of<RollerRacerFacts>(4));        // joint to the second body's axle centre, ≠ 0

  Error validate() const {
    const S v[] = {mass, inertia1, inertia2, d1, d2};
    return facts::error_of(facts::check<RollerRacerFacts>(v));
  }
};

// The model of principal_bundle_model.hpp; g = (R, x, y), shape ϕ, z = (Πθ, Πx, Πy, pϕ).
template <class S>
struct RollerRacerModel {
  using Scalar = S;
  static constexpr int D = 3, P = 1, K = 2, G = 6, rotation_size = 2;
  RollerRacerParams<S> prm{};

  Mat<S, 4, 4> mass(const Vec<S, 1>&) const {
    const S I2 = prm.inertia2;
    Mat<S, 4, 4> m;
    m << prm.inertia1 + I2, S(0), S(0), I2, S(0), prm.mass, S(0), S(0), S(0), S(0), prm.mass, S(0), I2, S(0), S(0), I2;
    return m;
  }
  Mat<S, 4, 4> inverse_mass(const Vec<S, 1>&) const {
    const S a = S(1) / prm.inertia1, b = S(1) / prm.mass;
    Mat<S, 4, 4> r;
    r << a, S(0), S(0), -a, S(0), b, S(0), S(0), S(0), S(0), b, S(0), -a, S(0), S(0), a + S(1) / prm.inertia2;
    return r;
  }
  Vec<S, 1> kinetic_gradient(const Vec<S, 1>&, const Vec<S, 4>&) const { return Vec<S, 1>::Zero(); }  // m constant
  S potential(const Vec<S, 1>&) const { return S(0); }
  Vec<S, 1> potential_gradient(const Vec<S, 1>&) const { return Vec<S, 1>::Zero(); }

  // e1 = a(ϕ)/n(ϕ) and e2 (header comment).
  Mat<S, 4, 2> constraint_fields(const Vec<S, 1>& x) const {
    const S c = std::cos(x[0]), s = std::sin(x[0]);
    Mat<S, 4, 2> E = Mat<S, 4, 2>::Zero();
    E.col(0) = rear_axle(c, s) / norm(c, s);
    E(2, 1) = S(1) / std::sqrt(prm.mass);
    return E;
  }
  // de1/dϕ = a'/n − a n'/n², n' = sin ϕ cos ϕ (1/m − d1²/I1)/n; e2 is constant.
  Mat<S, 4, 1> constraint_derivative(const Vec<S, 1>& x, int i) const {
    if (i != 0) return Mat<S, 4, 1>::Zero();
    const S c = std::cos(x[0]), s = std::sin(x[0]), n = norm(c, s);
    const S k = prm.d1 / prm.inertia1;
    const Vec<S, 4> da(-k * s, -c / prm.mass, S(0), k * s);
    const S dn = s * c * (S(1) / prm.mass - prm.d1 * k) / n;
    return da / n - rear_axle(c, s) * (dn / (n * n));
  }
  Vec3<S> ad_star(const Vec3<S>& xi, const Vec3<S>& mu) const { return se2_ad_star(xi, mu); }
  Vec<S, G> group_velocity(const Vec<S, G>& g, const Vec3<S>& xi) const {
    Vec<S, G> d;
    se2_group_velocity(g, xi, d);
    return d;
  }
  Vec<S, G> group_velocity(const Vec<S, G>& g, const Vec3<S>& xi, const Mat<S, 2, 2>& W) const {
    Vec<S, G> d;
    se2_group_velocity(g, xi, W, d);
    return d;
  }

 private:
  Vec<S, 4> rear_axle(S c, S s) const {  // a(ϕ): the rear no-slip condition as ⟨z, a⟩ = 0
    const S k = prm.d1 * c / prm.inertia1;
    return Vec<S, 4>(k, -s / prm.mass, S(0), -k + prm.d2 / prm.inertia2);
  }
  S norm(S c, S s) const {
    return std::sqrt(s * s / prm.mass + prm.d1 * prm.d1 * c * c / prm.inertia1 + prm.d2 * prm.d2 / prm.inertia2);
  }
};

template <class S, EnergyRow Row = EnergyRow::extended>
struct RollerRacer : PrincipalBundleExtension<RollerRacerModel<S>, Row> {
  using Base = PrincipalBundleExtension<RollerRacerModel<S>, Row>;
  using Params = RollerRacerParams<S>;
  using typename Base::State;

  RollerRacer() = default;
  explicit RollerRacer(const RollerRacerModel<S>& m) : Base(m) {}

  static Result<RollerRacer> make(const Params& prm = Params{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    RollerRacerModel<S> m;
    m.prm = prm;
    return RollerRacer(m);
  }

  // The state at heading θ, position (x, y), joint angle ϕ and momentum z = (Πθ, Πx, Πy, pϕ).
  static State state(S theta, S x, S y, S phi, const Vec<S, 4>& z) {
    State s;
    se2_element(theta, x, y, s);
    s[6] = phi;
    s.template tail<4>() = z;
    return s;
  }

  // The on-constraint momentum with the given Πθ and pϕ at joint angle ϕ: Πy = 0 and Πx from
  // the rear axle's condition; needs sin ϕ ≠ 0 (at ϕ = 0 the condition fixes Πθ instead).
  static Vec<S, 4> on_constraint(const Params& p, S phi, S Pi_theta, S p_phi) {
    const S k = p.d1 * std::cos(phi) / p.inertia1;
    const S Pi_x = p.mass * (k * Pi_theta + (-k + p.d2 / p.inertia2) * p_phi) / std::sin(phi);
    return Vec<S, 4>(Pi_theta, Pi_x, S(0), p_phi);
  }
};

}  // namespace attractor
