// SPDX-License-Identifier: Apache-2.0
// Fixed-step explicit Runge–Kutta schemes as Butcher tableaux.
//
// One generic stepper serves every explicit scheme: Euler, Heun, RK4 are constant tableaux,
// and a user adds a scheme by writing its tableau. The stage loops have compile-time trip
// counts and the tableau is constant, so a step costs the same instructions every time.
#pragma once

#include "attractor/core/types.hpp"

namespace attractor {

// Explicit s-stage tableau: c_i = sum_j a_ij, strictly lower-triangular a.
//   k_i = f(x + h * sum_{j<i} a_ij k_j),   x_next = x + h * sum_i b_i k_i
template <class S, int Stages>
struct ButcherTableau {
  static constexpr int stages = Stages;
  S a[Stages][Stages];
  S b[Stages];
  int order;                 // classical order of accuracy
  S real_stability_limit;    // largest h*lambda on the negative real axis that is stable
};

// Forward Euler: order 1, stable for h*lambda in [-2, 0].
template <class S>
constexpr ButcherTableau<S, 1> euler_tableau() {
  return {{{S(0)}}, {S(1)}, 1, S(2)};
}

// Heun's method (explicit trapezoidal RK2): order 2, stable for h*lambda in [-2, 0].
template <class S>
constexpr ButcherTableau<S, 2> heun_tableau() {
  return {{{S(0), S(0)}, {S(1), S(0)}}, {S(0.5), S(0.5)}, 2, S(2)};
}

// Classical RK4: order 4, stable for h*lambda in [-2.785, 0].
template <class S>
constexpr ButcherTableau<S, 4> rk4_tableau() {
  return {{{S(0), S(0), S(0), S(0)},
           {S(0.5), S(0), S(0), S(0)},
           {S(0), S(0.5), S(0), S(0)},
           {S(0), S(0), S(1), S(0)}},
          {S(1) / S(6), S(1) / S(3), S(1) / S(3), S(1) / S(6)},
          4,
          S(2.785293563405282)};
}

// One explicit step of the tableau for the autonomous field f: x <- x + h * sum b_i k_i.
// f is any callable State(const State&): a system's field, a Feedback wrapper, a lambda.
template <class S, int Stages, int N, class Field>
void explicit_rk_step(const ButcherTableau<S, Stages>& t, const Field& f, Vec<S, N>& x, S h) {
  Vec<S, N> k[Stages];
  for (int i = 0; i < Stages; ++i) {
    Vec<S, N> xi = x;
    for (int j = 0; j < i; ++j) xi += (h * t.a[i][j]) * k[j];
    k[i] = f(xi);
  }
  for (int i = 0; i < Stages; ++i) x += (h * t.b[i]) * k[i];
}

template <class S, int N, class Field>
void euler_step(const Field& f, Vec<S, N>& x, S h) {
  static constexpr ButcherTableau<S, 1> t = euler_tableau<S>();
  explicit_rk_step(t, f, x, h);
}

template <class S, int N, class Field>
void heun_step(const Field& f, Vec<S, N>& x, S h) {
  static constexpr ButcherTableau<S, 2> t = heun_tableau<S>();
  explicit_rk_step(t, f, x, h);
}

template <class S, int N, class Field>
void rk4_step(const Field& f, Vec<S, N>& x, S h) {
  static constexpr ButcherTableau<S, 4> t = rk4_tableau<S>();
  explicit_rk_step(t, f, x, h);
}

// Run-time choice of the built-in schemes (CLIs, configuration frames).
enum class Scheme : unsigned char { euler = 0, heun = 1, rk4 = 2 };

constexpr const char* to_string(Scheme s) {
  return s == Scheme::euler ? "euler" : s == Scheme::heun ? "heun" : "rk4";
}

constexpr int order(Scheme s) { return s == Scheme::euler ? 1 : s == Scheme::heun ? 2 : 4; }

constexpr int stages(Scheme s) { return s == Scheme::euler ? 1 : s == Scheme::heun ? 2 : 4; }

template <class S>
constexpr S real_stability_limit(Scheme s) {
  return s == Scheme::rk4 ? rk4_tableau<S>().real_stability_limit : S(2);
}

template <class S, int N, class Field>
void step(Scheme s, const Field& f, Vec<S, N>& x, S h) {
  switch (s) {
    case Scheme::euler: euler_step(f, x, h); break;
    case Scheme::heun: heun_step(f, x, h); break;
    case Scheme::rk4: rk4_step(f, x, h); break;
  }
}

}  // namespace attractor
