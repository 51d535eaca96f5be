// SPDX-License-Identifier: Apache-2.0
// The one attractor-sim driver of feedback-integrator systems: an entry (feedback_entry.hpp)
// declares the system, its parameters, states, invariants, initial-state options and reachable
// region; ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(Entry) makes it a command with
//   --<params> --<initial options> --project   validated (exit 5), float-range checked
//   --method  feedback-euler|feedback-heun|feedback-rk4|euler|heun|rk4|<the entry's extras>
//   --gains K|k1,..,kM|auto  per invariant row; auto: auto_gains.hpp over the region
//   --h --T --precision --unchecked --force --csv --every --json --config
// and runs the measuring loop (invariant_monitor.hpp): deviations in double, blow-up stops
// (exit 4), check_step over the region (exit 3 unless --unchecked), progress on stderr, the
// summary of run_report.hpp. The system is instantiated once per precision and field (the
// scheme is a run-time table, method_table.hpp). Host-only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/measure.hpp"
#include "auto_gains.hpp"
#include "commands.hpp"
#include "feedback_entry.hpp"
#include "method_table.hpp"
#include "run_report.hpp"
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
    "validation: the initial state must lie on the constraints unless --project. The step count\n"
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
Spec feedback_spec() {
  Spec s(Entry::name, std::string("usage: attractor-sim ") + Entry::name + " [options]", Entry::about);
  s.group("physical parameters");
  for (const Param& p : Entry::params) s.number(p.name, p.unit, p.def, p.range, p.help);
  s.group("initial condition");
  for (const StateOption& o : Entry::initial) s.list(o.name, o.n, o.meta, o.help);
  s.flag("project", "project the initial state onto the constraints instead of refusing");
  s.group("numerics")
      .choice("method", method_names(extra_names<Entry>(), extra_count<Entry>()), "feedback-rk4",
              "integration method (see below)")
      .text("gains", "K|k1,..|auto", "feedback gains per invariant (default " + exact(Entry::default_gain) + " each)")
      .number("h", "s", 1e-3, positive(), "step")
      .number_mode("T", "s", Entry::T_default, positive(), "duration; steps = round(T/h)")
      .choice("precision", {"float", "double"}, "double", "scalar type of the run")
      .flag("unchecked", "run a feedback method even when check_step refuses the step")
      .flag("force", "run more than 1e9 steps");
  s.group("output")
      .text("csv", "FILE", "time series: t, the state, then the signed deviations F_i(x) - F_i(x0)")
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
  bool T_given = false, projected = false;
  int64_t every = 1, steps = 0;
};

// Casting a double beyond the float range is undefined behaviour: every input is checked first.
template <class S>
void fit_precision(const char* what, double v) {
  if (!(std::abs(v) <= double(std::numeric_limits<S>::max())))
    throw Failure(exit_invalid, std::string(what) + " = " + exact(v) + " is beyond the range of " +
                                    (sizeof(S) == 4 ? "float" : "double"));
}

// Refuses (exit 3) a feedback step that check_step rejects at a sample state of the region.
template <class FB, class State, std::size_t K>
void check_region(const FB& fb, Scheme sc, typename FB::Scalar h, const State (&region)[K], bool unchecked) {
  using S = typename FB::Scalar;
  double worst = 0;
  Error e = Error::none;
  for (const State& x : region) {
    worst = std::max(worst, double(h * fb.stiffness(x)));
    if (e == Error::none) e = fb.check_step(sc, h, x);
  }
  if (e == Error::none || unchecked) return;
  char b[500];
  std::snprintf(b, sizeof b,
                "step refused by check_step (%s): h * stiffness = %.4g at x0, up to %.4g over the sample states of "
                "the reachable region (see --help); the %s stability limit is %.4g; lower --h or --gains "
                "(--unchecked to run anyway)",
                to_string(e), double(h * fb.stiffness(region[0])), worst, to_string(sc),
                double(real_stability_limit<S>(sc)));
  throw Failure(exit_unstable, b);
}

// An entry without extra steppers.
template <class S>
struct NoExtraSteppers {
  template <class Sys, class State>
  const char* start(int, const Sys&, const State&) {
    return "no such method";
  }
  template <class Sys, class State>
  const char* step(int, const Sys&, State&, S) {
    return "no such method";
  }
};
template <class Entry, class S, bool = detail::has_extra<Entry>::value>
struct ExtraOf {
  using type = NoExtraSteppers<S>;
};
template <class Entry, class S>
struct ExtraOf<Entry, S, true> {
  using type = typename Entry::template Extra<S>;
};

