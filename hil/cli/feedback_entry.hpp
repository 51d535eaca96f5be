// SPDX-License-Identifier: Apache-2.0
// What a feedback-integrator system declares to be an attractor-sim command (the driver,
// feedback_system_driver.hpp, does everything else). An entry is a struct:
//
//   struct Entry {
//     template <class S> using System = MySystem<S>;     // the integrate/system.hpp contract
//     static constexpr const char* name, *summary, *about;  // command, one --help line, paragraph
//     static constexpr cli::Param params[] = {{"m", "kg", 1, cli::positive(), "mass"}, ...};  // optional
//     static constexpr const char* states[] = {"q", "p"};                       // N names
//     static constexpr cli::InvariantInfo invariants[] = {{"H", InvariantKind::energy}};  // M
//     static constexpr cli::StateOption initial[] = {{"q0", 1, "Q", "position"}, ...};  // sum n = N
//     static constexpr double default_gain = 50;         // --gains default, every row
//     static constexpr const char* T_default = "default 10";   // --help text of --T's default
//     template <class S> static Result<System<S>> make(const cli::Params& p);
//     static void default_x0(const cli::Params& p, double* x0);
//     static double default_T(const System<double>& sys, const Vec<double, N>& x0);
//     // "" when x0 lies on the constraints, else why not (exit 5 unless --project):
//     static std::string off_constraint(const cli::Params& p, const double* x0);
//     // --project: moves x0 onto the constraints; "" or why it cannot (exit 5):
//     static std::string project(const cli::Params& p, double* x0);
//     // Sample states of the region the run can reach (x0 among them): check_step must accept h
//     // at each, and --gains auto balances the gains over them.
//     static std::array<Vec<double, N>, K> region(const System<double>& sys, const Vec<double, N>& x0);
//   };
//
// Optional members, detected: `notes` (more --help text); `exact(sys, x0, t)` (the exact
// solution, reported as exact_error = |x(t_end) - exact(t_end)| over the components it gives:
// a NaN component has no closed form, e.g. the attitude of the Suslov body, and is left out);
// `default_gains[]` (M values: the --gains default per row, instead of default_gain for every
// row); `default_gains_trusted = true` (the default gains are a paper's, which ran although
// check_step's bound, sum_i k_i |grad F_i|^2, refuses them: without --gains the run goes ahead
// with a note on stderr, as --unchecked would); `default_method` (the --method default, e.g. the paper's
// "feedback-euler"; else feedback-rk4); `region(sys, x0, T)` with the run's duration T instead of region(sys, x0) (a
// region that is not bounded in time, e.g. a body sliding down a slope); `extra_methods[]` with `template <class S>
// struct Extra` (extra steppers such as RATTLE: `const char* start(int i, const System<S>&, const Vec<S, N>& x0)` and
// `const char* step(int i, const System<S>&, Vec<S, N>& x, S h)`, each nullptr or the reason the run stops; an
// Extra with `discrete_q` also takes --start/--q1: choose_start, is_dla, started, sim/nonholonomic_baselines.hpp);
// `report(sys, x0, Json&, std::string& text)` (system-specific summary fields, e.g. the planar pendulum's period).
// Host-only.
#pragma once

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "attractor/core/facts.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "exit_codes.hpp"
#include "invariant_monitor.hpp"
#include "numbers.hpp"

namespace attractor::cli {

// The system an entry's make() returned, or the invalid-input exit (5) naming the refusal. For the
// driver and for an entry's hooks (initial state, constraint check, projection), which may run
// before the driver has checked the parameters: a refused system is never read as a default one.
template <class T>
T made_or_refused(const Result<T>& made, const char* what = "parameters refused") {
  if (!made) throw Failure(exit_invalid, std::string(what) + " (" + to_string(made.error()) + ")");
  return *made;
}

// A physical parameter (--name [unit], default, range, help; a list-valued one n > 1 values):
// the lib's facts (attractor/core/facts.hpp), so an entry reads its system's table.
using Param = facts::Param;

// An entry's parameter table; `params` is optional (a system without physical parameters).
struct ParamTable {
  const Param* first = nullptr;
  int count = 0;
  const Param* begin() const { return first; }
  const Param* end() const { return first + count; }
  int values() const {  // the flattened length: a list-valued parameter counts n
    int v = 0;
    for (const Param& p : *this) v += p.n;
    return v;
  }
};

// An initial-state option: --name with n comma-separated numbers, the next n entries of x0.
struct StateOption {
  const char* name;
  int n;
  const char* meta;  // e.g. "x,y"
  const char* help;
};

// The validated parameter values of one run, by name: v holds every parameter's values in
// table order (a list-valued parameter's n values in a row).
class Params {
 public:
  Params(const Param* p, const double* v, int n) : p_(p), v_(v), n_(n) {}
  Params(const ParamTable& t, const double* v) : Params(t.first, v, t.count) {}
  double operator()(const char* name) const { return *find(name, 1); }
  // A list-valued parameter's n values.
  const double* list(const char* name, int n) const { return find(name, n); }
  int size() const { return n_; }
  const Param& param(int i) const { return p_[i]; }

