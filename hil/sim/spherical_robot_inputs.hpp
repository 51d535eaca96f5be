// SPDX-License-Identifier: Apache-2.0
// The inputs of `attractor-sim spherical-robot`: the options (spherical_robot_spec.hpp) checked
// against each other, before any integration. Host tool.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "attractor/systems/spherical_robot.hpp"
#include "auto_gains.hpp"
#include "closed_loop_options.hpp"
#include "run_support.hpp"
#include "spec.hpp"

namespace sim_spherical_robot {

using namespace attractor;
using cli::exact;
using cli::Failure;

struct Inputs {
  bool controlled = false;
  SphericalRobotParams<double> p;
  Vec<double, 2> sigma = Vec<double, 2>::Zero();
  double umax = 0, phi0 = 0.1, h = 1e-3, rate = 0;
  bool feedback = false, auto_rate = false;
  Vec3<double> omega = Vec3<double>(0.1, 0, 0.1);
  Vec<double, 2> theta_dot = Vec<double, 2>::Zero();
  bool theta_dot_given = false;
  int64_t steps = 0, every = 1;
  cli::ClosedLoopOptions loop;  // --control-rate, --noise, --mismatch (controlled only)
};

const std::vector<std::string> kMismatchKeys = {"a", "m", "l", "g", "I1", "I2", "I3", "J1", "J2"};

inline Inputs parse_inputs(const cli::Args& a) {
  Inputs in;
  in.controlled = a.given("sigma");
  if (in.controlled) {
    in.sigma[0] = a.num("sigma", 0);
    in.sigma[1] = a.num("sigma2", in.sigma[0]);
    a.forbid("feedback", "with --sigma (uncontrolled only)");
    a.forbid("gains", "with --sigma (uncontrolled only)");
  } else {
    for (const char* k : {"sigma2", "umax", "zoh"}) a.forbid(k, "without --sigma");
  }
  in.p = SphericalRobotParams<double>{a.num("a"),  a.num("m"),  a.num("l"),  a.num("g"), a.num("I1"),
                                      a.num("I2"), a.num("I3"), a.num("J1"), a.num("J2")};
  if (in.p.validate() != Error::none) {
    std::string why;
    if (!(in.p.J1 < in.p.I1) || !(in.p.J2 < in.p.I2))
      why = "a rotor inertia must be below the robot's: J1 < I1, J2 < I2";
    if (!(std::abs(in.p.l) < in.p.radius)) why = "the centre of mass must lie inside the ball: |l| < a";
    throw Failure(cli::exit_invalid, "--l = " + exact(in.p.l) + ", --a = " + exact(in.p.radius) +
                                         ", --J1 = " + exact(in.p.J1) + ", --J2 = " + exact(in.p.J2) + ": " + why);
  }
  cli::warn_triangle("spherical-robot", "I1, I2, I3", in.p.I1, in.p.I2, in.p.I3);
  if (a.given("umax")) in.umax = a.num("umax", 0);
  const cli::FeedbackRate fr = cli::parse_feedback_rate(a, "the spherical robot");
  in.feedback = fr.on, in.auto_rate = fr.automatic, in.rate = fr.rate;
  if (!in.controlled && !in.feedback) a.forbid("unchecked", "without --sigma or --feedback");
  in.phi0 = a.num("phi0");
  const std::vector<double> om = a.list("Omega", {0.1, 0.0, 0.1});
  in.omega = Vec3<double>(om[0], om[1], om[2]);
  if (a.given("theta-dot")) {
    const std::vector<double> th = a.list("theta-dot", {});
    in.theta_dot = Vec<double, 2>(th[0], th[1]);
    in.theta_dot_given = true;
  }
  const cli::ClosedLoopGrid grid = cli::parse_closed_loop_grid(a, in.controlled, kMismatchKeys);
  in.h = grid.h, in.loop = grid.loop, in.steps = grid.steps, in.every = grid.every;
  return in;
}

}  // namespace sim_spherical_robot
