// SPDX-License-Identifier: Apache-2.0
// What the model simulators of attractor-sim (skate, spherical-robot) share around their loops:
// the --scheme word, the float range check of every input, the feedback step check over the
// reachable region (exit 3 unless --unchecked) and the text line's fall/feedback/stopped parts
// with the run's exit code. Host-only.
#pragma once

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <string>

#include "attractor/integrate/butcher.hpp"
#include "exit_codes.hpp"
#include "numbers.hpp"

namespace attractor::cli {

inline Scheme parse_scheme(const std::string& s) {
  return s == "euler" ? Scheme::euler : s == "heun" ? Scheme::heun : Scheme::rk4;
}

// Every input must be representable in the run's precision S (exit 5).
template <class S>
void check_representable(std::initializer_list<double> values) {
  for (double v : values)
    if (!(std::abs(v) <= double(std::numeric_limits<S>::max())))
      throw Failure(exit_invalid, "an input (" + exact(v) + ") is beyond the range of float");
}

// The feedback integrator's step check at each sample state of the reachable region: exit 3
// unless unchecked.
template <class S, class Fb, class Samples>
void check_feedback_steps(const Fb& fb, Scheme sc, S h, const Samples& samples, bool unchecked) {
  for (const auto& x : samples)
    if (fb.check_step(sc, h, x) != Error::none && !unchecked) {
      char b[400];
      std::snprintf(b, sizeof b,
                    "step refused by check_step: h * stiffness = %.4g at a state of the reachable region, the %s "
                    "stability limit is %.4g; lower --h or --feedback (--unchecked to run anyway)",
                    double(h * fb.stiffness(x)), to_string(sc), double(real_stability_limit<S>(sc)));
      throw Failure(exit_unstable, b);
    }
}

// " fall t=..." or " no fall" of the text line (after its ": ").
inline void print_fall(double fall_time) {
  if (fall_time >= 0)
    std::printf("fall t=%.4f", fall_time);
  else
    std::printf("no fall");
}

// The text line's end: feedback rate, STOPPED, newline.
inline void print_text_tail(bool feedback, double rate, bool automatic, const char* stopped, double t_end) {
  if (feedback) std::printf(" | feedback rate %.4g%s", rate, automatic ? " (auto)" : "");
  if (stopped) std::printf(" | STOPPED: %s at t=%g", stopped, t_end);
  std::printf("\n");
}

// The run's exit code; a stopped run says why on stderr.
inline int finish_run(const char* cmd, const char* stopped, double t_end) {
  if (stopped) std::fprintf(stderr, "%s: run stopped at t=%g: %s\n", cmd, t_end, stopped);
  return stopped ? exit_blowup : exit_ok;
}

}  // namespace attractor::cli
