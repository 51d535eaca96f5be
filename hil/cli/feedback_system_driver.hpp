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
// scheme is a run-time table, method_table.hpp). The options and their validation:
// feedback_inputs.hpp; feedback_simulate() is the run without the command line (attractor-paper
// runs entries through it); feedback_run_typed() is the command with its outcome as values (the
// rule tests call it, feedback_system_runs.hpp). Host-only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/measure.hpp"
#include "auto_gains.hpp"
#include "commands.hpp"
#include "feedback_entry.hpp"
#include "feedback_inputs.hpp"
#include "feedback_summary.hpp"
#include "feedback_system_runs.hpp"
#include "method_table.hpp"
#include "run_report.hpp"
#include "run_support.hpp"
#include "spec.hpp"
#include "typed_run.hpp"

namespace attractor::cli {

// Refuses (exit 3) a feedback step that check_step rejects at a sample state of the region.
template <class FB, class State, std::size_t K>
void check_region(const FB& fb, Scheme sc, typename FB::Scalar h, const State (&region)[K], bool unchecked,
                  const char* trusted = nullptr) {
  using S = typename FB::Scalar;
  double worst = 0;
  Error e = Error::none;
  for (const State& x : region) {
    worst = std::max(worst, double(h * fb.stiffness(x)));
    if (e == Error::none) e = fb.check_step(sc, h, x);
  }
  if (e == Error::none || unchecked) return;
  char b[500];
  if (trusted != nullptr) {
    std::fprintf(stderr,
                 "%s: note: check_step refuses the default gains (h * stiffness up to %.4g, the %s limit is %.4g); "
                 "they are the paper's and run as the paper ran them (give --gains to have gains checked)\n",
                 trusted, worst, to_string(sc), double(real_stability_limit<S>(sc)));
    return;
  }
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

// The largest |F_i - target_i| of the constraint and group rows (the rows with an exact target;
// the monitor's reference holds the targets).
inline double constraint_deviation(const InvariantMonitor& mon, const double* F) {
  double d = 0;
  for (int i = 0; i < mon.size(); ++i)
    if (mon.info(i).kind == InvariantKind::constraint || mon.info(i).kind == InvariantKind::group)
      d = std::max(d, std::abs(F[i] - mon.initial(i)));
  return d;
}

// The measuring loop: steps the chosen method, records the invariants and the divergence of X
// (measured with the double system) of every state, writes the CSV, stops on blow-up. Instantiated once per system and
// precision.
template <class Entry, class Sys, class Ref, class FB, class Extra>
LoopResult<Sys::N> measure(const FeedbackInputs& in, const Sys& sys, const Ref& ref, const FB& fb, Extra& extra,
                           const Vec<typename Sys::Scalar, Sys::N>& x0, InvariantMonitor& mon, Csv& csv) {
  using S = typename Sys::Scalar;
  constexpr int N = Sys::N, M = Sys::M;
  const S h = S(in.h);  // a normal number of S: feedback_simulate checked it (step_in_precision)
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
  if (in.kept_off_set) r.pullback_initial = r.pullback_final = constraint_deviation(mon, ref.invariants(r.last).data());
  bool below = in.kept_off_set && r.pullback_initial < in.pullback_tol;
  if (below) r.pullback_time = 0;
  // Only a measured run differentiates the field (2N evaluations a state without div X).
  std::optional<MeasureTracker<Ref>> volume;
  if (in.measure_volume) volume.emplace(ref, r.last);
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
    if (volume) volume->record(xd, in.h);
    if (in.kept_off_set) {
      r.pullback_final = constraint_deviation(mon, F.data());
      if (!(r.pullback_final < in.pullback_tol))
        below = false, r.pullback_time = NAN;
      else if (!below)
        below = true, r.pullback_time = double(r.done) * in.h;
    }
    if (in.method.feedback()) r.max_hs = std::max(r.max_hs, double(h * fb.stiffness(x)));
    if (r.done % in.every == 0) emit(double(r.done) * in.h, xd);
    if (!go) break;
    progress.tick(r.done);
  }
  csv.close();
  r.divergence_integral = volume ? volume->divergence_integral() : NAN;
  r.log_measure_change = volume ? volume->log_measure_change() : NAN;
  return r;
}

// One run in precision S: validated inputs in, measured outcome out (Failure on refusal).
template <class Entry, class S>
FeedbackOutcome<Entry::template System<S>::N> feedback_simulate(FeedbackInputs in) {
  using Sys = typename Entry::template System<S>;
  using Ref = typename Entry::template System<double>;
  constexpr int N = Sys::N, M = Sys::M;
  const ParamTable P = params_of<Entry>();
  const int V = P.values();
  static_assert(count_of(Entry::states) == N && count_of(Entry::invariants) == M,
                "feedback entry: one name per state and per invariant");
  using State = Vec<S, N>;
  std::size_t v = 0;
  for (const Param& p : P)
    for (int k = 0; k < p.n; ++k) fit_precision<S>((std::string("--") + p.name).c_str(), in.params[v++]);
  for (int i = 0; i < N; ++i) fit_precision<S>("the initial state", in.x0[std::size_t(i)]);
  for (int i = 0; i < M; ++i) fit_precision<S>("--gains", in.gains.gains[std::size_t(i)]);
  // Before the step count: a step of 0 would count no steps and pass every stability check.
  const S h = step_in_precision<S>(in.h);
  std::vector<double> pr(static_cast<std::size_t>(V));  // the parameters as the run's precision holds them
  for (int i = 0; i < V; ++i) pr[std::size_t(i)] = double(S(in.params[std::size_t(i)]));
  check_params<Entry>(in.params.data());
  // Refused in double first (a bad parameter), then in the run's precision (not representable).
  (void)made_or_refused(Entry::template make<double>(Params(P, in.params.data())));
  const Sys sys = made_or_refused(Entry::template make<S>(Params(P, in.params.data())),
                                  "parameters not representable in this precision");
  // Deviations are measured with the double system of the very parameters the run uses.
  const Ref ref = made_or_refused(Entry::template make<double>(Params(P, pr.data())));
  State x0;
  for (int i = 0; i < N; ++i) x0[i] = S(in.x0[std::size_t(i)]);
  Vec<double, N> x0d = x0.template cast<double>();
  const double T = in.T_given ? in.T : Entry::default_T(ref, x0d);
  in.steps = step_count(T, in.h, in.force);

  // Only a feedback step needs the reachable region (auto gains, check_step): the other methods
  // skip the accurate run that samples it.
  const bool fbm = in.method.feedback();
  using Region = decltype(region_of<Entry>(ref, x0d, T));
  const Region region_d = fbm ? region_of<Entry>(ref, x0d, T) : Region{};
  State region[std::tuple_size<Region>::value];
  if (fbm)
    for (std::size_t k = 0; k < region_d.size(); ++k) region[k] = region_d[k].template cast<S>();
  const Scheme sc = in.method.scheme;
  Vec<S, M> K;
  for (int i = 0; i < M; ++i) K[i] = S(in.gains.gains[std::size_t(i)]);
  if (fbm && in.gains.automatic) K = auto_gains(sys, region, sc, h);
  const Result<Feedback<Sys>> fbr = Feedback<Sys>::make(sys, x0, K);
  if (fbm && !fbr)
    throw Failure(exit_invalid, std::string("feedback integrator refused the gains (") + to_string(fbr.error()) + ")");
  const Feedback<Sys> fb = fbr ? *fbr : Feedback<Sys>{};
  if (fbm)
    check_region(fb, sc, h, region, in.unchecked,
                 in.trust_default_gains && !in.gains.automatic ? Entry::name : nullptr);
  typename ExtraOf<Entry, S>::type extra{};
  if constexpr (discrete_q<Entry>() > 0) {
    for (double q : in.q1) fit_precision<S>("--q1", q);
    if (in.method.kind == MethodKind::extra) extra.choose_start(in.start, in.q1.empty() ? nullptr : in.q1.data(), in.h);
  }
  if (in.method.kind == MethodKind::extra)
    if (const char* why = extra.start(in.method.extra, sys, x0))
      throw Failure(exit_invalid, in.method.name + " refused the initial state (" + why + ")");
  // A pair start determines the momentum: the run (and its summary) starts from the method's state.
  if constexpr (discrete_q<Entry>() > 0)
    if (in.start == "pair") extra.started(in.method.extra, sys, x0), x0d = x0.template cast<double>();

  Csv csv;
  if (!in.csv.empty()) {
    csv.open(in.csv);
    csv.print("t");
    for (const char* s : Entry::states) csv.print(",%s", s);
    for (const InvariantInfo& f : Entry::invariants) csv.print(",d%s", f.name);
    csv.print("\n");
  }
  if (in.kept_off_set && !has_invariant_targets_v<Ref>)
    throw Failure(exit_invalid, std::string(Entry::name) +
                                    " has no exact constraint targets: --keep-start would hold "
                                    "the start's own constraint values (use --project)");
  // A kept start off the constraints is measured from the exact targets (what the feedback pulls
  // to), not from its own constraint values.
  Vec<double, M> F0 = ref.invariants(x0d);
  if (in.kept_off_set) F0 = invariant_reference(ref, F0);
  FeedbackOutcome<N> o{
      InvariantMonitor(Entry::invariants, M, F0.data()), {}, {}, pr, x0d, double(real_stability_limit<S>(sc))};
  o.r = measure<Entry>(in, sys, ref, fb, extra, x0, o.mon, csv);
  o.rep.precision = sizeof(S) == 4 ? "float" : "double";
  if (fbm) o.rep.gains.assign(K.data(), K.data() + M), o.rep.gains_auto = in.gains.automatic;
  for (double& k : o.rep.gains) k = double(S(k));
  if constexpr (detail::has_exact<Entry>::value)
    o.rep.exact_error = exact_distance(o.r.last, Entry::exact(ref, x0d, double(o.r.done) * in.h));
  return o;
}

template <class Entry, class S>
int feedback_run_as(const Args& a, const FeedbackInputs& in) {
  using Ref = typename Entry::template System<double>;
  const auto o = feedback_simulate<Entry, S>(in);
  const Ref ref = *Entry::template make<double>(Params(params_of<Entry>(), o.params.data()));
  return report_run<Entry>(a, in, o.params, ref, o.x0, o.mon, o.r, o.rep, o.limit);
}

// One run's --json summary as a value (what feedback_system_runs.hpp hands to tests).
template <class Entry, class S>
Json feedback_summary(const FeedbackInputs& in) {
  using Ref = typename Entry::template System<double>;
  const auto o = feedback_simulate<Entry, S>(in);
  const Ref ref = *Entry::template make<double>(Params(params_of<Entry>(), o.params.data()));
  Json extra = Json::object();
  std::string extra_text;
  if constexpr (detail::has_report<Entry>::value) Entry::report(ref, o.x0, extra, extra_text);
  return summary_json<Entry>(in, o.params, o.x0, o.mon, o.r, finished_report<Entry>(in, o.r, o.rep), o.limit, extra);
}

// The command as a typed call (feedback_system_runs.hpp): its validation and run, the outcome as values.
template <class Entry>
FeedbackRunResult feedback_run_typed(const std::vector<std::string>& args) {
  static const Spec spec = feedback_spec<Entry>();
  return typed_run(spec, args, [](const Args& a, FeedbackRunResult& out) {
    const FeedbackInputs in = feedback_inputs<Entry>(a);
    out.summary =
        a.choice("precision") == "float" ? feedback_summary<Entry, float>(in) : feedback_summary<Entry, double>(in);
    if (!out.summary["stopped"].is_null())
      out.code = exit_blowup, out.message = out.summary["stopped"].get<std::string>();
  });
}

// Validates the command line and dispatches on the precision.
template <class Entry>
int feedback_run(const Args& a) {
  const FeedbackInputs in = feedback_inputs<Entry>(a);
  if (a.choice("precision") == "float") return feedback_run_as<Entry, float>(a, in);
  return feedback_run_as<Entry, double>(a, in);
}

}  // namespace attractor::cli

