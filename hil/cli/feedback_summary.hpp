// SPDX-License-Identifier: Apache-2.0
// What a feedback-system run reports (feedback_system_driver.hpp): the measuring loop's result, the
// run's report under the entry's names, the --json summary object and the one-line text. One
// summary builder serves the command and its typed outcome (feedback_system_runs.hpp). Host-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "attractor/core/types.hpp"
#include "feedback_entry.hpp"
#include "feedback_inputs.hpp"
#include "invariant_monitor.hpp"
#include "run_report.hpp"
#include "spec.hpp"

namespace attractor::cli {

// What the measuring loop hands to the summary.
template <int N>
struct LoopResult {
  int64_t done = 0;
  double max_hs = 0;
  Vec<double, N> last;              // last finite state, in double
  double divergence_integral = 0;   // ∫ div X dt of the system's own field (integrate/measure.hpp)
  double log_measure_change = NAN;  // NaN: no invariant density known
  // --keep-start: the largest |F_i - target_i| over the constraint and group rows at x0 and at the
  // end, and the time from which it stays below the tolerance (NaN: it never does).
  double pullback_initial = NAN, pullback_final = NAN, pullback_time = NAN;
};

// |x - exact| over the components the exact solution gives (NaN: no closed form); NaN if none.
template <int N>
double exact_distance(const Vec<double, N>& x, const Vec<double, N>& exact) {
  double s = 0;
  bool any = false;
  for (int i = 0; i < N; ++i)
    if (!std::isnan(exact[i])) s += (x[i] - exact[i]) * (x[i] - exact[i]), any = true;
  return any ? std::sqrt(s) : double(NAN);
}

// The run's report: what the loop did, under the entry's names.
template <class Entry, int N>
RunReport finished_report(const FeedbackInputs& in, const LoopResult<N>& r, RunReport rep) {
  rep.system = Entry::name, rep.method = in.method.name, rep.h = in.h, rep.steps = r.done;
  rep.t_end = double(r.done) * in.h, rep.state_names = Entry::states;
  rep.final_state.assign(r.last.data(), r.last.data() + N);
  rep.divergence_integral = r.divergence_integral, rep.log_measure_change = r.log_measure_change;
  return rep;
}

// The --json summary object; `extra` holds the entry's own fields (Entry::report).
template <class Entry, int N>
Json summary_json(const FeedbackInputs& in, const std::vector<double>& params, const Vec<double, N>& x0d,
                  const InvariantMonitor& mon, const LoopResult<N>& r, const RunReport& rep, double limit,
                  const Json& extra) {
  Json j;
  report_head(j, rep);
  std::size_t v = 0;
  for (const Param& p : params_of<Entry>()) {
    if (p.n == 1) {
      j[p.name] = num(params[v++]);
      continue;
    }
    j[p.name] = Json::array();
    for (int i = 0; i < p.n; ++i) j[p.name].push_back(num(params[v++]));
  }
  int at = 0;
  for (const StateOption& o : Entry::initial) {
    j[o.name] = Json::array();
    for (int i = 0; i < o.n; ++i) j[o.name].push_back(num(x0d[at++]));
  }
  j["projected"] = in.projected;
  if (!in.start.empty()) j["start"] = in.start;
  if (!in.q1.empty()) {
    j["q1"] = Json::array();
    for (double q : in.q1) j["q1"].push_back(num(q));
  }
  if (in.method.feedback()) j["max_h_stiffness"] = num(r.max_hs), j["stability_limit"] = limit;
  j["kept_start"] = in.kept_off_set;
  if (in.kept_off_set)
    j["pullback"] = {{"initial_deviation", num(r.pullback_initial)},
                     {"final_deviation", num(r.pullback_final)},
                     {"tolerance", in.pullback_tol},
                     {"time_below_tolerance", num(r.pullback_time)}};
  for (auto& kv : extra.items()) j[kv.key()] = kv.value();
  report_tail(j, rep, mon);
  return j;
}

// Summary: --json object or the one-line text; exit 4 when the run stopped.
template <class Entry, class Ref>
int report_run(const Args& a, const FeedbackInputs& in, const std::vector<double>& params, const Ref& ref,
               const Vec<double, Ref::N>& x0d, const InvariantMonitor& mon, const LoopResult<Ref::N>& r,
               const RunReport& done, double limit) {
  const bool fbm = in.method.feedback();
  const RunReport rep = finished_report<Entry>(in, r, done);
  Json extra = Json::object();
  std::string extra_text;
  if constexpr (detail::has_report<Entry>::value) Entry::report(ref, x0d, extra, extra_text);
  if (a.flag("json")) {
    print_json(summary_json<Entry>(in, params, x0d, mon, r, rep, limit, extra));
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
    if (in.kept_off_set) {
      std::printf(" | pull-back %.3e -> %.3e", r.pullback_initial, r.pullback_final);
      if (std::isnan(r.pullback_time))
        std::printf(" (not below %g)", in.pullback_tol);
      else
        std::printf(" (below %g from t=%g)", in.pullback_tol, r.pullback_time);
    }
    std::printf("%s", extra_text.c_str());
    if (mon.stopped()) std::printf(" | STOPPED: %s at t=%g", mon.stopped(), rep.t_end);
    std::printf("\n");
  }
  if (mon.stopped()) std::fprintf(stderr, "%s: run stopped at t=%g: %s\n", Entry::name, rep.t_end, mon.stopped());
  return mon.stopped() ? exit_blowup : exit_ok;
}

// What one run gives the summary (and attractor-paper, which runs the entries itself).
template <int N>
struct FeedbackOutcome {
  InvariantMonitor mon;
  LoopResult<N> r;
  RunReport rep;
  std::vector<double> params;  // as the run's precision holds them
  Vec<double, N> x0;           // in double, as the run's precision holds it
  double limit = 0;            // the scheme's stability limit
};

}  // namespace attractor::cli
