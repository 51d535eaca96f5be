// SPDX-License-Identifier: Apache-2.0
// RATTLE for a particle on the sphere |q| = l under a potential U(q): the symplectic,
// second-order constrained integrator used as the baseline in paper 002 §2.3-2.4
// (Hairer, Lubich, Wanner, Geometric Numerical Integration, 2nd ed., Sect. VII.1.4, p. 246):
//
//   p_{n+1/2} = p_n - h/2 (grad U(q_n) + G(q_n)^T lambda_n)
//   q_{n+1}   = q_n + h M^{-1} p_{n+1/2},        0 = g(q_{n+1})
//   p_{n+1}   = p_{n+1/2} - h/2 (grad U(q_{n+1}) + G(q_{n+1})^T mu_n),
//                                                 0 = G(q_{n+1}) M^{-1} p_{n+1}
//
// with M = m I, g(q) = |q|^2 - l^2, G(q) = 2 q^T. For this constraint both multipliers have
// closed forms, so a step is allocation-free and costs the same every time (no Newton loop):
//   q~ = q_n + (h/m)(p_n - h/2 grad U(q_n)),  q_{n+1} = q~ - c q_n  with c = h^2 lambda_n / m the
//   root of |q~ - c q_n|^2 = l^2 that vanishes with h:  c = d / (b + sqrt(b^2 - a d)),
//   a = |q_n|^2, b = q~.q_n, d = |q~|^2 - l^2 (cancellation-free form of the quadratic formula);
//   mu_n makes p_{n+1} tangent: p_{n+1} = p* - (q_{n+1}.p*/|q_{n+1}|^2) q_{n+1},
//   p* = p_{n+1/2} - h/2 grad U(q_{n+1}).
// grad U(q_{n+1}) is kept for the next step, so one step is one force evaluation.
//
// A System supplies: using Scalar; static constexpr int D (configuration dimension), N = 2D;
// mass(), length(), potential_gradient(q) -> Vec<Scalar, D>. The state is x = (q, p).
// SphericalPendulum and PlanarPendulum qualify.
#pragma once

#include <cmath>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

template <class System>
class Rattle {
 public:
  using Scalar = typename System::Scalar;
  static constexpr int D = System::D;
  static constexpr int N = 2 * D;
  using State = Vec<Scalar, N>;
  using Config = Vec<Scalar, D>;

  // x0 should lie on T*S^{D-1} (|q| = l, q.p = 0); the method then keeps it there to rounding.
  static Result<Rattle> make(const System& sys, const State& x0) {
    if (!all_finite(x0)) return Error::non_finite;
    if (!(sys.mass() > Scalar(0)) || !(sys.length() > Scalar(0))) return Error::invalid_parameter;
    if (!(x0.template head<D>().squaredNorm() > Scalar(0))) return Error::invalid_parameter;
    return Rattle(sys, x0);
  }

  Rattle() = default;
  Rattle(const System& sys, const State& x0)
      : sys_(sys), x_(x0), grad_(sys.potential_gradient(x0.template head<D>())) {}

  // The stepper call shape (integrate/stepper.hpp): step x by h. x is normally the state the
  // last step returned; a different x (set by the caller) restarts the method there, at the cost
  // of one extra force evaluation.
  [[nodiscard]] Error step(State& x, Scalar h) {
    if (x != x_) {
      x_ = x;
      grad_ = sys_.potential_gradient(x.template head<D>());
    }
    const Error e = step(h);
    x = x_;
    return e;
  }

  // One RATTLE step of size h of the state held inside. Error::singular (state unchanged) when
  // the position constraint has no real solution, i.e. h is far too large for the motion.
  [[nodiscard]] Error step(Scalar h) {
    const Scalar m = sys_.mass(), l = sys_.length();
    const Config q = x_.template head<D>();
    const Config p = x_.template tail<D>();
    const Config p_free = p - (h / Scalar(2)) * grad_;  // kick without the constraint force
    const Config q_free = q + (h / m) * p_free;         // q~
    const Scalar a = q.squaredNorm();
    const Scalar b = q_free.dot(q);
    const Scalar d = q_free.squaredNorm() - l * l;
    const Scalar disc = b * b - a * d;
    const Scalar den = b + std::sqrt(disc > Scalar(0) ? disc : Scalar(0));
    if (!(disc >= Scalar(0)) || !(den > Scalar(0))) return Error::singular;
    const Scalar c = d / den;                        // h^2 lambda_n / m
    const Config q1 = q_free - c * q;                // |q1| = l
    const Config p_half = p_free - (m * c / h) * q;  // p_{n+1/2} = m (q1 - q)/h
    const Config grad1 = sys_.potential_gradient(q1);
    const Config p_star = p_half - (h / Scalar(2)) * grad1;
    const Config p1 = p_star - (q1.dot(p_star) / q1.squaredNorm()) * q1;  // G M^-1 p1 = 0
    x_.template head<D>() = q1;
    x_.template tail<D>() = p1;
    grad_ = grad1;
    return Error::none;
  }

  const State& state() const { return x_; }
  const System& system() const { return sys_; }

 private:
  System sys_{};
  State x_ = State::Zero();
  Config grad_ = Config::Zero();  // grad U(q_n), reused (first-same-as-last)
};

}  // namespace attractor
