// SPDX-License-Identifier: Apache-2.0
// --gains auto: the largest equal pull-back rate whose h * stiffness stays within a safety
// fraction of the scheme's real-axis stability interval over the reachable region (the bound
// Feedback::check_step uses, attractor/integrate/feedback.hpp). With K_i = rate / max_k |∇F_i(x_k)|²
// over the region's sample states (balanced_gains), stiffness <= M * rate on the region, so
// rate = safety * limit / (h * M) keeps h * stiffness <= safety * limit. Host-only.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "exit_codes.hpp"
#include "numbers.hpp"
#include "spec.hpp"

namespace attractor::cli {

constexpr double kAutoGainSafety = 0.1;  // fraction of the stability interval (docs/auto-gains.md)
// The documented promise, checked by hil/tests/auto_gains_test.cpp: in double with RK4, the max
// invariant deviation with auto gains is at most that of plain RK4 plus
// kAutoGainDriftMargin * (1 + |F_i(x0)|) over the paper experiments' horizons.
constexpr double kAutoGainDriftMargin = 1e-8;

template <class System, int Count>
Vec<typename System::Scalar, System::M> auto_gains(const System& sys,
                                                   const Vec<typename System::Scalar, System::N> (&region)[Count],
                                                   Scheme scheme, typename System::Scalar h) {
  using S = typename System::Scalar;
  const S rate = S(kAutoGainSafety) * real_stability_limit<S>(scheme) / (h * S(System::M));
  return balanced_gains(sys, region, rate);
}

// `--feedback RATE|auto` and `--gains auto` of the systems with one pull-back rate (the skate,
// the spherical robot): usage errors exit 2, a rate outside [0, inf) exits 5.
struct FeedbackRate {
  bool on = false;         // a feedback option was given
  bool automatic = false;  // auto: the rate comes from the scheme's stability interval
  double rate = 0;         // [1/s], when not automatic (0 = off)
};
inline FeedbackRate parse_feedback_rate(const Args& a, const std::string& system) {
  FeedbackRate fr;
  if (a.given("feedback") && a.given("gains")) throw Failure(exit_usage, "--gains auto and --feedback: give one");
  if (a.given("gains")) {
    if (a.text("gains") != "auto")
      throw Failure(exit_usage, "--gains: " + system + " takes 'auto' (or --feedback RATE)");
    fr.on = fr.automatic = true;
  }
  if (a.given("feedback")) {
    const std::string f = a.text("feedback");
    fr.on = true;
    if (f == "auto") {
      fr.automatic = true;
    } else {
      if (!parse_number(f, fr.rate))
        throw Failure(exit_usage, "--feedback: " + a.shown("feedback") + " is not a number or 'auto'");
      if (!std::isfinite(fr.rate) || fr.rate < 0)
        throw Failure(exit_invalid,
                      "--feedback = " + exact(fr.rate) + " is outside its range: need 0 <= RATE, finite [1/s]");
    }
  }
  return fr;
}

// `--gains K|k1,..,kM|auto` of the feedback-system driver: one gain for every invariant row, one
// per row (in the order of the summary's invariants), or auto. Usage errors exit 2, a gain
// outside [0, inf) exits 5. `def` is every row's gain without the option.
struct GainsOption {
  std::vector<double> gains;  // per row
  bool automatic = false;
};
inline GainsOption parse_gains(const Args& a, int M, double def) {
  GainsOption g;
  g.gains.assign(std::size_t(M), def);
  if (!a.given("gains")) return g;
  const std::string gs = a.text("gains");
  double one;
  std::vector<double> v;
  if (gs == "auto") {
    g.automatic = true;
  } else if (parse_number(gs, one)) {
    g.gains.assign(std::size_t(M), one);
  } else if (parse_list(gs, M, v)) {
    g.gains = v;
  } else {
    throw Failure(exit_usage, "--gains: " + a.shown("gains") + " is not 'auto', one number or " + std::to_string(M) +
                                  " comma-separated numbers");
  }
  for (int i = 0; i < M; ++i)
    if (!std::isfinite(g.gains[std::size_t(i)]) || g.gains[std::size_t(i)] < 0)
      throw Failure(exit_invalid, "--gains: gain " + std::to_string(i + 1) + " = " + exact(g.gains[std::size_t(i)]) +
                                      " is outside its range: need 0 <= gain, finite");
  return g;
}

}  // namespace attractor::cli