// What the measuring loop hands to the summary.
template <int N>
struct LoopResult {
  int64_t done = 0;
  double max_hs = 0;
  Vec<double, N> last;  // last finite state, in double
  double divergence_integral = 0;  // ∫ div X dt of the system's own field (integrate/measure.hpp)
  double log_measure_change = NAN;  // NaN: no invariant density known
};

// The measuring loop: steps the chosen method, records the invariants and the divergence of X
// (measured with the double system) of every state, writes the CSV, stops on blow-up. Instantiated once per system and precision.
template <class Entry, class Sys, class Ref, class FB, class Extra>
LoopResult<Sys::N> measure(const FeedbackInputs& in, const Sys& sys, const Ref& ref, const FB& fb, Extra& extra,
                           const Vec<typename Sys::Scalar, Sys::N>& x0, InvariantMonitor& mon, Csv& csv) {
  using S = typename Sys::Scalar;
  constexpr int N = Sys::N, M = Sys::M;
  const S h = S(in.h);
  const RuntimeTableau<S> rt = runtime_tableau<S>(in.method.scheme);
  auto emit = [&](double t, const Vec<double, N>& x) {
    if (!csv.is_open()) return;
    csv.print("%.6f", t);
    for (int i = 0; i < N; ++i) csv.print(",%.10g", x[i]);
    for (int i = 0; i < M; ++i) csv.print(",%.6e", t == 0 ? 0.0 : mon.deviation(i));
    csv.print("\n");
  };
  LoopResult<N> r;
  r.last = x0.template cast<double>();
  if (in.method.feedback()) r.max_hs = double(h * fb.stiffness(x0));
  Progress progress(Entry::name, in.steps);
  emit(0, r.last);
  Vec<S, N> x = x0;
  MeasureTracker<Ref> volume(ref, r.last);
  for (int64_t k = 0; k < in.steps; ++k) {
    switch (in.method.kind) {
      case MethodKind::feedback: scheme_step(rt, fb, x, h); break;
      case MethodKind::plain: scheme_step(rt, sys, x, h); break;
      case MethodKind::extra:
        if (const char* why = extra.step(in.method.extra, sys, x, h)) mon.stop(why);
        break;
    }
    if (mon.stopped()) break;
    const Vec<double, N> xd = x.template cast<double>();
    const Vec<double, M> F = ref.invariants(xd);
    const int64_t before = mon.records();
    const bool go = mon.record(F.data(), all_finite(xd));
    if (mon.records() == before) break;  // non-finite: not a state of the run
    r.done = k + 1, r.last = xd;
    volume.record(xd, in.h);
    if (in.method.feedback()) r.max_hs = std::max(r.max_hs, double(h * fb.stiffness(x)));
    if (r.done % in.every == 0) emit(double(r.done) * in.h, xd);
    if (!go) break;
    progress.tick(r.done);
  }
  csv.close();
  r.divergence_integral = volume.divergence_integral();
  r.log_measure_change = volume.log_measure_change();
  return r;
}

