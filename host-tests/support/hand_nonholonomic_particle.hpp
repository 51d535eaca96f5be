// SPDX-License-Identifier: Apache-2.0
// A test reference: the nonholonomic particle written by hand on the generic cotangent adapter,
// against which the library's system (generated from models/nonholonomic_particle.toml,
// systems/nonholonomic_particle.hpp) is checked.
// The nonholonomic particle (paper 001 Example 1, unit mass there; Bloch, Nonholonomic Mechanics,
// §1.4): a free particle of mass m in R³ with the constraint ż − y ẋ = 0, as the cotangent-bundle
// extension of nonholonomic/cotangent_extension.hpp:
//
//   H = |p|²/(2m),  e = (−y, 0, 1) (μ = m eᵀ; not normalised, Remark 2.4),
//   Lagrange–d'Alembert: ẍ + y z̈ = 0, ÿ = 0, ż = y ẋ  (as printed in Example 1).
//
// On the constraint set the motion has a closed form (the library's exact_state()): y = y0 + vy t, and
// u = ẋ √(1 + y²) is constant (the equations give ẍ(1 + y²) = −y ẏ ẋ, i.e. u̇ = 0), so
// ẋ = u/√(1 + y²), x = x0 + (u/vy)(asinh y − asinh y0), z = z0 + (u/vy)(√(1 + y²) − √(1 + y0²))
// (vy = 0: straight line at ẋ = u/√(1 + y0²)).
//
// State layout x = (x, y, z, px, py, pz), N = 6. Invariants (M = 3):
//   row 0  pz − y px              constraint, target 0
//   row 1  H̃ (default) or H       energy (H is conserved by the flow; Theorem 1: the
//                                  nonholonomic Störmer–Verlet method keeps it exactly)
//   row 2  py                      momentum (ξ2 = (0, 1, 0), a horizontal symmetry: Corollary 4)
// py is a first integral of the extension only on the constraint set (off it ṗy ∝ pz − y px).
#pragma once

#include <cmath>

#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/cotangent_extension.hpp"

namespace attractor::hand {

template <class S>
struct NonholonomicParticleModel {
  using Scalar = S;
  static constexpr int Q = 3, K = 1, extra_integrals = 1;
  static constexpr bool constant_mass = true;  // midpoint_lagrangian.hpp: explicit discrete steps
  S m = S(1);

  Mat3<S> mass(const Vec3<S>&) const { return m * Mat3<S>::Identity(); }
  Mat3<S> inverse_mass(const Vec3<S>&) const { return Mat3<S>::Identity() / m; }
  Vec3<S> kinetic_gradient(const Vec3<S>&, const Vec3<S>&) const { return Vec3<S>::Zero(); }
  S potential(const Vec3<S>&) const { return S(0); }
  Vec3<S> potential_gradient(const Vec3<S>&) const { return Vec3<S>::Zero(); }
  Mat<S, 3, 1> constraint_fields(const Vec3<S>& q) const { return Vec3<S>(-q[1], S(0), S(1)); }
  Mat3<S> constraint_derivative(const Vec3<S>&, int) const {
    Mat3<S> De = Mat3<S>::Zero();
    De(0, 1) = S(-1);
    return De;
  }
  Vec<S, 1> first_integrals(const Vec3<S>&, const Vec3<S>& p) const { return Vec<S, 1>(p[1]); }
  Mat<S, 1, 6> first_integrals_jacobian(const Vec3<S>&, const Vec3<S>&) const {
    Mat<S, 1, 6> J = Mat<S, 1, 6>::Zero();
    J(0, 4) = S(1);
    return J;
  }
};

template <class S, EnergyRow Row = EnergyRow::extended>
struct NonholonomicParticle : CotangentExtension<NonholonomicParticleModel<S>, Row> {
  using Base = CotangentExtension<NonholonomicParticleModel<S>, Row>;
  using Base::Base;
  using typename Base::State;

  static Result<NonholonomicParticle> make(S mass = S(1)) {
    if (!(mass > S(0))) return Error::invalid_parameter;
    NonholonomicParticleModel<S> model;
    model.m = mass;
    return NonholonomicParticle(model);
  }
};

}  // namespace attractor::hand
