// SPDX-License-Identifier: Apache-2.0
// The free rigid body on SO(3), a system of your own for the feedback integrator
// (integrate/system.hpp contract): attitude R (column by column, 9 states) and body angular
// momentum Π (3 states), principal moments of inertia I1, I2, I3:
//
//     R' = R Ω^,   Π' = Π × Ω,   Ω = I⁻¹ Π   (Ω^ v = Ω × v).
//
// Invariants: the energy H = ½ Π·Ω, the Casimir |Π|², and the six entries of RᵀR above and on
// the diagonal, one gain group with the identity's entries as targets. The energy and |Π|² are
// first integrals everywhere; d(RᵀR)/dt = RᵀR Ω^ − Ω^ RᵀR vanishes only on RᵀR = I, so those
// rows hold on the set only (docs/rigid-body.md says what that means for gains).
#pragma once

#include <cmath>

#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

template <class S>
struct RigidBody {
  using Scalar = S;
  static constexpr int N = 12, M = 8;
  using State = attractor::Vec<S, N>;
  using Invariants = attractor::Vec<S, M>;
  attractor::Vec3<S> inertia = attractor::Vec3<S>(1, 2, 3);  // principal moments [kg m^2]

  // Refuses a moment that is not positive and finite.
  static attractor::Result<RigidBody> make(S I1, S I2, S I3) {
    const attractor::Vec3<S> I(I1, I2, I3);
    if (!I.allFinite() || !(I.minCoeff() > S(0))) return attractor::Error::invalid_parameter;
    return RigidBody{I};
  }
  // The rows of RᵀR, as (column a, column b) of R: the diagonal, then above it.
  static constexpr int pair_a[6] = {0, 1, 2, 0, 0, 1}, pair_b[6] = {0, 1, 2, 1, 2, 2};
  static constexpr int gain_group(int row) { return row < 2 ? row : 2; }

  static Eigen::Map<const attractor::Mat3<S>> attitude(const State& x) {
    return Eigen::Map<const attractor::Mat3<S>>(x.data());
  }
  attractor::Vec3<S> rate(const State& x) const { return x.template tail<3>().cwiseQuotient(inertia); }

  State field(const State& x) const {
    const attractor::Vec3<S> Pi = x.template tail<3>(), W = rate(x);
    attractor::Mat3<S> hat;
    hat << S(0), -W[2], W[1], W[2], S(0), -W[0], -W[1], W[0], S(0);
    State dx;
    Eigen::Map<attractor::Mat3<S>>(dx.data()) = attitude(x) * hat;
    dx.template tail<3>() = Pi.cross(W);
    return dx;
  }
  Invariants invariants(const State& x) const {
    const attractor::Vec3<S> Pi = x.template tail<3>();
    const attractor::Mat3<S> P = attitude(x).transpose() * attitude(x);
    Invariants F;
    F[0] = S(0.5) * Pi.dot(rate(x));
    F[1] = Pi.squaredNorm();
    for (int r = 0; r < 6; ++r) F[2 + r] = P(pair_a[r], pair_b[r]);
    return F;
  }
  // Hand-derived: ∂H/∂Π = Ω, ∂|Π|²/∂Π = 2Π; ∂(r_a·r_b)/∂r_a = r_b, ∂/∂r_b = r_a (r_c column c of R).
  attractor::Mat<S, M, N> invariants_jacobian(const State& x) const {
    attractor::Mat<S, M, N> J = attractor::Mat<S, M, N>::Zero();
    J.template block<1, 3>(0, 9) = rate(x).transpose();
    J.template block<1, 3>(1, 9) = S(2) * x.template tail<3>().transpose();
    for (int r = 0; r < 6; ++r) {
      const int a = pair_a[r], b = pair_b[r];
      J.template block<1, 3>(2 + r, 3 * a) += x.template segment<3>(3 * b).transpose();
      J.template block<1, 3>(2 + r, 3 * b) += x.template segment<3>(3 * a).transpose();
    }
    return J;
  }
  // Fused DFᵀ K (F − F0): with e = K∘(F − F0), the Π part is e0 Ω + 2 e1 Π and the R part is
  // R A, A symmetric with A_aa = 2 e_aa and A_ab = e_ab: no 8×12 matrix, no zero entry multiplied.
  State feedback_gradient(const State& x, const Invariants& F0, const Invariants& K) const {
    const Invariants e = K.cwiseProduct(invariants(x) - F0);
    attractor::Mat3<S> A;
    for (int r = 0; r < 6; ++r) {
      const int a = pair_a[r], b = pair_b[r];
      A(a, b) = A(b, a) = a == b ? S(2) * e[2 + r] : e[2 + r];
    }
    State g;
    Eigen::Map<attractor::Mat3<S>>(g.data()) = attitude(x) * A;
    g.template tail<3>() = e[0] * rate(x) + S(2) * e[1] * x.template tail<3>();
    return g;
  }
  // The RᵀR rows are pinned to the identity's entries; H and |Π|² keep their values at x0.
  Invariants invariant_targets(const Invariants& F_at_x0) const {
    Invariants T = F_at_x0;
    for (int r = 0; r < 6; ++r) T[2 + r] = pair_a[r] == pair_b[r] ? S(1) : S(0);
    return T;
  }
  // A state from an attitude and a body momentum.
  static State state(const attractor::Mat3<S>& R, const attractor::Vec3<S>& Pi) {
    State x;
    Eigen::Map<attractor::Mat3<S>>(x.data()) = R;
    x.template tail<3>() = Pi;
    return x;
  }
};
