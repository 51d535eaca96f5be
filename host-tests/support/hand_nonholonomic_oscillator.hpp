// SPDX-License-Identifier: Apache-2.0
// A test reference: the nonholonomic oscillator derived by hand from the paper, against which the
// library's system (generated from models/nonholonomic_oscillator.toml, systems/
// nonholonomic_oscillator.hpp) is checked. It also keeps the non-unit constraint (unit_constraint =
// false), which exercises the adapter's general Remark 2.4 path.
// The nonholonomic oscillator (paper 000 §3.7; Modin–Verdier 2014): a unit particle in R³ in the
// potential |q|²/2 with the constraint ẋ + y ż = 0, as the cotangent-bundle extension of
// nonholonomic/cotangent_extension.hpp:
//
//   H = |p|²/2 + |q|²/2,  e = (1, 0, y)/√(1 + y²)  (unit: m = I),
//   H̃ = (y px − pz)²/(2(1 + y²)) + py²/2 + |q|²/2,
//   λ̃ = ((x + yz)(1 + y²) + (y px − pz) py)/(1 + y²)^{3/2}   (all as printed in §3.7).
//
// State layout x = (x, y, z, px, py, pz), N = 6. Invariants (M = 3):
//   row 0  J = (px + y pz)/√(1 + y²)     constraint, target 0 (unit_constraint = false: px + y pz,
//                                         the paper's plotted J_c; the field is the same, the
//                                         general Remark 2.4 path then carries the scaling)
//   row 1  H̃ (default) or H             energy (§3.7 uses H̃ in V)
//   row 2  H_y = py²/2 + y²/2            energy of the y motion
// The paper's gains (k1 on H̃, k2 on H_y, k3 on J) map to K = (k3, k1, k2).
//
// Paper correction: §3.7 lists H_y among the "constants of motion" of the extended system; it is
// one only on the constraint set: off it, ṗy = −y − (y px − pz)(px + y pz)/(1 + y²)², so
// dH_y/dt = −py (y px − pz)(px + y pz)/(1 + y²)², proportional to J. The feedback still pulls
// to the joint level set (asserted in host-tests/unit/nonholonomic).
#pragma once

#include <cmath>

#include "attractor/core/inline.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/cotangent_extension.hpp"

namespace attractor::hand {

template <class S>
struct NonholonomicOscillatorModel {
  using Scalar = S;
  static constexpr int Q = 3, K = 1, extra_integrals = 1;
  static constexpr bool constant_mass = true;  // midpoint_lagrangian.hpp: explicit discrete steps
  bool unit_constraint = true;

  Mat3<S> mass(const Vec3<S>&) const { return Mat3<S>::Identity(); }
  Mat3<S> inverse_mass(const Vec3<S>&) const { return Mat3<S>::Identity(); }
  Vec3<S> kinetic_gradient(const Vec3<S>&, const Vec3<S>&) const { return Vec3<S>::Zero(); }
  S potential(const Vec3<S>& q) const { return S(0.5) * q.squaredNorm(); }
  Vec3<S> potential_gradient(const Vec3<S>& q) const { return q; }
  Mat<S, 3, 1> constraint_fields(const Vec3<S>& q) const {
    const Vec3<S> a(S(1), S(0), q[1]);
    return unit_constraint ? Vec3<S>(a / std::sqrt(S(1) + q[1] * q[1])) : a;
  }
  Mat3<S> constraint_derivative(const Vec3<S>& q, int) const {
    Mat3<S> De = Mat3<S>::Zero();
    if (unit_constraint) {  // d/dy of (1, 0, y)(1 + y²)^{-1/2}
      const S s2 = S(1) + q[1] * q[1], s3 = s2 * std::sqrt(s2);
      De(0, 1) = -q[1] / s3;
      De(2, 1) = S(1) / s3;
    } else {
      De(2, 1) = S(1);
    }
    return De;
  }
  Vec<S, 1> first_integrals(const Vec3<S>& q, const Vec3<S>& p) const {
    return Vec<S, 1>(S(0.5) * (p[1] * p[1] + q[1] * q[1]));
  }
  Mat<S, 1, 6> first_integrals_jacobian(const Vec3<S>& q, const Vec3<S>& p) const {
    Mat<S, 1, 6> J = Mat<S, 1, 6>::Zero();
    J(0, 1) = q[1];
    J(0, 4) = p[1];
    return J;
  }

  // Fused grad V = DFᵀ K (F − F0) with the energy row H̃, written out (paper 000 §3.7: its V with
  // k1 on H̃, k2 on H_y, k3 on J, and ∇H̃ as printed there); the adapter uses it for its
  // feedback_gradient and feedback_field (model_feedback_gradient.hpp). With s = 1 + y²,
  // d = y px − pz:
  //   H̃ = d²/(2s) + py²/2 + |q|²/2,  ∇H̃ = (x, y + d (px + y pz)/s², z,  y d/s, py, −d/s),
  //   ∇H_y = (0, y, 0, 0, py, 0),  ∇J = (0, −d/s^{3/2}, 0, 1, 0, y)/√s (unit) or (0, pz, 0, 1, 0, y).
  // The adapter's generic terms carry the 3×3 De and m with their zeros; here only the nonzeros.
  ATTRACTOR_ALWAYS_INLINE Vec<S, 6> feedback_gradient(const Vec<S, 6>& x, const Vec3<S>& F0, const Vec3<S>& K) const {
    const S X = x[0], y = x[1], z = x[2], px = x[3], py = x[4], pz = x[5];
    const S s = S(1) + y * y, is = S(1) / s, d = y * px - pz, a = px + y * pz;
    S J, Jy, Jpx, Jpz;
    if (unit_constraint) {
      const S r = S(1) / std::sqrt(s);
      J = a * r, Jy = -d * is * r, Jpx = r, Jpz = y * r;
    } else {
      J = a, Jy = pz, Jpx = S(1), Jpz = y;
    }
    const S Ht = S(0.5) * (d * d * is + py * py + X * X + y * y + z * z);
    const S wc = K[0] * (J - F0[0]), wh = K[1] * (Ht - F0[1]);
    const S wy = K[2] * (S(0.5) * (py * py + y * y) - F0[2]);
    const S dis = d * is;
    Vec<S, 6> g;
    g << wh * X, wc * Jy + wh * (y + dis * a * is) + wy * y, wh * z, wc * Jpx + wh * y * dis, (wh + wy) * py,
        wc * Jpz - wh * dis;
    return g;
  }
};

template <class S, EnergyRow Row = EnergyRow::extended>
struct NonholonomicOscillator : CotangentExtension<NonholonomicOscillatorModel<S>, Row> {
  using Base = CotangentExtension<NonholonomicOscillatorModel<S>, Row>;
  using Base::Base;

  // No physical parameters (unit mass, stiffness); unit_constraint picks J's scaling.
  static Result<NonholonomicOscillator> make(bool unit_constraint = true) {
    NonholonomicOscillatorModel<S> m;
    m.unit_constraint = unit_constraint;
    return NonholonomicOscillator(m);
  }
};

}  // namespace attractor::hand
