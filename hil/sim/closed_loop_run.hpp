// SPDX-License-Identifier: Apache-2.0
// What every closed-loop command of attractor-sim (skate, spherical-robot, wheel-pendulum) does
// the same way, written once: the law as the plant sees it (at every stage, or sampled with
// --control-rate/--noise and held in between: closed_loop_options.hpp), and the summary of a
// plant kept upright (its tilt, and the fall: the up component of the vertical crossing 0).
// A command keeps only what its plant knows: model, law, state, invariants, CSV columns. Host tool.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>

#include "args.hpp"
#include "closed_loop_options.hpp"
#include "run_support.hpp"
#include "sim_run_checks.hpp"

namespace attractor::cli {

// The law's output for each plant step: the law at the state (no sampling), or a (noisy) sample
// every lo.hold plant steps held in between (zero-order hold, like firmware).
template <class U>
class HeldLaw {
 public:
  explicit HeldLaw(const ClosedLoopOptions& lo, U initial) : lo_(lo), noise_(lo.noise, lo.seed), u_(initial) {}

  template <class X, class Law>
  const U& at(int64_t k, const X& x, const Law& law) {
    if (!lo_.sampled)
      u_ = law(x);
    else if (k % lo_.hold == 0)
      u_ = law(noise_.add(x));
    return u_;
  }
  const U& held() const { return u_; }

 private:
  const ClosedLoopOptions& lo_;
  SensorNoise noise_;
  U u_;
};

// The summary of an upright plant after each step k (time (k + 1) h): tilt from upright, the
// up component `up` (cos tilt) at its lowest, the fall time (up crosses 0, interpolated), the
// largest |u| the law commanded, and the tilt over the last quarter (from step late_from).
struct UprightTrack {
  double fall_time = -1, min_up = 1, max_u = 0, max_tilt = 0, final_tilt = 0, late_max_tilt = 0;

  void record(int64_t k, double h, int64_t late_from, double tilt, double up_before, double up) {
    const double t = double(k + 1) * h;
    min_up = std::min(min_up, up);
    final_tilt = tilt;
    max_tilt = std::max(max_tilt, tilt);
    if (k >= late_from) late_max_tilt = std::max(late_max_tilt, tilt);
    if (fall_time < 0 && up <= 0 && up_before > 0) fall_time = t - h + h * up_before / (up_before - up);
  }
  void command(double abs_u) { max_u = std::max(max_u, abs_u); }
  bool fallen() const { return fall_time >= 0; }
  Json fall_json() const { return fallen() ? num(fall_time) : Json(nullptr); }
  // Null when the run stopped before its last quarter.
  Json late_json(int64_t steps, int64_t late_from) const {
    return steps > late_from ? num(late_max_tilt) : Json(nullptr);
  }
};

// The run in the --precision the user chose: the inputs given must be representable in that scalar
// (check_representable), then Run<S> (the command's run, its operator()(summary) the exit code;
// summary null: it prints as the command does, else it stores the --json summary there, printing
// nothing: closed_loop_runs.hpp).
template <template <class> class Run, class Inputs>
int run_in_precision(const Args& a, const Inputs& in, std::initializer_list<double> inputs, Json* summary) {
  if (a.choice("precision") == "float") {
    check_representable<float>(inputs);
    return Run<float>(a, in)(summary);
  }
  check_representable<double>(inputs);
  return Run<double>(a, in)(summary);
}

// The end of a run: its summary printed (--json, else the command's text line) and the exit code,
// or, for a typed call, the summary stored and the exit code alone.
template <class Text>
int finish_closed_loop(const Args& a, const char* cmd, const char* stopped, double t_end, Json j, Json* summary,
                       const Text& text) {
  if (summary != nullptr) {
    *summary = std::move(j);
    return stopped ? exit_blowup : exit_ok;
  }
  if (a.flag("json"))
    print_json(j);
  else
    text();
  return finish_run(cmd, stopped, t_end);
}

}  // namespace attractor::cli
