// SPDX-License-Identifier: Apache-2.0
// The Chaplygin sleigh in its body velocities (v, ω) — v the speed of the contact point along the
// blade, ω the turning rate — and its equivalence with the two-dimensional Toda lattice (paper
// 004, "The Chaplygin Sleigh" and "The Two-dimensional Toda Lattice"):
//
//   v̇ = a ω²,   ω̇ = −k v ω,   k = m a / (I + m a²)
//
// (m mass, I inertia about the centre of mass, a the centre of mass's distance ahead of the
// blade). The slides print ω̇ = −(m a²/(I + m a²)) v ω: a misprint, dimensionally wrong and not
// energy conserving; m a / (I + m a²) is what the reduced equations of the paper-000 model
// (systems/chaplygin_sleigh.hpp, eq. (53b)) give on the constraint, and it keeps the energy
//
//   E = ½ m v² + ½ (I + m a²) ω²                                  (the one invariant, M = 1).
//
// Normalized variables V = k v, W = √(a k) ω (a k = m a²/(I + m a²) ≥ 0) give, in the same time,
// the slides' V̇ = W², Ẇ = −V W, which keep V² + W² = C²: the orbits are ellipses in (v, ω), the
// equilibria ω = 0 and every orbit with ω ≠ 0 tends to the positive v axis (V → C). Exactly,
//
//   V(t) = C tanh(C t + φ),  W(t) = sgn(W0) C / cosh(C t + φ),  φ = atanh(V0 / C).
//
// Time scaling to the Toda lattice ḃ₁ = 2a₁², ȧ₁ = −2a₁b₁: (b₁, a₁)(t) = (V, W)(2t), Toda time t
// being half the sleigh's. From b₁(0) = 0, a₁(0) = c this is b₁ = c tanh 2ct, a₁ = c / cosh 2ct.
// The slides print b₁ = −c tanh 2ct: that solves the equations with time reversed (then
// ḃ₁ = −2a₁²), and would send every sleigh to the negative v axis against the slides' own phase
// portrait; the sign here follows the equations.
//
// div X = ∂(aω²)/∂v + ∂(−kvω)/∂ω = −k v: the flow contracts area while v > 0 — no invariant
// measure, asymptotic stability within an energy level.
//
// State x = (v, ω), N = 2. Defaults m = 1, I = 0, a = 1: k = a = 1, the slides' normalized sleigh.
#pragma once

#include <cmath>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

// The Toda sleigh's facts (core/facts.hpp): m > 0, I >= 0 and I + m a² > 0 (a point mass on
// the blade has no inertia about it); the default case is the slides' normalized sleigh.
struct SleighTodaFacts {
  static constexpr facts::Param params[] = {
      {"m", "kg", 1, facts::positive(), "mass"},
      {"I", "kg m^2", 0, facts::non_negative(), "inertia about the centre of mass"},
      {"a", "m", 1, facts::any_finite(), "centre of mass ahead of the blade (I + m a^2 > 0)"}};
  static constexpr const char* states[] = {"v", "w"};
  static constexpr facts::Invariant invariants[] = {{"E", facts::InvariantKind::energy, "m v^2/2 + (I + m a^2) w^2/2"}};
  static constexpr double x0[] = {0, 1};
  static constexpr facts::Case documented = {
      "default", "paper 004 (k = 1, Toda b1 = tanh 2t)", x0, 1e-3, 10, "feedback-rk4", 10};
  template <class T>
  static constexpr facts::Refusal cross(const T* v) {
    return v[1] + v[0] * v[2] * v[2] > T(0) ? facts::accepted() : facts::refused(-1, "I + m a^2 > 0 is violated");
  }
};

template <class S>
struct SleighTodaParams {
  S mass = S(facts::default_of<SleighTodaFacts>(0));     // m
  S inertia = S(facts::default_of<SleighTodaFacts>(1));  // I about the centre of mass (0: a point mass)
  S offset = S(facts::default_of<SleighTodaFacts>(2));   // a, blade contact to centre of mass

  Error validate() const {
    const S v[] = {mass, inertia, offset};
    return facts::error_of(facts::check<SleighTodaFacts>(v));
  }
};

template <class S>
struct SleighToda {
  using Scalar = S;
  static constexpr int N = 2, M = 1;
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;

  SleighTodaParams<S> prm{};
  S k = S(1);   // m a / (I + m a²)
  S Ia = S(1);  // I + m a², the inertia about the blade contact

  static Result<SleighToda> make(const SleighTodaParams<S>& p = SleighTodaParams<S>{}) {
    const Error err = p.validate();
    if (err != Error::none) return err;
    SleighToda s;
    s.prm = p;
    s.Ia = p.inertia + p.mass * p.offset * p.offset;
    s.k = p.mass * p.offset / s.Ia;
    if (!is_finite(s.k) || !is_finite(s.Ia)) return Error::invalid_parameter;
    return s;
  }

  State field(const State& x) const { return State(prm.offset * x[1] * x[1], -k * x[0] * x[1]); }
  Invariants invariants(const State& x) const {
    return Invariants(S(0.5) * prm.mass * x[0] * x[0] + S(0.5) * Ia * x[1] * x[1]);
  }
  Mat<S, M, N> invariants_jacobian(const State& x) const { return Mat<S, M, N>(prm.mass * x[0], Ia * x[1]); }
  // div X = −k v (see above).
  S divergence(const State& x) const { return -k * x[0]; }

  // (V, W) = (k v, √(a k) ω): the slides' normalized sleigh, and the Toda (b₁, a₁) at Toda time t/2.
  State normalized(const State& x) const { return State(k * x[0], std::sqrt(prm.offset * k) * x[1]); }
  State from_normalized(const State& n) const {
    const S s = std::sqrt(prm.offset * k);
    return State(n[0] / k, n[1] / s);
  }

  // The exact flow from x0 after time t (a = 0: the sleigh coasts, x0 stays).
  State exact(const State& x0, S t) const {
    if (prm.offset == S(0) || x0[1] == S(0)) return x0;  // no coupling, or an equilibrium
    const State n0 = normalized(x0);
    const S C = std::sqrt(n0[0] * n0[0] + n0[1] * n0[1]);
    const S phi = std::atanh(n0[0] / C);
    const S arg = C * t + phi;
    const S W = (n0[1] > S(0) ? C : -C) / std::cosh(arg);
    return from_normalized(State(C * std::tanh(arg), W));
  }

  // The two-dimensional Toda lattice from b₁(0) = 0, a₁(0) = c, at Toda time t: (b₁, a₁).
  static State toda_exact(S c, S t) { return State(c * std::tanh(S(2) * c * t), c / std::cosh(S(2) * c * t)); }
  // The Toda field (ḃ₁, ȧ₁) = (2a₁², −2a₁b₁) at (b₁, a₁) (the slides' equations of motion).
  static State toda_field(const State& ba) { return State(S(2) * ba[1] * ba[1], S(-2) * ba[1] * ba[0]); }
};

}  // namespace attractor
