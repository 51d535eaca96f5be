// SPDX-License-Identifier: Apache-2.0
// The fields every simulator summary shares (--json of attractor-sim's commands, the text line's
// invariant part): system, method, precision, h, steps, t_end, gains, gains_auto, invariants0,
// max_abs_dev, final_abs_dev (keyed by invariant name), constraint_error and energy_error (max
// over the rows of that kind, null when the system has none), exact_error (null without an exact
// solution), divergence_integral (∫ div X dt of the system's own field along the run,
// attractor/integrate/measure.hpp; null when not measured), log_measure_change (log ρ(x(t)) −
// log ρ(x0) + ∫ div X dt; null where no invariant density ρ is known), final_state (keyed by
// state name), stopped. Non-finite numbers are written as null,
// never as NaN/Inf tokens; `stopped` then says why. Host-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "invariant_monitor.hpp"
#include "run_support.hpp"

namespace attractor::cli {

struct RunReport {
  const char* system = "";
  std::string method;
  const char* precision = "double";
  double h = 0;
  int64_t steps = 0;  // steps actually taken
  double t_end = 0;
  std::vector<double> gains;  // per invariant row; empty: no feedback (null)
  bool gains_auto = false;
  double exact_error = NAN;                  // |x(t_end) - exact(t_end)|; NaN: no exact solution (null)
  const char* const* state_names = nullptr;  // n names
  std::vector<double> final_state;           // in double
  double divergence_integral = NAN;          // NaN: not measured (null)
  double log_measure_change = NAN;           // NaN: no invariant density known (null)
};

// The head of the summary: system .. t_end.
inline void report_head(Json& j, const RunReport& r) {
  j["system"] = r.system, j["method"] = r.method, j["precision"] = r.precision;
  j["h"] = num(r.h), j["steps"] = r.steps, j["t_end"] = num(r.t_end);
}

// The rest: gains .. stopped (the monitor's invariants and reason).
inline void report_tail(Json& j, const RunReport& r, const InvariantMonitor& mon) {
  if (r.gains.empty()) {
    j["gains"] = nullptr;
  } else {
    j["gains"] = Json::array();
    for (double k : r.gains) j["gains"].push_back(num(k));
  }
  j["gains_auto"] = r.gains_auto;
  for (int i = 0; i < mon.size(); ++i) j["invariants0"][mon.info(i).name] = num(mon.initial(i));
  for (int i = 0; i < mon.size(); ++i) j["max_abs_dev"][mon.info(i).name] = num(mon.max_abs(i));
  for (int i = 0; i < mon.size(); ++i) j["final_abs_dev"][mon.info(i).name] = num(mon.final_abs(i));
  j["constraint_error"] =
      mon.has(InvariantKind::constraint) ? num(mon.worst(InvariantKind::constraint)) : Json(nullptr);
  j["energy_error"] = mon.has(InvariantKind::energy) ? num(mon.worst(InvariantKind::energy)) : Json(nullptr);
  j["exact_error"] = num(r.exact_error);
  j["divergence_integral"] = num(r.divergence_integral);
  j["log_measure_change"] = num(r.log_measure_change);
  j["final_state"] = Json::object();
  for (std::size_t i = 0; i < r.final_state.size() && r.state_names; ++i)
    j["final_state"][r.state_names[i]] = num(r.final_state[i]);
  j["stopped"] = mon.stopped() ? Json(mon.stopped()) : Json(nullptr);
}

// The text line's invariant part: " f1 max=1.2e-10 fin=3.4e-11 ...".
inline std::string text_invariants(const InvariantMonitor& mon) {
  std::string s;
  char b[120];
  for (int i = 0; i < mon.size(); ++i) {
    std::snprintf(b, sizeof b, " %s max=%.2e fin=%.2e", mon.info(i).name, mon.max_abs(i), mon.final_abs(i));
    s += b;
  }
  return s;
}

}  // namespace attractor::cli