// Summary: --json object or the one-line text; exit 4 when the run stopped.
template <class Entry, class Ref>
int report_run(const Args& a, const FeedbackInputs& in, const std::vector<double>& params, const Ref& ref,
               const Vec<double, Ref::N>& x0d, const InvariantMonitor& mon, const LoopResult<Ref::N>& r, RunReport rep,
               double limit) {
  const bool fbm = in.method.feedback();
  rep.system = Entry::name, rep.method = in.method.name, rep.h = in.h, rep.steps = r.done;
  rep.t_end = double(r.done) * in.h, rep.state_names = Entry::states;
  rep.final_state.assign(r.last.data(), r.last.data() + Ref::N);
  rep.divergence_integral = r.divergence_integral, rep.log_measure_change = r.log_measure_change;
  if constexpr (detail::has_exact<Entry>::value) rep.exact_error = (r.last - Entry::exact(ref, x0d, rep.t_end)).norm();
  Json extra = Json::object();
  std::string extra_text;
  if constexpr (detail::has_report<Entry>::value) Entry::report(ref, x0d, extra, extra_text);
  if (a.flag("json")) {
    Json j;
    report_head(j, rep);
    for (int i = 0; i < count_of(Entry::params); ++i) j[Entry::params[i].name] = num(params[std::size_t(i)]);
    int at = 0;
    for (const StateOption& o : Entry::initial) {
      j[o.name] = Json::array();
      for (int i = 0; i < o.n; ++i) j[o.name].push_back(num(x0d[at++]));
    }
    j["projected"] = in.projected;
    if (fbm) j["max_h_stiffness"] = num(r.max_hs), j["stability_limit"] = limit;
    for (auto& kv : extra.items()) j[kv.key()] = kv.value();
    report_tail(j, rep, mon);
    print_json(j);
  } else {
    std::printf("%s %s %s h=%g steps=%lld t=%g:%s", Entry::name, rep.method.c_str(), rep.precision, in.h,
                static_cast<long long>(r.done), rep.t_end, text_invariants(mon).c_str());
    if (fbm) {
      std::printf(" | max h*stiffness=%.3g (limit %.4g)", r.max_hs, limit);
      if (in.gains.automatic) {
        std::printf(" | auto gains");
        for (std::size_t i = 0; i < rep.gains.size(); ++i) std::printf("%s%.4g", i ? "," : " ", rep.gains[i]);
      }
    }
    if (std::isfinite(rep.exact_error)) std::printf(" | exact error=%.3e", rep.exact_error);
    std::printf("%s", extra_text.c_str());
    if (mon.stopped()) std::printf(" | STOPPED: %s at t=%g", mon.stopped(), rep.t_end);
    std::printf("\n");
  }
  if (mon.stopped()) std::fprintf(stderr, "%s: run stopped at t=%g: %s\n", Entry::name, rep.t_end, mon.stopped());
  return mon.stopped() ? exit_blowup : exit_ok;
}

// One run in precision S.
template <class Entry, class S>
int feedback_run_as(const Args& a, FeedbackInputs in) {
  using Sys = typename Entry::template System<S>;
  using Ref = typename Entry::template System<double>;
  constexpr int N = Sys::N, M = Sys::M, P = count_of(Entry::params);
  static_assert(count_of(Entry::states) == N && count_of(Entry::invariants) == M,
                "feedback entry: one name per state and per invariant");
  using State = Vec<S, N>;
  for (int i = 0; i < P; ++i) fit_precision<S>((std::string("--") + Entry::params[i].name).c_str(), in.params[i]);
  for (int i = 0; i < N; ++i) fit_precision<S>("the initial state", in.x0[std::size_t(i)]);
  for (int i = 0; i < M; ++i) fit_precision<S>("--gains", in.gains.gains[std::size_t(i)]);
  fit_precision<S>("--h", in.h);
  std::vector<double> pr(static_cast<std::size_t>(P));  // the parameters as the run's precision holds them
  for (int i = 0; i < P; ++i) pr[std::size_t(i)] = double(S(in.params[std::size_t(i)]));
  // Deviations are measured with the double system of the very parameters the run uses; asked
  // first, so that a combination the model refuses (each value in range) is named as such.
  const Result<Ref> refr = Entry::template make<double>(Params(Entry::params, pr.data(), P));
  if (!refr) throw Failure(exit_invalid, std::string("parameters refused (") + to_string(refr.error()) + ")");
  const Ref ref = *refr;
  const Result<Sys> made = Entry::template make<S>(Params(Entry::params, in.params.data(), P));
  if (!made)
    throw Failure(exit_invalid,
                  std::string("parameters not representable in this precision (") + to_string(made.error()) + ")");
  const Sys sys = *made;
  State x0;
  for (int i = 0; i < N; ++i) x0[i] = S(in.x0[std::size_t(i)]);
  const Vec<double, N> x0d = x0.template cast<double>();
  in.steps = step_count(in.T_given ? in.T : Entry::default_T(ref, x0d), in.h, a.flag("force"));

  const auto region_d = Entry::region(ref, x0d);
  State region[std::tuple_size<decltype(region_d)>::value];
  for (std::size_t k = 0; k < region_d.size(); ++k) region[k] = region_d[k].template cast<S>();
  const Scheme sc = in.method.scheme;
  const S h = S(in.h);
  Vec<S, M> K;
  for (int i = 0; i < M; ++i) K[i] = S(in.gains.gains[std::size_t(i)]);
  const bool fbm = in.method.feedback();
  if (fbm && in.gains.automatic) K = auto_gains(sys, region, sc, h);
  const Result<Feedback<Sys>> fbr = Feedback<Sys>::make(sys, x0, K);
  if (fbm && !fbr)
    throw Failure(exit_invalid, std::string("feedback integrator refused the gains (") + to_string(fbr.error()) + ")");
  const Feedback<Sys> fb = fbr ? *fbr : Feedback<Sys>{};
  if (fbm) check_region(fb, sc, h, region, a.flag("unchecked"));
  typename ExtraOf<Entry, S>::type extra{};
  if (in.method.kind == MethodKind::extra)
    if (const char* why = extra.start(in.method.extra, sys, x0))
      throw Failure(exit_invalid, in.method.name + " refused the initial state (" + why + ")");

  Csv csv;
  if (a.given("csv")) {
    csv.open(a.text("csv"));
    csv.print("t");
    for (const char* s : Entry::states) csv.print(",%s", s);
    for (const InvariantInfo& f : Entry::invariants) csv.print(",d%s", f.name);
    csv.print("\n");
  }
  const Vec<double, M> F0 = ref.invariants(x0d);
  InvariantMonitor mon(Entry::invariants, M, F0.data());
  const LoopResult<N> r = measure<Entry>(in, sys, ref, fb, extra, x0, mon, csv);
  RunReport rep;
  rep.precision = sizeof(S) == 4 ? "float" : "double";
  if (fbm) rep.gains.assign(K.data(), K.data() + M), rep.gains_auto = in.gains.automatic;
  for (double& k : rep.gains) k = double(S(k));
  return report_run<Entry>(a, in, pr, ref, x0d, mon, r, rep, double(real_stability_limit<S>(sc)));
}

