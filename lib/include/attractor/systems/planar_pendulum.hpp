// The planar (simple) pendulum as a feedback-integrator system (paper 002 §2.4).
//
// Phase space T*S^1 is the (l^2, 0)-level set of f = (f1, f2) inside T*R^2:
//   f1(q,p) = |q|^2 = x^2 + y^2,   f2(q,p) = q . p = x px + y py,
// Hamiltonian H = |p|^2/(2m) + m g y. No other first integral (M = 3).
// State layout x = (x, y, px, py); invariants F = (f1, f2, H).
//
// Dirac-extended field (paper 002 §2.4, the field whose feedback modification is eqs.
// (10)-(11); same derivation as the spherical pendulum with e3 -> e_y, signs restored, see
// systems/spherical_pendulum.hpp):
//   q' = p/m - f2/(m f1) q
//   p' = -m g e_y + f2/(m f1) p - (|p|^2/m - m g y)/f1 q
// On T*S^1 with q = l (cos th, sin th), th measured from the horizontal, this is paper 002
// eq. (9): th'' + (g/l) cos th = 0 (the paper sets l = 1).
#pragma once

#include <cmath>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

template <class S>
struct PlanarPendulum {
  using Scalar = S;
  static constexpr int D = 2;      // configuration dimension (q = (x, y))
  static constexpr int N = 2 * D;  // ambient state (x, y, px, py)
  static constexpr int M = 3;      // invariants (f1, f2, H)
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  using Config = Vec<S, D>;

  S m{1};  // bob mass
  S g{1};  // gravitational acceleration (along -e_y)
  S l{1};  // rod length: f1 = l^2

  static Result<PlanarPendulum> make(S mass, S gravity, S length) {
    if (!is_finite(mass) || !is_finite(gravity) || !is_finite(length)) return Error::non_finite;
    if (!(mass > S(0)) || !(length > S(0)) || gravity < S(0)) return Error::invalid_parameter;
    PlanarPendulum s;
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

  // H = |p|^2/(2m) + m g y (paper 002 §2.4).
  S energy(const State& x) const {
    return momentum(x).squaredNorm() / (S(2) * m) + m * g * x[1];
  }

  // grad U for U = m g y (one "force evaluation", paper 002 §2.4).
  Config potential_gradient(const Config& /*q*/) const { return Config(S(0), m * g); }

  // Dirac-extended field on T*R^2 (header comment). Undefined at q = 0 only.
  State field(const State& x) const {
    const Config q = position(x), p = momentum(x);
    const S f1 = q.squaredNorm();
    const S a = q.dot(p) / (m * f1);
    const S b = (m * g * q[1] - p.squaredNorm() / m) / f1;
    State dx;
    dx.template head<D>() = p / m - a * q;
    dx.template tail<D>() = a * p + b * q;
    dx[3] -= m * g;
    return dx;
  }

  Invariants invariants(const State& x) const {
    const Config q = position(x), p = momentum(x);
    return Invariants(q.squaredNorm(), q.dot(p), energy(x));
  }

  // Rows: grad f1 = (2q, 0), grad f2 = (p, q), grad H = (m g e_y, p/m) (paper 002 §2.4).
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    const Config q = position(x), p = momentum(x);
    Mat<S, M, N> J = Mat<S, M, N>::Zero();
    J.template block<1, D>(0, 0) = S(2) * q.transpose();
    J.template block<1, D>(1, 0) = p.transpose();
    J.template block<1, D>(1, D) = q.transpose();
    J(2, 1) = m * g;
    J.template block<1, D>(2, D) = p.transpose() / m;
    return J;
  }

  // Period of the oscillation through state x (on T*S^1): T = 4 sqrt(l/g) K(k) with modulus
  // k = sin(alpha/2), alpha the amplitude from the lowest point, so k^2 = (1 + H/(m g l))/2.
  // K(k) = pi / (2 AGM(1, sqrt(1-k^2))), six AGM steps (quadratic convergence: exact to double
  // rounding for k^2 <= 0.99). Paper 002 §2.4 starts at rest on the horizontal: k^2 = 1/2,
  // T = 7.4162987..., the "approximately 7.4 time units" of Fig. 6.
  // Error::out_of_range when the pendulum rotates (H >= m g l) or hangs at rest (k = 0 is
  // fine, but g = 0 has no period).
  Result<S> period(const State& x) const {
    if (!(g > S(0))) return Error::out_of_range;
    const S k2 = (S(1) + energy(x) / (m * g * l)) / S(2);
    if (!(k2 >= S(0)) || !(k2 < S(0.99))) return Error::out_of_range;
    S a = S(1), b = std::sqrt(S(1) - k2);
    for (int i = 0; i < 6; ++i) {
      const S an = (a + b) / S(2);
      b = std::sqrt(a * b);
      a = an;
    }
    const S pi = S(3.14159265358979323846);
    return S(4) * std::sqrt(l / g) * pi / (S(2) * a);
  }
};

}  // namespace attractor
