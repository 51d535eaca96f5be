// SPDX-License-Identifier: Apache-2.0
// The spherical pendulum as a feedback-integrator system (paper 002, Chang–Perlmutter–
// Vankerschaver, "Feedback integrators for mechanical systems with holonomic constraints", §2.3):
// the pendulum of pendulum.hpp in R³ (its field, f1 = |q|², f2 = q·p, H), plus the vertical
// angular momentum J = q1 p2 − q2 p1 that its S¹ symmetry conserves.
//
// State layout x = (q1, q2, q3, p1, p2, p3); invariants F = (f1, f2, H, J) (M = 4). The feedback
// integrator, paper 002 eqs. (7)–(8), is Feedback<SphericalPendulum<S>> with L = I:
// x' = X(x) − DF^T K (F(x) − F0).
//
// Paper misprint: §2.3 states H0 = 2 and J0 = 1 for q0 = (0,1,0), p0 = (1,0,1), m = g = l = 1.
// The values are H0 = |p0|²/2 + q0_3 = 1 and J0 = q1 p2 − q2 p1 = −1 (computed, and asserted in
// host-tests/unit/pendulums/spherical_pendulum_test.cpp).
#pragma once

#include "attractor/systems/pendulum.hpp"

namespace attractor {

// The spherical pendulum's facts: paper 002 §2.3, m = g = l = 1, q0 = (0, 1, 0), p0 = (1, 0, 1),
// h = 1e-3, T = 100, gains 50 (the paper's H0 = 2, J0 = 1 are misprints: H0 = 1, J0 = -1).
struct SphericalPendulumFacts : PendulumParamFacts {
  static constexpr const char* states[] = {"q1", "q2", "q3", "p1", "p2", "p3"};
  static constexpr facts::Invariant invariants[] = {{"f1", facts::InvariantKind::constraint, "|q|^2, target l^2"},
                                                    {"f2", facts::InvariantKind::constraint, "q.p, target 0"},
                                                    {"H", facts::InvariantKind::energy, "|p|^2/(2m) + m g q3"},
                                                    {"J", facts::InvariantKind::momentum, "q1 p2 - q2 p1"}};
  static constexpr double x0[] = {0, 1, 0, 1, 0, 1};
  static constexpr facts::Case documented = {"paper", "paper 002 §2.3", x0, 1e-3, 100, "feedback-rk4", 50};
};

template <class S>
struct SphericalPendulum : Pendulum<S, 3> {
  using Base = Pendulum<S, 3>;
  using Base::D;
  using Base::N;
  static constexpr int M = 4;  // invariants (f1, f2, H, J)
  using typename Base::State;
  using Invariants = Vec<S, M>;

  static Result<SphericalPendulum> make(S mass, S gravity, S length) {
    return Base::template make_as<SphericalPendulum>(mass, gravity, length);
  }

  // J = q1 p2 − q2 p1: vertical component of q × p (paper 002 §2.3).
  static S vertical_momentum(const State& x) { return x[0] * x[4] - x[1] * x[3]; }

  // F = (f1, f2, H, J).
  Invariants invariants(const State& x) const {
    Invariants F;
    F << this->holonomic_invariants(x), vertical_momentum(x);
    return F;
  }

  // DF, rows = gradients (paper 002 §2.3): f1, f2, H as in pendulum.hpp, and
  // grad J = (p × e3, e3 × q) = ((p2, −p1, 0), (−q2, q1, 0)).
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    Mat<S, M, N> J;
    this->holonomic_jacobian(x, J);
    J.row(3).setZero();
    J(3, 0) = x[4];
    J(3, 1) = -x[3];
    J(3, 3) = -x[1];
    J(3, 4) = x[0];
    return J;
  }

  // Fused grad V = DF^T K (F − F0) (integrate/system.hpp; paper 002 eqs. (7)–(8)): the rows
  // above without the 4×6 matrix and its zeros; e3 = K3 (J − J0) multiplies grad J.
  State feedback_gradient(const State& x, const Invariants& F0, const Invariants& K) const {
    State gv = this->holonomic_gradient(x, F0, K);
    add_momentum_gradient(x, K[3] * (vertical_momentum(x) - F0[3]), gv);
    return gv;
  }
  // Fused X(x) − grad V (paper 002 eq. (7)) in one pass of scalars, the pendulum's
  // holonomic_feedback_field (pendulum.hpp) with J's row folded into the same sums:
  //   q' = cp p − cq q − e2 m g e3 − e3' (p2, −p1, 0)
  //   p' = dp p + dq q − m g e3     − e3' (−q2, q1, 0),   e3' = K3 (J − J0)
  // |p|²/m and m g q3 are formed once for b and H. The third components q3', p3' come first: they
  // free q3, p3 before the four components that J couples, so fewer values are live at once in a
  // Runge–Kutta stage (M4F float: docs/runtime.md, "Distance to the floor").
  ATTRACTOR_ALWAYS_INLINE State feedback_field(const State& x, const Invariants& F0, const Invariants& K) const {
    const S q0 = x[0], q1 = x[1], q2 = x[2], p0 = x[3], p1 = x[4], p2 = x[5];
    const S inv_m = S(1) / this->m, mg = this->m * this->g;
    const S f1 = q0 * q0 + q1 * q1 + q2 * q2;
    const S f2 = q0 * p0 + q1 * p1 + q2 * p2;
    const S pp = p0 * p0 + p1 * p1 + p2 * p2;
    const S inv_f1 = S(1) / f1;
    const S pm = pp * inv_m, mgq = mg * q2;  // |p|²/m, m g q3
    const S a = f2 * inv_m * inv_f1;         // f2/(m f1)
    const S b = (mgq - pm) * inv_f1;         // (m g q3 − |p|²/m)/f1
    const S e0 = K[0] * (f1 - F0[0]);
    const S e1 = K[1] * (f2 - F0[1]);
    const S e2 = K[2] * (S(0.5) * pm + mgq - F0[2]);  // H − H0
    const S e3 = K[3] * (q0 * p1 - q1 * p0 - F0[3]);  // J − J0
    const S cp = inv_m - e1, cq = a + S(2) * e0, dp = a - e2 * inv_m, dq = b - e1;
    State dx;
    dx[2] = cp * p2 - cq * q2 - e2 * mg;
    dx[5] = dp * p2 + dq * q2 - mg;
    dx[0] = cp * p0 - cq * q0 - e3 * p1;
    dx[1] = cp * p1 - cq * q1 + e3 * p0;
    dx[3] = dp * p0 + dq * q0 + e3 * q1;
    dx[4] = dp * p1 + dq * q1 - e3 * q0;
    return dx;
  }

 private:
  // v += e grad J, grad J = (p2, −p1, 0, −q2, q1, 0).
  static void add_momentum_gradient(const State& x, S e, State& v) {
    v[0] += e * x[4];
    v[1] -= e * x[3];
    v[3] -= e * x[1];
    v[4] += e * x[0];
  }
};

}  // namespace attractor
