// The spherical pendulum as a feedback-integrator system (paper 002, Chang–Perlmutter–
// Vankerschaver, "Feedback integrators for mechanical systems with holonomic constraints", §2.3).
//
// Phase space T*S^2 is the (l^2, 0)-level set of f = (f1, f2) inside T*R^3 = R^3 x R^3:
//   f1(q,p) = |q|^2        (point on the sphere of radius l)
//   f2(q,p) = q . p        (momentum tangent to the sphere)
// Hamiltonian H(q,p) = |p|^2/(2m) + m g q3, and the vertical angular momentum J = q1 p2 - q2 p1.
//
// State layout x = (q1, q2, q3, p1, p2, p3); invariants F = (f1, f2, H, J) (M = 4).
//
// The Dirac-extended field (paper 002 eq. (1) applied in §2.3), derived here with the
// convention {F,G} = F_q.G_p - F_p.G_q, X_F = (F_p, -F_q) (the plain-text paper lost every minus
// sign; the brackets are {H,f1} = -2 f2/m, {H,f2} = m g q3 - |p|^2/m, {f1,f2} = 2 f1,
// X_H = (p/m, -m g e3), X_f1 = (0, -2q), X_f2 = (q, -p), C^{12} = -1/(2 f1)):
//   q' = p/m - f2/(m f1) q
//   p' = -m g e3 + f2/(m f1) p - (|p|^2/m - m g q3)/f1 q
// It conserves f1, f2, H and J on all of T*R^3 minus {q = 0} (not only on T*S^2), which the
// unit tests check as DF(x) X(x) = 0 at random points. The feedback integrator, paper 002
// eqs. (7)-(8), is Feedback<SphericalPendulum<S>> with L = I: x' = X(x) - DF^T K (F(x) - F0).
//
// Paper misprint: §2.3 states H0 = 2 and J0 = 1 for q0 = (0,1,0), p0 = (1,0,1), m = g = l = 1.
// The values are H0 = |p0|^2/2 + q0_3 = 1 and J0 = q1 p2 - q2 p1 = -1 (computed, and asserted in
// host-tests/unit/spherical_pendulum_test.cpp).
#pragma once

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

template <class S>
struct SphericalPendulum {
  using Scalar = S;
  static constexpr int D = 3;      // configuration dimension (q in R^3)
  static constexpr int N = 2 * D;  // ambient state (q, p) in T*R^3
  static constexpr int M = 4;      // invariants (f1, f2, H, J)
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  using Config = Vec<S, D>;

  S m{1};  // bob mass
  S g{1};  // gravitational acceleration (along -e3)
  S l{1};  // rod length: the constraint is f1 = |q|^2 = l^2

  // Refuses non-finite or non-positive parameters (g = 0 is allowed: free geodesic motion).
  static Result<SphericalPendulum> make(S mass, S gravity, S length) {
    if (!is_finite(mass) || !is_finite(gravity) || !is_finite(length)) return Error::non_finite;
    if (!(mass > S(0)) || !(length > S(0)) || gravity < S(0)) return Error::invalid_parameter;
    SphericalPendulum s;
    s.m = mass;
    s.g = gravity;
    s.l = length;
    return s;
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

  // H = |p|^2/(2m) + m g q3 (paper 002 §2.3).
  S energy(const State& x) const {
    return momentum(x).squaredNorm() / (S(2) * m) + m * g * x[2];
  }
  // J = q1 p2 - q2 p1: vertical component of q x p (paper 002 §2.3).
  static S vertical_momentum(const State& x) { return x[0] * x[4] - x[1] * x[3]; }

  // grad U of the potential U = m g q3 (the force is its negative); used by RATTLE and the
  // splittings, where one evaluation is one "force evaluation" (paper 002 §2.4).
  Config potential_gradient(const Config& /*q*/) const { return Config(S(0), S(0), m * g); }

  // Dirac-extended vector field X(x) on T*R^3 (see the header comment; paper 002 §2.3, the
  // field whose feedback modification is eqs. (7)-(8)). Undefined at q = 0 only (f1 = 0).
  State field(const State& x) const {
    const Config q = position(x), p = momentum(x);
    const S f1 = q.squaredNorm();
    const S f2 = q.dot(p);
    const S a = f2 / (m * f1);                                     // f2/(m f1)
    const S b = (m * g * q[2] - p.squaredNorm() / m) / f1;         // (m g q3 - |p|^2/m)/f1
    State dx;
    dx.template head<D>() = p / m - a * q;
    dx.template tail<D>() = a * p + b * q;
    dx[5] -= m * g;
    return dx;
  }

  // F = (f1, f2, H, J).
  Invariants invariants(const State& x) const {
    const Config q = position(x), p = momentum(x);
    return Invariants(q.squaredNorm(), q.dot(p), energy(x), vertical_momentum(x));
  }

  // DF, rows = gradients (paper 002 §2.3): grad f1 = (2q, 0), grad f2 = (p, q),
  // grad H = (m g e3, p/m), grad J = (p x e3, e3 x q) = ((p2, -p1, 0), (-q2, q1, 0)).
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    const Config q = position(x), p = momentum(x);
    Mat<S, M, N> J = Mat<S, M, N>::Zero();
    J.template block<1, D>(0, 0) = S(2) * q.transpose();
    J.template block<1, D>(1, 0) = p.transpose();
    J.template block<1, D>(1, D) = q.transpose();
    J(2, 2) = m * g;
    J.template block<1, D>(2, D) = p.transpose() / m;
    J(3, 0) = x[4];
    J(3, 1) = -x[3];
    J(3, 3) = -x[1];
    J(3, 4) = x[0];
    return J;
  }
};

}  // namespace attractor
