// SPDX-License-Identifier: Apache-2.0
// The options of `attractor-sim wheel-pendulum` (declared once; parsed by hil/cli/spec.hpp) and
// their checks against each other, before any integration. Host tool.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "attractor/systems/reaction_wheel_pendulum.hpp"
#include "closed_loop_options.hpp"
#include "run_support.hpp"
#include "spec.hpp"

namespace sim_wheel_pendulum {

using namespace attractor;
using cli::exact;
using cli::Failure;

inline cli::Spec wheel_spec() {
  cli::Spec s("wheel-pendulum", "usage: attractor-sim wheel-pendulum [options]",
              "Reaction-wheel pendulum (docs/reaction-wheel-pendulum.md): an arm on a pivot kept upright by a\n"
              "motor-driven wheel. --law lagrangian: the controlled-Lagrangian law u = k M g Gamma1,\n"
              "k = I_w^2/(sigma Ib + I_w^2), Ib = I_p + m_w l_w^2; sigma outside -I_w^2/Ib < sigma < 0 is refused\n"
              "(exit 3). --law lqr: u = -K (phi, Omega, theta_dot), K the discrete LQR gain of the\n"
              "linearization at upright for the control period. Sampled (--zoh, --control-rate, --noise), the\n"
              "law is the firmware's controller (plants/wheel_pendulum/controller.hpp).");
  s.group("physical parameters (SI)")
      .number("m_p", "kg", 0.2, cli::non_negative(), "arm mass")
      .number("l", "m", 0.1, cli::non_negative(), "pivot -> arm's centre of mass")
      .number("I_p", "kg m^2", 2.6e-3, cli::positive(), "arm inertia about the pivot")
      .number("m_w", "kg", 0.1, cli::non_negative(), "wheel mass")
      .number("l_w", "m", 0.15, cli::non_negative(), "pivot -> wheel axis")
      .number("I_w", "kg m^2", 3.0e-4, cli::positive(), "wheel spin inertia about its axis")
      .number("g", "m/s^2", 9.81, cli::non_negative(), "gravity (M g = (m_p l + m_w l_w) g > 0)");
  s.group("control")
      .choice("law", {"lagrangian", "lqr"}, "lagrangian", "controlled-Lagrangian law or the LQR baseline")
      .number_mode("sigma", "", "default -1e-5", cli::any_finite(),
                   "controlled-Lagrangian parameter (--law lagrangian)")
      .list("lqr-q", 3, "Qphi,QOmega,Qtheta_dot", "LQR state weights x control period (--law lqr; default 10,1,1e-3)")
      .number_mode("lqr-r", "", "default 100", cli::positive(), "LQR torque weight x control period (--law lqr)")
      .number_mode("umax", "N m", "default none", cli::positive(), "torque saturation |u| <= umax")
      .flag("zoh", "sample the law once per step (zero-order hold, like firmware); default: at every stage");
  cli::add_closed_loop_options(s, "m_p, l, I_p, m_w, l_w, I_w, g");
  s.group("initial condition (default: tilted 0.1 rad, at rest)")
      .number("phi0", "rad", 0.1, cli::between(-M_PI / 2, M_PI / 2, true), "tilt from upright")
      .number("Omega", "rad/s", 0, cli::any_finite(), "arm rate")
      .number("theta-dot", "rad/s", 0, cli::any_finite(), "wheel rate relative to the arm");
  s.group("numerics")
      .number("h", "s", 1e-3, cli::positive(), "step")
      .number("T", "s", 10, cli::positive(), "duration")
      .choice("scheme", {"euler", "heun", "rk4"}, "rk4", "Runge-Kutta scheme")
      .choice("precision", {"float", "double"}, "double", "scalar type of the run")
      .flag("stop-at-fall", "stop when Gamma2 <= 0")
      .flag("force", "run more than 1e9 steps");
  s.group("output")
      .output("csv", "FILE", "time series: t,Omega,G1,G2,theta_dot,u,tilt,dE")
      .number("every", "", 1, cli::between(1, 1e15), "CSV every N steps (whole number)")
      .flag("json", "summary as one JSON object instead of the one-line text");
  s.notes(
      "summary: fall time (first Gamma2 = 0, interpolated) or none, max tilt (atan2(|Gamma1|, Gamma2)),\n"
      "min Gamma2, max |u|, max |theta_dot| and max invariant drifts of the controller's model: with\n"
      "--law lagrangian the closed-loop energy E~ and wheel momentum pi~ (conserved by the continuous,\n"
      "unsaturated law on the exact model; their drift measures sampling, noise, saturation, mismatch)\n"
      "and |Gamma|^2; with --law lqr |Gamma|^2 only.\n"
      "A non-finite state or a drift of |Gamma|^2 (or of E~ where it is conserved) beyond 1 + |F(x0)|\n"
      "stops the run with exit 4.\n\n");
  return s;
}

struct Inputs {
  ReactionWheelParams<double> p;
  bool lqr = false;
  double sigma = -1e-5, lqr_r = 100, umax = 0, h = 1e-3, phi0 = 0.1, omega = 0, theta_dot = 0;
  std::vector<double> lqr_q = {10, 1, 1e-3};
  int64_t steps = 0, every = 1;
  cli::ClosedLoopOptions loop;
};

const std::vector<std::string> kMismatchKeys = {"m_p", "l", "I_p", "m_w", "l_w", "I_w", "g"};

inline Inputs parse_inputs(const cli::Args& a) {
  Inputs in;
  in.lqr = a.choice("law") == "lqr";
  if (in.lqr) {
    a.forbid("sigma", "with --law lqr");
    in.lqr_q = a.list("lqr-q", in.lqr_q);
    in.lqr_r = a.num("lqr-r", in.lqr_r);
    for (double q : in.lqr_q)
      if (!(q >= 0) || !std::isfinite(q))
        throw Failure(cli::exit_invalid, "--lqr-q: " + exact(q) + " is outside its range: need 0 <= Q, finite");
  } else {
    for (const char* k : {"lqr-q", "lqr-r"}) a.forbid(k, "with --law lagrangian");
    in.sigma = a.num("sigma", in.sigma);
  }
  in.p = ReactionWheelParams<double>{a.num("m_p"), a.num("l"),   a.num("I_p"), a.num("m_w"),
                                     a.num("l_w"), a.num("I_w"), a.num("g")};
  if (in.p.validate() != Error::none)
    throw Failure(cli::exit_invalid, "M g = (m_p l + m_w l_w) g = " + exact(in.p.gravity_moment()) +
                                         " is outside its range: need M g > 0 (an upright to stabilize)");
  if (a.given("umax")) in.umax = a.num("umax", 0);
  const cli::ClosedLoopGrid grid = cli::parse_closed_loop_grid(a, true, kMismatchKeys);
  in.h = grid.h, in.loop = grid.loop, in.steps = grid.steps, in.every = grid.every;
  in.phi0 = a.num("phi0"), in.omega = a.num("Omega"), in.theta_dot = a.num("theta-dot");
  return in;
}

}  // namespace sim_wheel_pendulum
