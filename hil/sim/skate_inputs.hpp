// SPDX-License-Identifier: Apache-2.0
// The inputs of `attractor-sim skate`: the options (skate_spec.hpp) checked against each other and
// the initial state (33) built and checked, before any integration. Host tool.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "attractor/systems/pendulum_skate.hpp"
#include "auto_gains.hpp"
#include "closed_loop_options.hpp"
#include "run_support.hpp"
#include "spec.hpp"

namespace sim_skate {

using namespace attractor;
using cli::exact;
using cli::Failure;

struct Inputs {
  bool controlled = false;
  double m, l, I1, I2, I3, g, J1, J2, J3, sigma = 0, umax = 0, theta_dot = 0, h, T, rate = 0;
  bool feedback = false, auto_rate = false;
  int64_t steps = 0, every = 1;
  Vec<double, 5> q0;
  cli::ClosedLoopOptions loop;  // --control-rate, --noise, --mismatch (controlled only)
};

const std::vector<std::string> kMismatchKeys = {"m", "l", "I1", "I2", "I3", "g", "J1", "J2", "J3"};

inline Inputs parse_inputs(const cli::Args& a) {
  Inputs in;
  in.controlled = a.given("sigma");
  if (in.controlled) {
    in.sigma = a.num("sigma", 0);
    a.forbid("model", "with --sigma (the rotor skate has the reduced model only)");
    a.forbid("feedback", "with --sigma (uncontrolled only)");
    a.forbid("gains", "with --sigma (uncontrolled only)");
  } else {
    for (const char* k : {"umax", "zoh", "J1", "J2", "J3", "theta-dot"}) a.forbid(k, "without --sigma");
  }
  in.m = a.num("m", in.controlled ? 3.0 : 2.0);
  in.l = a.num("l"), in.I1 = a.num("I1"), in.I2 = a.num("I2"), in.I3 = a.num("I3"), in.g = a.num("g");
  in.J1 = a.num("J1"), in.J2 = a.num("J2"), in.J3 = a.num("J3");
  if (a.given("umax")) in.umax = a.num("umax", 0);
  in.theta_dot = a.num("theta-dot");
  cli::warn_triangle("skate", "I1, I2, I3", in.I1, in.I2, in.I3);
  if (in.controlled) cli::warn_triangle("skate", "J1, J2, J3", in.J1, in.J2, in.J3);
  const double default_T = in.controlled ? 10.0 : 2.0;
  const cli::ClosedLoopGrid grid = cli::parse_closed_loop_grid(a, in.controlled, kMismatchKeys, &default_T);
  in.h = grid.h, in.T = grid.T, in.loop = grid.loop, in.steps = grid.steps, in.every = grid.every;
  const cli::FeedbackRate fr = cli::parse_feedback_rate(a, "the skate");
  in.feedback = fr.on, in.auto_rate = fr.automatic, in.rate = fr.rate;
  if (!in.controlled && !in.feedback) a.forbid("unchecked", "without --sigma or --feedback");

  // Initial state (33): zeta = (v1, v2, v3, Gamma2, Gamma3) with Gamma2^2 + Gamma3^2 = 1.
  if (a.given("zeta")) {
    for (const char* k : {"phi0", "Omega1", "Omega3", "Y1"}) a.forbid(k, "with --zeta (it replaces (59))");
    const std::vector<double> z = a.list("zeta", {});
    for (int i = 0; i < 5; ++i) in.q0[i] = z[std::size_t(i)];
    const double r2 = in.q0[3] * in.q0[3] + in.q0[4] * in.q0[4];
    if (!(std::abs(r2 - 1) <= 1e-9)) {
      if (!a.flag("project"))
        throw Failure(cli::exit_invalid, "--zeta: Gamma2^2 + Gamma3^2 = " + exact(r2) +
                                             " is off the constraint |Gamma| = 1 (use --project to normalize)");
      if (!(r2 > 0) || !std::isfinite(r2))
        throw Failure(cli::exit_invalid, "--zeta: (Gamma2, Gamma3) = 0 cannot be projected onto |Gamma| = 1");
      in.q0[3] /= std::sqrt(r2), in.q0[4] /= std::sqrt(r2);
    }
  } else {
    a.forbid("project", "without --zeta (eq. (59) is on the constraint)");
    in.q0 = skate_zeta(skate_initial_condition_59(a.num("phi0"), a.num("Omega1"), a.num("Omega3"), a.num("Y1")));
    if (!all_finite(in.q0)) throw Failure(cli::exit_invalid, "the initial state (59) is not finite");
  }
  if (!(in.q0[4] > 0))
    throw Failure(cli::exit_invalid, "initial Gamma3 = " + exact(in.q0[4]) +
                                         " is outside its range: need Gamma3 > 0 "
                                         "(the skate starts above the ice)");
  return in;
}

}  // namespace sim_skate