 private:
  const double* find(const char* name, int n) const {
    int at = 0;
    for (int i = 0; i < n_; at += p_[i].n, ++i)
      if (std::strcmp(p_[i].name, name) == 0) {
        if (p_[i].n != n) throw std::logic_error(std::string("entry parameter '") + name + "' has another size");
        return v_ + at;
      }
    throw std::logic_error(std::string("entry parameter '") + name + "' not declared");
  }
  const Param* p_;
  const double* v_;
  int n_;
};

template <class T, std::size_t K>
constexpr int count_of(const T (&)[K]) {
  return int(K);
}

namespace detail {
template <class, class = void>
struct has_notes : std::false_type {};
template <class E>
struct has_notes<E, std::void_t<decltype(E::notes)>> : std::true_type {};
template <class, class = void>
struct has_extra : std::false_type {};
template <class E>
struct has_extra<E, std::void_t<decltype(E::extra_methods)>> : std::true_type {};
template <class, class = void>
struct has_exact : std::false_type {};
template <class E>
struct has_exact<
    E, std::void_t<decltype(E::exact(std::declval<const typename E::template System<double>&>(),
                                     std::declval<const Vec<double, E::template System<double>::N>&>(), 0.0))>>
    : std::true_type {};
template <class, class = void>
struct has_default_gains : std::false_type {};
template <class E>
struct has_default_gains<E, std::void_t<decltype(E::default_gains)>> : std::true_type {};
template <class, class = void>
struct has_trusted_default_gains : std::false_type {};
template <class E>
struct has_trusted_default_gains<E, std::void_t<decltype(E::default_gains_trusted)>> : std::true_type {};
template <class, class = void>
struct has_default_method : std::false_type {};
template <class E>
struct has_default_method<E, std::void_t<decltype(E::default_method)>> : std::true_type {};
template <class, class = void>
struct has_timed_region : std::false_type {};
template <class E>
struct has_timed_region<
    E, std::void_t<decltype(E::region(std::declval<const typename E::template System<double>&>(),
                                      std::declval<const Vec<double, E::template System<double>::N>&>(), 0.0))>>
    : std::true_type {};
template <class, class = void>
struct has_params : std::false_type {};
template <class E>
struct has_params<E, std::void_t<decltype(E::params)>> : std::true_type {};
template <class, class = void>
struct has_report : std::false_type {};
template <class E>
struct has_report<E, std::void_t<decltype(&E::report)>> : std::true_type {};
}  // namespace detail

namespace detail {
template <class, class = void>
struct has_documented : std::false_type {};
template <class E>
struct has_documented<E, std::void_t<decltype(E::documented)>> : std::true_type {};
template <class, class = void>
struct has_T_default : std::false_type {};
template <class E>
struct has_T_default<E, std::void_t<decltype(E::T_default)>> : std::true_type {};
}  // namespace detail

// The base of an entry whose system states its facts (attractor/core/facts.hpp): the parameter
// table, state and invariant names, and the defaults of the documented case (x0, T, method,
// gains) come from `Facts`; the entry adds its host-only hooks and may hide any default here
// (e.g. a default x0 that depends on the parameters).
template <class Facts>
struct FactsEntry : Facts {
  static constexpr int kStates = facts::count(Facts::states);
  static_assert(facts::count(Facts::invariants) <= 16, "at most 16 invariants");
  static void default_x0(const Params&, double* x0) {
    for (int i = 0; i < kStates; ++i) x0[i] = Facts::documented.x0[i];
  }
  template <class Sys, class X>
  static double default_T(const Sys&, const X&) {
    return Facts::documented.T;
  }
  static constexpr const char* default_method = Facts::documented.method;
  static constexpr bool default_gains_trusted = Facts::documented.gains_trusted;
};

// An entry's parameter values against its facts' ranges and rules across parameters (the
// command line's own range check comes first): the refusal names the option and the rule,
// "--inertia: must be positive definite (parameters refused)", "I + m a^2 > 0 is violated
// (parameters refused)". Exit 5.
template <class Entry>
void check_params(const double* values) {
  if constexpr (detail::has_params<Entry>::value) {
    const facts::Refusal r = facts::check<Entry>(values);
    if (!r) return;
    std::string what = r.param < 0 ? std::string() : std::string("--") + Entry::params[r.param].name;
    if (r.param >= 0 && r.element >= 0) what += " element " + std::to_string(r.element + 1);
    throw Failure(exit_invalid, (what.empty() ? "" : what + ": ") + r.rule + " (parameters refused)");
  }
}

template <class Entry>
ParamTable params_of() {
  if constexpr (detail::has_params<Entry>::value) return {Entry::params, count_of(Entry::params)};
  return {};
}

}  // namespace attractor::cli