// Validates the command line (in double) and dispatches on the precision.
template <class Entry>
int feedback_run(const Args& a) {
  constexpr int P = count_of(Entry::params), M = count_of(Entry::invariants);
  FeedbackInputs in;
  for (const Param& p : Entry::params) in.params.push_back(a.num(p.name));
  in.h = a.num("h");
  in.T_given = a.given("T");
  if (in.T_given) in.T = a.num("T", 0);
  const double every = a.num("every");
  if (every != std::floor(every)) throw Failure(exit_invalid, "--every = " + exact(every) + " is not a whole number");
  in.every = static_cast<int64_t>(every);
  if (!a.given("csv")) a.forbid("every", "without --csv");
  in.method = parse_method(a.choice("method"), extra_names<Entry>(), extra_count<Entry>());
  if (!in.method.feedback()) {
    a.forbid("gains", "to --method " + in.method.name + " (feedback-* methods only)");
    a.forbid("unchecked", "to --method " + in.method.name + " (feedback-* methods only)");
  }
  const Params pv(Entry::params, in.params.data(), P);
  double x0[Entry::template System<double>::N] = {};
  Entry::default_x0(pv, x0);
  int at = 0;
  for (const StateOption& o : Entry::initial) {
    const std::vector<double> v = a.list(o.name, std::vector<double>(x0 + at, x0 + at + o.n));
    for (int i = 0; i < o.n; ++i) x0[at + i] = v[std::size_t(i)];
    at += o.n;
  }
  const std::string off = Entry::off_constraint(pv, x0);
  if (!off.empty()) {
    if (!a.flag("project")) throw Failure(exit_invalid, off + " (use --project to project it)");
    const std::string why = Entry::project(pv, x0);
    if (!why.empty()) throw Failure(exit_invalid, why);
    in.projected = true;
  }
  if (at != Entry::template System<double>::N)
    throw std::logic_error("feedback entry: initial options do not add up to N");
  in.x0.assign(x0, x0 + at);
  in.gains = parse_gains(a, M, Entry::default_gain);
  if (a.choice("precision") == "float") return feedback_run_as<Entry, float>(a, in);
  return feedback_run_as<Entry, double>(a, in);
}

}  // namespace attractor::cli

// One line per system: ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(MyEntry); in the entry's .cpp under hil/sim/.
#define ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(Entry)                                     \
  ATTRACTOR_REGISTER_COMMAND(attractor::cli::SimSystems, Entry::name, Entry::summary, \
                             attractor::cli::feedback_spec<Entry>, attractor::cli::feedback_run<Entry>)
