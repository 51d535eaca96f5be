// SPDX-License-Identifier: Apache-2.0
// The pendulum in R^D (paper 002, Chang–Perlmutter–Vankerschaver): a bob of mass m on a rod of
// length l, gravity g along −e_D. What the spherical (D = 3, §2.3) and the planar (D = 2, §2.4)
// pendulum share: parameters, state layout x = (q, p), the Hamiltonian, the Dirac-extended field
// and the invariants f1, f2, H with their gradients. Each of them adds its own first integrals
// (spherical_pendulum.hpp, planar_pendulum.hpp).
//
// Phase space T*S^{D-1} is the (l², 0)-level set of f = (f1, f2) inside T*R^D:
//   f1(q,p) = |q|²   (on the sphere of radius l),   f2(q,p) = q·p   (momentum tangent to it),
// Hamiltonian H(q,p) = |p|²/(2m) + m g q_D.
//
// The Dirac-extended field (paper 002 eq. (1) applied in §2.3), derived here with the
// convention {F,G} = F_q·G_p − F_p·G_q, X_F = (F_p, −F_q) (the plain-text paper lost every minus
// sign; the brackets are {H,f1} = −2 f2/m, {H,f2} = m g q_D − |p|²/m, {f1,f2} = 2 f1,
// X_H = (p/m, −m g e_D), X_f1 = (0, −2q), X_f2 = (q, −p), C^{12} = −1/(2 f1)):
//   q' = p/m − f2/(m f1) q
//   p' = −m g e_D + f2/(m f1) p − (|p|²/m − m g q_D)/f1 q
// It conserves f1, f2, H (and, for D = 3, J) on all of T*R^D minus {q = 0}, not only on
// T*S^{D-1}; the unit tests check DF(x) X(x) = 0 at random points. The feedback integrators of
// paper 002 eqs. (7)–(8) and (10)–(11) are Feedback<...> of this field with L = I.
#pragma once

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/inline.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

// The pendulums' parameters as facts (core/facts.hpp): bob mass, gravity, rod length.
struct PendulumParamFacts {
  static constexpr facts::Param params[] = {{"m", "kg", 1, facts::positive(), "bob mass"},
                                            {"g", "m/s^2", 1, facts::non_negative(), "gravity"},
                                            {"l", "m", 1, facts::positive(), "rod length"}};
};

template <class S, int Dim>
struct Pendulum {
  using Scalar = S;
  static constexpr int D = Dim;    // configuration dimension (q in R^D)
  static constexpr int N = 2 * D;  // ambient state (q, p) in T*R^D
  using State = Vec<S, N>;
  using Config = Vec<S, D>;

  S m{1};  // bob mass
  S g{1};  // gravitational acceleration (along −e_D)
  S l{1};  // rod length: the constraint is f1 = |q|² = l²

  // Non-finite or non-positive parameters are refused (g = 0 is allowed: free geodesic motion).
  static Error validate(S mass, S gravity, S length) {
    const S v[] = {mass, gravity, length};
    return facts::error_of(facts::check<PendulumParamFacts>(v));
  }

  S mass() const { return m; }
  S length() const { return l; }

  static Config position(const State& x) { return x.template head<D>(); }
  static Config momentum(const State& x) { return x.template tail<D>(); }
  static State state(const Config& q, const Config& p) {
    State x;
    x << q, p;
    return x;
  }

  // The feedback reference (integrate/system.hpp invariant_targets): the constraint rows keep
  // their exact values f1 = l², f2 = 0 rather than F(x0) as rounded in float; H (and J) stay
  // F(x0). Rows 0 and 1 are f1, f2 in both concrete pendulums.
  template <class Invariants>
  Invariants invariant_targets(const Invariants& F_at_x0) const {
    Invariants F0 = F_at_x0;
    F0[0] = l * l;
    F0[1] = S(0);
    return F0;
  }

  // H = |p|²/(2m) + m g q_D (paper 002 §2.3, §2.4).
  S energy(const State& x) const { return momentum(x).squaredNorm() / (S(2) * m) + m * g * x[D - 1]; }

  // grad U of the potential U = m g q_D (the force is its negative); used by RATTLE and the
  // splittings, where one evaluation is one "force evaluation" (paper 002 §2.4).
  Config potential_gradient(const Config& /*q*/) const {
    Config G = Config::Zero();
    G[D - 1] = m * g;
    return G;
  }

