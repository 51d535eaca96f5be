// SPDX-License-Identifier: Apache-2.0
// The nonholonomic particle (paper 001 Example 1, unit mass there; Bloch, Nonholonomic Mechanics,
// §1.4): a free particle of mass m in R³ with the constraint ż − y ẋ = 0. The system is generated
// from models/nonholonomic_particle.toml (generated/nonholonomic_particle.hpp: the cotangent model
// and the adapter's field and fused feedback field written out); here the names users know, the
// mass as make()'s argument and the closed-form solution, which no description states:
//
//   H = |p|²/(2m),  e = (−y, 0, 1) (μ = m eᵀ; not normalised, Remark 2.4),
//   Lagrange–d'Alembert: ẍ + y z̈ = 0, ÿ = 0, ż = y ẋ  (as printed in Example 1).
//
// On the constraint set the motion has the closed form exact_state(): y = y0 + vy t, and
// u = ẋ √(1 + y²) is constant (the equations give ẍ(1 + y²) = −y ẏ ẋ, i.e. u̇ = 0), so
// ẋ = u/√(1 + y²), x = x0 + (u/vy)(asinh y − asinh y0), z = z0 + (u/vy)(√(1 + y²) − √(1 + y0²))
// (vy = 0: straight line at ẋ = u/√(1 + y0²)).
//
// State layout x = (x, y, z, px, py, pz), N = 6. Invariants (M = 3):
//   row 0  c = pz − y px          constraint, target 0
//   row 1  H̃ (default) or H       energy (H is conserved by the flow; Theorem 1: the
//                                  nonholonomic Störmer–Verlet method keeps it exactly)
//   row 2  py                      momentum (ξ2 = (0, 1, 0), a horizontal symmetry: Corollary 4)
// py is a first integral of the extension only on the constraint set (off it ṗy ∝ pz − y px).
#pragma once

#include <cmath>

#include "attractor/generated/nonholonomic_particle.hpp"

namespace attractor {

using generated::NonholonomicParticleFacts;
template <class S>
using NonholonomicParticleParams = generated::NonholonomicParticleParams<S>;
template <class S>
using NonholonomicParticleModel = generated::NonholonomicParticleModel<S>;

template <class S, EnergyRow Row = EnergyRow::extended>
struct NonholonomicParticle : generated::NonholonomicParticle<S, Row> {
  using Generated = generated::NonholonomicParticle<S, Row>;
  using typename Generated::State;

  NonholonomicParticle() = default;
  explicit NonholonomicParticle(const Generated& g) : Generated(g) {}

  // Error::invalid_parameter unless mass > 0 (Error::non_finite for NaN/Inf).
  static Result<NonholonomicParticle> make(S mass = S(facts::default_of<NonholonomicParticleFacts>(0))) {
    NonholonomicParticleParams<S> prm;
    prm.m = mass;
    const Result<Generated> g = Generated::make(prm);
    if (!g) return g.error();
    return NonholonomicParticle(*g);
  }

  // The exact motion from an on-constraint x0 (see the header).
  State exact_state(const State& x0, S t) const {
    const S m = this->model().prm.m, y0 = x0[1], vy = x0[4] / m, s0 = std::sqrt(S(1) + y0 * y0);
    const S u = x0[3] / m * s0, y = y0 + vy * t, s = std::sqrt(S(1) + y * y);
    State x;
    if (vy == S(0)) {
      x[0] = x0[0] + u / s0 * t;
      x[2] = x0[2] + y0 * u / s0 * t;
    } else {
      x[0] = x0[0] + (u / vy) * (std::asinh(y) - std::asinh(y0));
      x[2] = x0[2] + (u / vy) * (s - s0);
    }
    x[1] = y;
    x[3] = m * u / s;
    x[4] = m * vy;
    x[5] = m * y * u / s;
    return x;
  }
};

}  // namespace attractor
