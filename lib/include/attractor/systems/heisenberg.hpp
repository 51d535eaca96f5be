// SPDX-License-Identifier: Apache-2.0
// The Heisenberg system (nonholonomic integrator) of paper 000 §3.6: a unit free particle in R³
// with the constraint ż − y ẋ + x ẏ = 0, i.e. ⟨p, e⟩ = 0 with the non-normalised
// e = (−y, x, 1). Its multiplier (Remark 2.4, eq. (9)) vanishes identically ({H, ⟨p,e⟩} =
// −pᵀ De p = 0, De skew), so the field needs no extension (eqs. (66), (67)):
//
//   q̇ = p,  ṗ = 0,
//
// and H = |p|²/2, J1 = ⟨p, e⟩ = pz − y px + x py and J2 = x py − y px are first integrals of (67)
// on all of R⁶ (this is the closed form; the cotangent adapter's extension agrees with it on the
// constraint set, asserted in host-tests/unit/nonholonomic).
//
// State layout x = (x, y, z, px, py, pz), N = 6 (the paper's "q = (x, z, y)" is a misprint for
// (x, y, z): its e, J1, J2 and gradients all use (x, y, z)). Invariants (M = 3):
//   row 0  J1 = pz − y px + x py     constraint, target 0
//   row 1  J2 = x py − y px          momentum (angular momentum about z)
//   row 2  H = |p|²/2                energy (H̃ is not needed: H is already a first integral)
// The paper's gains (k1 on J1, k2 on J2, k3 on H) map to K = (k1, k2, k3). The exact solution is
// q(t) = q0 + p0 t, p = p0.
#pragma once

#include "attractor/core/facts.hpp"
#include "attractor/core/inline.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

// The Heisenberg system's facts (core/facts.hpp): no parameters; the documented case starts on
// J1 = 0 (pz = y px - x py) with the paper's gains k = (10, 10, 50).
struct HeisenbergFacts {
  static constexpr const char* states[] = {"x", "y", "z", "px", "py", "pz"};
  static constexpr facts::Invariant invariants[] = {
      {"J1", facts::InvariantKind::constraint, "pz - y px + x py, target 0"},
      {"J2", facts::InvariantKind::momentum, "x py - y px, angular momentum about z"},
      {"H", facts::InvariantKind::energy, "|p|^2/2"}};
  static constexpr double x0[] = {0.5, -0.3, 0.2, 0.4, 0.7, -(0.5 * 0.7 + 0.3 * 0.4)};
  static constexpr double gains[] = {10, 10, 50};
  static constexpr facts::Case documented = {"documented", "paper 000 §3.6", x0, 1e-3, 5, "feedback-euler", 10, gains};
};

template <class S>
struct Heisenberg {
  using Scalar = S;
  static constexpr int N = 6, M = 3;
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;

  static Result<Heisenberg> make() { return Heisenberg{}; }  // no parameters (unit mass)

  ATTRACTOR_ALWAYS_INLINE State field(const State& x) const {  // eq. (67)
    State dx;
    dx << x[3], x[4], x[5], S(0), S(0), S(0);
    return dx;
  }

  Invariants invariants(const State& x) const {
    const S J2 = x[0] * x[4] - x[1] * x[3];
    return Invariants(x[5] + J2, J2, S(0.5) * x.template tail<3>().squaredNorm());
  }

  // Rows (the paper's ∇_qV, ∇_pV of §3.6 split per invariant):
  //   ∇J1 = ((py, −px, 0), (−y, x, 1)), ∇J2 = ((py, −px, 0), (−y, x, 0)), ∇H = (0, p).
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    Mat<S, M, N> J;
    J << x[4], -x[3], S(0), -x[1], x[0], S(1),  //
        x[4], -x[3], S(0), -x[1], x[0], S(0),   //
        S(0), S(0), S(0), x[3], x[4], x[5];
    return J;
  }

  // Fused grad V = DFᵀ K (F − F0) (integrate/system.hpp): with w = K∘(F − F0), ∇J1 and ∇J2
  // share (py, −px, 0, −y, x, ·), so g = (w0 + w1)(py, −px, 0, −y, x, 0) + w0 e_pz + w2 (0, p).
  ATTRACTOR_ALWAYS_INLINE State feedback_gradient(const State& x, const Invariants& F0, const Invariants& K) const {
    const Invariants F = invariants(x);
    const S w0 = K[0] * (F[0] - F0[0]), w1 = K[1] * (F[1] - F0[1]), w2 = K[2] * (F[2] - F0[2]);
    const S w01 = w0 + w1;
    State g;
    g << w01 * x[4], -w01 * x[3], S(0), -w01 * x[1] + w2 * x[3], w01 * x[0] + w2 * x[4], w0 + w2 * x[5];
    return g;
  }
  // Fused X − grad V, inlined into the RK stages (core/inline.hpp).
  ATTRACTOR_ALWAYS_INLINE State feedback_field(const State& x, const Invariants& F0, const Invariants& K) const {
    return field(x) - feedback_gradient(x, F0, K);
  }

  Invariants invariant_targets(const Invariants& F_at_x0) const { return Invariants(S(0), F_at_x0[1], F_at_x0[2]); }

  static State exact_state(const State& x0, S t) {
    State x = x0;
    x.template head<3>() += t * x0.template tail<3>();
    return x;
  }
};

}  // namespace attractor