  // Dirac-extended vector field X(x) on T*R^D (header comment). Undefined at q = 0 only.
  ATTRACTOR_ALWAYS_INLINE State field(const State& x) const {
    const Config q = position(x), p = momentum(x);
    const S f1 = q.squaredNorm();
    const S a = q.dot(p) / (m * f1);                            // f2/(m f1)
    const S b = (m * g * q[D - 1] - p.squaredNorm() / m) / f1;  // (m g q_D − |p|²/m)/f1
    State dx;
    dx.template head<D>() = p / m - a * q;
    dx.template tail<D>() = a * p + b * q;
    dx[N - 1] -= m * g;
    return dx;
  }

  // (f1, f2, H): the first three invariants of both pendulums.
  Vec<S, 3> holonomic_invariants(const State& x) const {
    const Config q = position(x), p = momentum(x);
    return Vec<S, 3>(q.squaredNorm(), q.dot(p), energy(x));
  }

  // Their gradients into rows 0..2 of J: grad f1 = (2q, 0), grad f2 = (p, q),
  // grad H = (m g e_D, p/m).
  template <int M>
  void holonomic_jacobian(const State& x, Mat<S, M, N>& J) const {
    const Config q = position(x), p = momentum(x);
    J.template block<3, N>(0, 0).setZero();
    J.template block<1, D>(0, 0) = S(2) * q.transpose();
    J.template block<1, D>(1, 0) = p.transpose();
    J.template block<1, D>(1, D) = q.transpose();
    J(2, D - 1) = m * g;
    J.template block<1, D>(2, D) = p.transpose() / m;
  }

  // The fused feedback hooks of integrate/system.hpp restricted to the rows f1, f2, H: the part
  // both pendulums share. e = K∘(F − F0) over those rows (paper 000 eq. (6)); M >= 3 and the
  // caller adds its own rows (the spherical pendulum's J).
  //
  // grad V rows = e0 (2q, 0) + e1 (p, q) + e2 (m g e_D, p/m)   (holonomic_jacobian(x)^T e)
  template <int M>
  State holonomic_gradient(const State& x, const Vec<S, M>& F0, const Vec<S, M>& K) const {
    const Config q = position(x), p = momentum(x);
    const S e0 = K[0] * (q.squaredNorm() - F0[0]);
    const S e1 = K[1] * (q.dot(p) - F0[1]);
    const S e2 = K[2] * (energy(x) - F0[2]);
    State gv;
    gv.template head<D>() = (S(2) * e0) * q + e1 * p;
    gv[D - 1] += e2 * (m * g);
    gv.template tail<D>() = e1 * q + (e2 / m) * p;
    return gv;
  }

  // field(x) − holonomic_gradient(x, F0, K) in one pass: |q|², q·p, |p|² are computed once and
  // the gradient folds into the field's coefficients (header comment for a, b):
  //   q' = (1/m − e1) p − (a + 2 e0) q − e2 m g e_D
  //   p' = (a − e2/m) p + (b − e1) q − m g e_D
  template <int M>
  ATTRACTOR_ALWAYS_INLINE State holonomic_feedback_field(const State& x, const Vec<S, M>& F0,
                                                         const Vec<S, M>& K) const {
    const Config q = position(x), p = momentum(x);
    const S f1 = q.squaredNorm(), f2 = q.dot(p), pp = p.squaredNorm();
    const S inv_m = S(1) / m, mg = m * g;
    const S inv_f1 = S(1) / f1;
    const S a = f2 * inv_m * inv_f1;                    // f2/(m f1)
    const S b = (mg * q[D - 1] - pp * inv_m) * inv_f1;  // (m g q_D − |p|²/m)/f1
    const S e0 = K[0] * (f1 - F0[0]);
    const S e1 = K[1] * (f2 - F0[1]);
    const S e2 = K[2] * (S(0.5) * pp * inv_m + mg * q[D - 1] - F0[2]);  // H − H0
    State dx;
    dx.template head<D>() = (inv_m - e1) * p - (a + S(2) * e0) * q;
    dx.template tail<D>() = (a - e2 * inv_m) * p + (b - e1) * q;
    dx[D - 1] -= e2 * mg;
    dx[N - 1] -= mg;
    return dx;
  }

 protected:
  // make() of the concrete pendulums: validated parameters or the error.
  template <class Concrete>
  static Result<Concrete> make_as(S mass, S gravity, S length) {
    const Error e = validate(mass, gravity, length);
    if (e != Error::none) return e;
    Concrete c;
    c.m = mass;
    c.g = gravity;
    c.l = length;
    return c;
  }
};

}  // namespace attractor
