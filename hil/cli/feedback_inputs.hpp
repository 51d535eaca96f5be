// SPDX-License-Identifier: Apache-2.0
// The options of a feedback-system command (feedback_system_driver.hpp) and their validation:
// the option table built from the entry (feedback_entry.hpp) with its optional defaults, the
// command line checked in double into FeedbackInputs (exit 2/5 on bad input, --project), and the
// inputs of the entry's default case (what attractor-paper runs). Host-only.
#pragma once

#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "auto_gains.hpp"
#include "commands.hpp"
#include "feedback_entry.hpp"
#include "method_table.hpp"
#include "run_support.hpp"
#include "spec.hpp"

namespace attractor::cli {

inline const char* const kFeedbackDriverNotes =
    "methods: feedback-* integrate the feedback field x' = X(x) - DF^T K (F(x) - F*) (paper 002\n"
    "eqs. (7)-(8), L = I; F* = F(x0), or the system's invariant targets); euler|heun|rk4 are the same\n"
    "schemes on X without feedback; further methods are this system's own baselines. --gains and\n"
    "--unchecked apply to the feedback-* methods only.\n"
    "gains: one per invariant in the order of the summary, a single value for all, or 'auto': the\n"
    "largest equal pull-back rate with h * stiffness <= 0.1 x the scheme's stability limit over the\n"
    "sample states of the reachable region (docs/auto-gains.md); the gains used are reported.\n"
    "validation: the initial state must lie on the constraints unless --project (moved onto them)\n"
    "or --keep-start (kept: the invariants' deviations are then measured from the exact constraint\n"
    "targets, and the summary's pullback gives the constraint deviation at x0, at the end, and the\n"
    "time from which it stays below --pullback-tol, null if it never does). The step count\n"
    "round(T/h) must be >= 1 and, without --force, <= 1e9; runs of 1e7 steps or more print progress.\n"
    "step check (feedback-* methods): Feedback::check_step must accept h at every sample state of\n"
    "the reachable region (x0 among them), or the step is refused, exit 3 (--unchecked runs anyway).\n"
    "summary: max and final |F_i(x) - F_i(x0)| of every invariant (evaluated in double from the\n"
    "state, also in a float run), steps, t_end, and for feedback methods the largest h * stiffness\n"
    "met along the run. If the state becomes non-finite, an invariant drifts by more than\n"
    "1 + |F_i(x0)|, or a baseline step has no solution, the run stops there, the summary says why\n"
    "('stopped') and the exit code is 4.\n\n";

template <class Entry>
constexpr int extra_count() {
  if constexpr (detail::has_extra<Entry>::value) return count_of(Entry::extra_methods);
  return 0;
}
template <class Entry>
const char* const* extra_names() {
  if constexpr (detail::has_extra<Entry>::value) return Entry::extra_methods;
  return nullptr;
}

template <class Entry>
const char* default_method() {
  if constexpr (detail::has_default_method<Entry>::value) return Entry::default_method;
  return "feedback-rk4";
}
// The --gains default of row i: the documented case's, or the entry's default_gains[i] /
// default_gain.
template <class Entry>
double default_gain(int i) {
  if constexpr (detail::has_documented<Entry>::value) {
    return Entry::documented.gain_of(i);
  } else if constexpr (detail::has_default_gains<Entry>::value) {
    static_assert(count_of(Entry::default_gains) == count_of(Entry::invariants), "one default gain per invariant");
    return Entry::default_gains[i];
  } else {
    return Entry::default_gain;
  }
}
template <class Entry>
constexpr bool trusts_default_gains() {
  if constexpr (detail::has_trusted_default_gains<Entry>::value) return Entry::default_gains_trusted;
  return false;
}
template <class Entry>
constexpr bool per_row_default_gains() {
  if constexpr (detail::has_documented<Entry>::value) return Entry::documented.gains != nullptr;
  return detail::has_default_gains<Entry>::value;
}
template <class Entry>
std::string default_gains_text() {
  if (!per_row_default_gains<Entry>()) return exact(default_gain<Entry>(0)) + " each";
  std::string t;
  for (int i = 0; i < count_of(Entry::invariants); ++i) t += (i ? "," : "") + exact(default_gain<Entry>(i));
  return t;
}
namespace detail {
template <class, class = void>
struct has_principal_moments : std::false_type {};
template <class E>
struct has_principal_moments<E, std::void_t<decltype(E::principal_moments)>> : std::true_type {};
}  // namespace detail
// Three parameters the facts name as a rigid body's principal moments (`principal_moments`,
// their indices): a warning on stderr when they violate the triangle inequality.
template <class Entry>
void warn_principal_moments(const double* values) {
  if constexpr (detail::has_principal_moments<Entry>::value) {
    const int* k = Entry::principal_moments;
    const std::string what =
        std::string(Entry::params[k[0]].name) + ", " + Entry::params[k[1]].name + ", " + Entry::params[k[2]].name;
    warn_triangle(Entry::name, what.c_str(), values[k[0]], values[k[1]], values[k[2]]);
  }
}
namespace detail {
template <class, class = void>
struct has_discrete_starts : std::false_type {};
template <class E>
struct has_discrete_starts<E, std::void_t<decltype(E::template Extra<double>::discrete_q)>> : std::true_type {};
}  // namespace detail
// The length of --q1 for an entry whose extra methods are discrete (nonholonomic_baselines.hpp:
// --start, --q1), else 0 (no such options).
template <class Entry>
constexpr int discrete_q() {
  if constexpr (detail::has_discrete_starts<Entry>::value) return Entry::template Extra<double>::discrete_q;
  return 0;
}
// The start a discrete method runs from without --start: nh-verlet-remark5's own, else consistent.
inline std::string default_start(const std::string& method) {
  return method == "nh-verlet-remark5" ? "remark5" : "consistent";
}

// The --help text of --T's default: the entry's own, or the documented case's horizon.
template <class Entry>
std::string T_default_text() {
  if constexpr (detail::has_T_default<Entry>::value)
    return Entry::T_default;
  else
    return "default " + exact(Entry::documented.T);
}
// The sample states of the region a run of duration T reaches (feedback_entry.hpp).
template <class Entry, class Ref>
auto region_of(const Ref& ref, const Vec<double, Ref::N>& x0, double T) {
  if constexpr (detail::has_timed_region<Entry>::value)
    return Entry::region(ref, x0, T);
  else
    return Entry::region(ref, x0);
}

template <class Entry>
Spec feedback_spec() {
  Spec s(Entry::name, std::string("usage: attractor-sim ") + Entry::name + " [options]", Entry::about);
  s.group("physical parameters");
  for (const Param& p : params_of<Entry>()) {
    if (p.n == 1) {
      s.number(p.name, p.unit, p.def, p.range, p.help);
      continue;
    }
    std::string def;
    for (int i = 0; i < p.n; ++i) def += (i ? "," : "") + exact(p.defaults[i]);
    s.list(p.name, p.n, p.unit,
           std::string(p.help) + " (default " + def + "; each " + Range(p.range).describe("value") + ")");
  }
  s.group("initial condition");
  for (const StateOption& o : Entry::initial) s.list(o.name, o.n, o.meta, o.help);
  s.flag("project", "project the initial state onto the constraints instead of refusing");
  s.flag("keep-start",
         "keep an initial state that is off the constraints as given (the feedback pulls it back to the exact "
         "constraint targets; the summary reports the pull-back)");
  s.number("pullback-tol", "", 1e-5, positive(),
           "with --keep-start: the constraint deviation the pull-back must fall and stay below");
  s.group("numerics")
      .choice("method", method_names(extra_names<Entry>(), extra_count<Entry>()), default_method<Entry>(),
              "integration method (see below)");
  if constexpr (discrete_q<Entry>() > 0) {
    s.choice("start", {"consistent", "remark5", "pair"}, "consistent",
             "start of the discrete methods: consistent (nh-verlet: the continuous multiplier; dla: p0 as given), "
             "remark5 (nh-verlet: multiplier 0, as nh-verlet-remark5), pair (from q0 and --q1)");
    s.list("q1", discrete_q<Entry>(), "q",
           "with --start pair: the configuration at t = h (dla: on the method's discrete constraint)");
  }
  s.text("gains", "K|k1,..|auto", "feedback gains per invariant (default " + default_gains_text<Entry>() + ")")
      .number("h", "s", 1e-3, positive(), "step")
      .number_mode("T", "s", T_default_text<Entry>(), positive(), "duration; steps = round(T/h)")
      .choice("precision", {"float", "double"}, "double", "scalar type of the run")
      .flag("unchecked", "run a feedback method even when check_step refuses the step")
      .flag("force", "run more than 1e9 steps");
  s.group("output")
      .flag("measure",
            "measure the system's own field along the run: divergence_integral and log_measure_change (null "
            "without it; 2N extra field evaluations a step for a system without an analytic divergence)")
      .output("csv", "FILE", "time series: t, the state, then the signed deviations F_i(x) - F_i(x0)")
      .number("every", "", 1, between(1, 1e15), "CSV row every N steps (whole number; t = 0 is always written)")
      .flag("json", "summary as one JSON object instead of the one-line text");
  if constexpr (detail::has_notes<Entry>::value) s.notes(Entry::notes);
  s.notes(kFeedbackDriverNotes);
  return s;
}

// The validated inputs of a run, in double (cast to the run's precision after the range check).
struct FeedbackInputs {
  std::vector<double> params, x0;
  GainsOption gains;
  MethodChoice method;
  double h = 1e-3, T = 0;
  bool T_given = false, projected = false, force = false, unchecked = false;
  bool trust_default_gains = false;  // the entry's default gains run even where check_step refuses them
  bool kept_off_set = false;         // --keep-start: x0 off the constraints, kept as given
  double pullback_tol = 1e-5;        // the constraint deviation the pull-back time is measured to
  bool measure_volume = true;        // ∫ div X dt along the run (2N field evaluations a step without div);
                                     // the command line sets it from --measure
  std::string start;                 // a discrete method's start (consistent|remark5|pair); else empty
  std::vector<double> q1;            // --start pair: the configuration at t = h
  std::string csv;                   // time-series file; empty: none
  int64_t every = 1, steps = 0;
};

// Casting a double beyond the float range is undefined behaviour: every input is checked first.
template <class S>
void fit_precision(const char* what, double v) {
  if (!(std::abs(v) <= double(std::numeric_limits<S>::max())))
    throw Failure(exit_invalid, std::string(what) + " = " + exact(v) + " is beyond the range of " +
                                    (sizeof(S) == 4 ? "float" : "double"));
}

// The inputs of a run with every option at its default and the given method (what
// attractor-paper runs: the entry's paper or documented case).
template <class Entry>
FeedbackInputs feedback_defaults(const std::string& method) {
  constexpr int M = count_of(Entry::invariants);
  FeedbackInputs in;
  for (const Param& p : params_of<Entry>())
    for (int i = 0; i < p.n; ++i) in.params.push_back(p.default_value(i));
  in.method = parse_method(method, extra_names<Entry>(), extra_count<Entry>());
  if (discrete_q<Entry>() > 0 && in.method.kind == MethodKind::extra) in.start = default_start(method);
  double x0[Entry::template System<double>::N] = {};
  Entry::default_x0(Params(params_of<Entry>(), in.params.data()), x0);
  in.x0.assign(std::begin(x0), std::end(x0));
  for (int i = 0; i < M; ++i) in.gains.gains.push_back(default_gain<Entry>(i));
  in.trust_default_gains = trusts_default_gains<Entry>();
  return in;
}

// --start and --q1 (an entry with discrete methods): refused with any other method (exit 2), --q1
// without --start pair and the reverse (exit 2), remark5 with dla (exit 2).
template <class Entry>
void parse_discrete_start(const Args& a, FeedbackInputs& in) {
  const std::string& m = in.method.name;
  if (in.method.kind != MethodKind::extra) {
    a.forbid("start", "to --method " + m + " (the discrete methods only)");
    a.forbid("q1", "to --method " + m + " (the discrete methods only)");
    return;
  }
  const std::string start = a.choice("start");
  if (start != "pair") a.forbid("q1", "without --start pair");
  if (start == "pair" && !a.given("q1"))
    throw Failure(exit_usage, "--start pair requires --q1 (the configuration at t = h)");
  if (m == "nh-verlet-remark5" && start != "remark5")
    a.forbid("start", "to --method nh-verlet-remark5 (it is --method nh-verlet --start remark5)");
  if (Entry::template Extra<double>::is_dla(in.method.extra) && start == "remark5")
    throw Failure(exit_usage, "--start remark5 does not apply to --method " + m +
                                  " (Remark 5's multiplier 0 is nh-verlet's start)");
  in.start = a.given("start") ? start : default_start(m);
  if (start == "pair") in.q1 = a.list("q1", {});
}

// Validates the command line, in double (each run casts to its precision after its own range check).
template <class Entry>
FeedbackInputs feedback_inputs(const Args& a) {
  constexpr int M = count_of(Entry::invariants);
  FeedbackInputs in;
  for (const Param& p : params_of<Entry>()) {
    if (p.n == 1) {
      in.params.push_back(a.num(p.name));
      continue;
    }
    const std::vector<double> v = a.list(p.name, std::vector<double>(p.defaults, p.defaults + p.n));
    for (int i = 0; i < p.n; ++i) {
      if (!p.range.contains(v[std::size_t(i)]))
        throw Failure(exit_invalid, std::string("--") + p.name + ": element " + std::to_string(i + 1) + " = " +
                                        exact(v[std::size_t(i)]) + " is outside its range: need " +
                                        Range(p.range).describe("value"));
      in.params.push_back(v[std::size_t(i)]);
    }
  }
  check_params<Entry>(in.params.data());
  warn_principal_moments<Entry>(in.params.data());
  in.h = a.num("h");
  in.T_given = a.given("T");
  if (in.T_given) in.T = a.num("T", 0);
  in.force = a.flag("force"), in.unchecked = a.flag("unchecked"), in.csv = a.text("csv");
  in.measure_volume = a.flag("measure");
  const double every = a.num("every");
  if (every != std::floor(every)) throw Failure(exit_invalid, "--every = " + exact(every) + " is not a whole number");
  in.every = static_cast<int64_t>(every);
  if (!a.given("csv")) a.forbid("every", "without --csv");
  in.method = parse_method(a.choice("method"), extra_names<Entry>(), extra_count<Entry>());
  if constexpr (discrete_q<Entry>() > 0) parse_discrete_start<Entry>(a, in);
  if (!in.method.feedback()) {
    a.forbid("gains", "to --method " + in.method.name + " (feedback-* methods only)");
    a.forbid("unchecked", "to --method " + in.method.name + " (feedback-* methods only)");
  }
  const Params pv(params_of<Entry>(), in.params.data());
  double x0[Entry::template System<double>::N] = {};
  Entry::default_x0(pv, x0);
  int at = 0;
  for (const StateOption& o : Entry::initial) {
    const std::vector<double> v = a.list(o.name, std::vector<double>(x0 + at, x0 + at + o.n));
    for (int i = 0; i < o.n; ++i) x0[at + i] = v[std::size_t(i)];
    at += o.n;
  }
  const std::string off = Entry::off_constraint(pv, x0);
  if (a.flag("keep-start")) a.forbid("project", "with --keep-start (keep the start or project it)");
  if (!a.flag("keep-start")) a.forbid("pullback-tol", "without --keep-start");
  in.pullback_tol = a.num("pullback-tol");
  if (!off.empty() && a.flag("keep-start")) {
    in.kept_off_set = true;
  } else if (!off.empty()) {
    if (!a.flag("project"))
      throw Failure(exit_invalid, off + " (use --project to project it, --keep-start to keep it)");
    const std::string why = Entry::project(pv, x0);
    if (!why.empty()) throw Failure(exit_invalid, why);
    in.projected = true;
  }
  if (at != Entry::template System<double>::N)
    throw std::logic_error("feedback entry: initial options do not add up to N");
  in.x0.assign(x0, x0 + at);
  in.gains = parse_gains(a, M, 0);
  if (!a.given("gains")) {
    for (int i = 0; i < M; ++i) in.gains.gains[std::size_t(i)] = default_gain<Entry>(i);
    in.trust_default_gains = trusts_default_gains<Entry>() && !a.given("h");  // the paper's gains at its step
  }
  return in;
}

}  // namespace attractor::cli