// An entry's runs (feedback_simulate in float and double: the system, its integrators and the
// measuring loop, most of a tool's compile time) are compiled once, in the entry's .cpp under
// hil/sim/ (ATTRACTOR_REGISTER_FEEDBACK_SYSTEM instantiates them), and linked by every tool that
// runs the entry: its header ends with ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(Entry), so attractor-paper's
// reports call them instead of compiling them again (hil/CMakeLists.txt links the sim systems
// into attractor-paper). An entry without the extern line still works; it compiles twice.
#define ATTRACTOR_FEEDBACK_SIMULATE_AS(prefix, Entry, S)                        \
  prefix template attractor::cli::FeedbackOutcome<Entry::template System<S>::N> \
  attractor::cli::feedback_simulate<Entry, S>(attractor::cli::FeedbackInputs)
#define ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(Entry)         \
  ATTRACTOR_FEEDBACK_SIMULATE_AS(extern, Entry, float); \
  ATTRACTOR_FEEDBACK_SIMULATE_AS(extern, Entry, double)

// One line per system: ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(MyEntry); in the entry's .cpp under hil/sim/.
// The system is also registered as a typed call (feedback_system_runs.hpp), for the rule tests.
#define ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(Entry)                                                        \
  ATTRACTOR_FEEDBACK_SIMULATE_AS(, Entry, float);                                                        \
  ATTRACTOR_FEEDBACK_SIMULATE_AS(, Entry, double);                                                       \
  ATTRACTOR_REGISTER_COMMAND(attractor::cli::SimSystems, Entry::name, Entry::summary,                    \
                             attractor::cli::feedback_spec<Entry>, attractor::cli::feedback_run<Entry>); \
  ATTRACTOR_REGISTER(attractor::cli::FeedbackSystems, Entry::name, Entry::summary,                       \
                     attractor::cli::feedback_run_typed<Entry>)
