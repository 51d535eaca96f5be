// SPDX-License-Identifier: Apache-2.0
// The facts of a system, stated once beside it: its parameters (name, unit, default, range), its
// state names, its invariants (name, kind, meaning) and its documented case (the parameters,
// initial state, step, horizon, method and gains a paper or the docs ran). Constant data only: no
// heap, no <string>, usable on the target to validate a configuration. make()/validate(), the
// simulator's entry, the bench row, the tests and the paper rows all read the same table.
//
// A system declares a facts struct (docs/adding-a-feedback-system.md):
//
//   struct MySystemFacts {
//     static constexpr facts::Param params[] = {{"m", "kg", 1, facts::positive(), "mass"}, ...};
//     static constexpr const char* states[] = {"q", "p"};                          // N names
//     static constexpr facts::Invariant invariants[] = {{"H", facts::InvariantKind::energy, "energy"}};
//     static constexpr double x0[] = {1, 0};
//     static constexpr facts::Case documented = {"default", "docs", x0, 1e-3, 10, "feedback-rk4", 50};
//     // optional: rules across parameters, values in table order (T: double, or the system's
//     // scalar in validate()); a refusal or facts::accepted()
//     template <class T> static constexpr facts::Refusal cross(const T* v);
//   };
//
// and facts::check<MySystemFacts>(values) names the parameter and the rule that refuses them.
#pragma once

#include <limits>
#include <type_traits>

#include "attractor/core/result.hpp"

namespace attractor::facts {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

// Finite without <cmath> (std::isfinite is not constexpr).
constexpr bool finite(double v) { return v == v && v != kUnbounded && v != -kUnbounded; }

// A parameter's range: each end closed, open or unbounded (±kUnbounded), plus an optional
// "nonzero" rule (a value of either sign, not 0). Every value must also be finite.
struct Range {
  double lo = -kUnbounded, hi = kUnbounded;
  bool lo_open = false, hi_open = false;
  bool nonzero = false;
  constexpr bool contains(double v) const {
    if (!finite(v)) return false;
    if (lo_open ? !(v > lo) : !(v >= lo)) return false;
    if (hi_open ? !(v < hi) : !(v <= hi)) return false;
    return !nonzero || v != 0;
  }
};
constexpr Range any_finite() { return {}; }
constexpr Range positive() { return {0, kUnbounded, true, false}; }
constexpr Range non_negative() { return {0, kUnbounded, false, false}; }
constexpr Range between(double lo, double hi, bool open = false) { return {lo, hi, open, open}; }
constexpr Range nonzero() { return {-kUnbounded, kUnbounded, false, false, true}; }

// A physical parameter: name (the simulator's --name), unit, default, range, one help line. A
// list-valued one (a vector, an inertia matrix) sets n > 1 and `defaults` (n values), each value
// in the range; `def` is then unused.
struct Param {
  const char* name;
  const char* unit;
  double def;
  Range range;
  const char* help;
  int n = 1;
  const double* defaults = nullptr;  // n values when n > 1
  constexpr double default_value(int i) const { return n == 1 ? def : defaults[i]; }
};

enum class InvariantKind { constraint, energy, momentum, group };

constexpr const char* to_string(InvariantKind k) {
  return k == InvariantKind::constraint ? "constraint"
         : k == InvariantKind::energy   ? "energy"
         : k == InvariantKind::momentum ? "momentum"
                                        : "group";
}

// One invariant row F_i: its name (the simulator's JSON key, CSV column d<name>), kind and a
// one-line meaning.
struct Invariant {
  const char* name;
  InvariantKind kind;
  const char* meaning = "";
};

// A documented case: where it comes from (e.g. "paper 000 §3.2"), the parameter values (nullptr:
// the defaults), the initial state (N values), step h, horizon T, method and gains (`gain` for
// every row, or `gains`, M values, one per row). `gains_trusted`: the source ran these gains
// although the step check's bound refuses them.
struct Case {
  const char* name;
  const char* source;
  const double* x0;
  double h;
  double T;
  const char* method;
  double gain;
  const double* gains = nullptr;
  const double* params = nullptr;
  bool gains_trusted = false;
  constexpr double gain_of(int row) const { return gains ? gains[row] : gain; }
};

// Why values are refused: the parameter (index into params[], -1 for a rule across several), the
// element of a list-valued one (-1: the whole parameter), and the rule's text ("must be finite",
// "must be positive definite", "I + m a^2 > 0 is violated").
struct Refusal {
  int param = -1;
  int element = -1;
  const char* rule = nullptr;  // nullptr: accepted
  bool non_finite = false;     // a NaN or an infinity (Error::non_finite rather than invalid_parameter)
  constexpr explicit operator bool() const { return rule != nullptr; }
};
constexpr Refusal accepted() { return {}; }
constexpr Refusal refused(int param, const char* rule, int element = -1) { return {param, element, rule, false}; }

// The text of a range rule a value breaks (nullptr: it satisfies it); a bounded range's text says
// only that (the host tools print its bounds, cli::Range::describe).
constexpr const char* range_rule(const Range& r, double v) {
  if (!finite(v)) return "must be finite";
  if (r.nonzero && v == 0) return "must be nonzero";
  if (r.contains(v)) return nullptr;
  if (r.lo == 0 && r.hi == kUnbounded) return r.lo_open ? "must be positive" : "must not be negative";
  return "is outside its range";
}

namespace detail {
template <class F, class T, class = void>
struct has_cross_in : std::false_type {};
template <class F, class T>
struct has_cross_in<F, T, std::void_t<decltype(F::cross(static_cast<const T*>(nullptr)))>> : std::true_type {};
template <class, class = void>
struct has_params : std::false_type {};
template <class F>
struct has_params<F, std::void_t<decltype(F::params)>> : std::true_type {};
}  // namespace detail

template <class T, int K>
constexpr int count(const T (&)[K]) {
  return K;
}

// The number of parameter values (a list-valued parameter counts n).
template <class Facts>
constexpr int value_count() {
  if constexpr (detail::has_params<Facts>::value) {
    int v = 0;
    for (const Param& p : Facts::params) v += p.n;
    return v;
  } else {
    return 0;
  }
}

// The parameter values in table order: first any non-finite value, then each in its range, then
// the rules across parameters. T is the scalar the values are held in (a rule across parameters
// is evaluated in it: I + m a^2 can underflow to 0 in float and not in double).
template <class Facts, class T>
constexpr Refusal check(const T* v) {
  if constexpr (detail::has_params<Facts>::value) {
    int at = 0, i = 0;
    for (const Param& p : Facts::params) {
      for (int k = 0; k < p.n; ++k, ++at)
        if (!finite(double(v[at]))) return {i, p.n == 1 ? -1 : k, "must be finite", true};
      ++i;
    }
    at = 0, i = 0;
    for (const Param& p : Facts::params) {
      for (int k = 0; k < p.n; ++k, ++at)
        if (const char* rule = range_rule(p.range, double(v[at]))) return {i, p.n == 1 ? -1 : k, rule, false};
      ++i;
    }
  }
  if constexpr (detail::has_cross_in<Facts, T>::value)
    return Facts::cross(v);
  else
    return accepted();
}

// What make() returns for a refusal: non_finite for a NaN or an infinity, else invalid_parameter.
constexpr Error error_of(const Refusal& r) {
  return !r ? Error::none : r.non_finite ? Error::non_finite : Error::invalid_parameter;
}

// The defaults in table order (what a Params struct's member initialisers read).
template <class Facts>
constexpr double default_of(int param, int element = 0) {
  return Facts::params[param].default_value(element);
}

}  // namespace attractor::facts
