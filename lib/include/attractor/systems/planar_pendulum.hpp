// SPDX-License-Identifier: Apache-2.0
// The planar (simple) pendulum as a feedback-integrator system (paper 002 §2.4): the pendulum
// of pendulum.hpp in R² (its Dirac-extended field, f1 = |q|², f2 = q·p, H = |p|²/2m + m g y). No
// other first integral (M = 3). State layout x = (x, y, px, py); invariants F = (f1, f2, H).
// The feedback modification of the field is paper 002 eqs. (10)–(11). On T*S¹ with
// q = l (cos th, sin th), th measured from the horizontal, the field is paper 002 eq. (9):
// th'' + (g/l) cos th = 0 (the paper sets l = 1).
#pragma once

#include <cmath>

#include "attractor/systems/pendulum.hpp"

namespace attractor {

// The planar pendulum's facts: paper 002 §2.4's start at rest on the horizontal, q0 = (l, 0), p0 = 0,
// for one period T = 4 sqrt(l/g) K(k) = 7.4163 at m = g = l = 1 (§2.4 gives no gains: 50 as in §2.3).
struct PlanarPendulumFacts : PendulumParamFacts {
  static constexpr const char* states[] = {"x", "y", "px", "py"};
  static constexpr facts::Invariant invariants[] = {{"f1", facts::InvariantKind::constraint, "x^2 + y^2, target l^2"},
                                                    {"f2", facts::InvariantKind::constraint, "x px + y py, target 0"},
                                                    {"H", facts::InvariantKind::energy, "|p|^2/(2m) + m g y"}};
  static constexpr double x0[] = {1, 0, 0, 0};
  static constexpr facts::Case documented = {"paper", "paper 002 §2.4", x0, 1e-3, 7.4162987092054875, "feedback-rk4",
                                             50};
};

template <class S>
struct PlanarPendulum : Pendulum<S, 2> {
  using Base = Pendulum<S, 2>;
  using Base::N;
  static constexpr int M = 3;  // invariants (f1, f2, H)
  using typename Base::State;
  using Invariants = Vec<S, M>;

  static Result<PlanarPendulum> make(S mass, S gravity, S length) {
    return Base::template make_as<PlanarPendulum>(mass, gravity, length);
  }

  Invariants invariants(const State& x) const { return this->holonomic_invariants(x); }

  // Rows: grad f1 = (2q, 0), grad f2 = (p, q), grad H = (m g e_y, p/m) (paper 002 §2.4).
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    Mat<S, M, N> J;
    this->holonomic_jacobian(x, J);
    return J;
  }

  // Fused grad V = DF^T K (F − F0) (integrate/system.hpp; paper 002 eqs. (10)–(11)).
  State feedback_gradient(const State& x, const Invariants& F0, const Invariants& K) const {
    return this->holonomic_gradient(x, F0, K);
  }
  // Fused X(x) − grad V (paper 002 eq. (10)), one pass (pendulum.hpp).
  ATTRACTOR_ALWAYS_INLINE State feedback_field(const State& x, const Invariants& F0, const Invariants& K) const {
    return this->holonomic_feedback_field(x, F0, K);
  }

  // Period of the oscillation through state x (on T*S^1): T = 4 sqrt(l/g) K(k) with modulus
  // k = sin(alpha/2), alpha the amplitude from the lowest point, so k^2 = (1 + H/(m g l))/2.
  // K(k) = pi / (2 AGM(1, sqrt(1-k^2))), six AGM steps (quadratic convergence: exact to double
  // rounding for k^2 <= 0.99). Paper 002 §2.4 starts at rest on the horizontal: k^2 = 1/2,
  // T = 7.4162987..., the "approximately 7.4 time units" of Fig. 6.
  // Error::out_of_range when the pendulum rotates (H >= m g l) or hangs at rest (k = 0 is
  // fine, but g = 0 has no period).
  Result<S> period(const State& x) const {
    if (!(this->g > S(0))) return Error::out_of_range;
    const S k2 = (S(1) + this->energy(x) / (this->m * this->g * this->l)) / S(2);
    if (!(k2 >= S(0)) || !(k2 < S(0.99))) return Error::out_of_range;
    S a = S(1), b = std::sqrt(S(1) - k2);
    for (int i = 0; i < 6; ++i) {
      const S an = (a + b) / S(2);
      b = std::sqrt(a * b);
      a = an;
    }
    const S pi = S(3.14159265358979323846);
    return S(4) * std::sqrt(this->l / this->g) * pi / (S(2) * a);
  }
};

}  // namespace attractor
