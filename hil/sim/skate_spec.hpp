// SPDX-License-Identifier: Apache-2.0
// The options of `attractor-sim skate` (declared once; parsed by hil/cli/spec.hpp). Host tool.
#pragma once

#include <cmath>
#include <string>

#include "closed_loop_options.hpp"
#include "spec.hpp"

namespace sim_skate {

using namespace attractor;

inline cli::Spec skate_spec() {
  cli::Spec s("skate", "usage: attractor-sim skate [options]",
              "Pendulum skate (Garcia & Ohsawa, paper 003). Without --sigma: uncontrolled skate, eqs. (35)/(38)\n"
              "(--model reduced) or the full nonholonomic Euler-Poincare eqs. (21) (--model full). With --sigma:\n"
              "rotor about E1 (Example 15) driven by the controlled-Lagrangian law (56, corrected); sigma outside\n"
              "(58) -J1^2/(I1+m l^2) < sigma < 0 is refused (exit 3) unless --unchecked.");
  s.group("physical parameters (SI)")
      .number_mode("m", "kg", "default 2 uncontrolled, 3 with rotor", cli::positive(), "total mass")
      .number("l", "m", 0.8, cli::positive(), "contact->CM distance")
      .number("I1", "kg m^2", 0.35, cli::positive(), "body inertia about E1 at the CM")
      .number("I2", "kg m^2", 0.35, cli::positive(), "body inertia about E2 at the CM")
      .number("I3", "kg m^2", 0.004, cli::positive(), "body inertia about E3 at the CM")
      .number("g", "m/s^2", 9.8, cli::non_negative(), "gravity")
      .number("J1", "kg m^2", 0.005, cli::positive(), "rotor inertia about E1 (with --sigma)")
      .number("J2", "kg m^2", 0.0025, cli::non_negative(), "rotor inertia about E2 (with --sigma)")
      .number("J3", "kg m^2", 0.0025, cli::non_negative(), "rotor inertia about E3 (with --sigma)");
  s.group("control")
      .number_mode("sigma", "", "none: uncontrolled", cli::any_finite(),
                   "controlled-Lagrangian parameter sigma (enables the rotor)")
      .flag("unchecked", "allow sigma outside (58), or a --feedback step that check_step refuses")
      .number_mode("umax", "N m", "default none", cli::positive(), "torque saturation (with --sigma)")
      .flag("zoh", "sample the law once per step (zero-order hold, like firmware); default: at every stage");
  cli::add_closed_loop_options(s, "m, l, I1, I2, I3, g, J1, J2, J3");
  s.group("initial condition (default: eq. (59) with phi0 = 0.1)")
      .number("phi0", "rad", 0.1, cli::between(-M_PI / 2, M_PI / 2, true), "tilt about E1 of (59)")
      .number("Omega1", "rad/s", 0.1, cli::any_finite(), "Omega1 of (59)")
      .number("Omega3", "rad/s", 0.1, cli::any_finite(), "Omega3 of (59)")
      .number("Y1", "m/s", 1.0, cli::any_finite(), "Y1 of (59)")
      .list("zeta", 5, "v1,v2,v3,G2,G3", "reduced state directly (instead of (59)); G2^2+G3^2 = 1, G3 > 0")
      .flag("project", "normalize (G2, G3) of --zeta onto the unit circle instead of refusing")
      .number("theta-dot", "rad/s", 0, cli::any_finite(), "initial rotor rate relative to the body (with --sigma)");
  s.group("numerics")
      .number("h", "s", 1e-3, cli::positive(), "step")
      .number_mode("T", "s", "default 2 uncontrolled, 10 controlled", cli::positive(), "duration")
      .choice("scheme", {"euler", "heun", "rk4"}, "rk4", "Runge-Kutta scheme")
      .choice("precision", {"float", "double"}, "double", "scalar type of the run")
      .choice("model", {"reduced", "full"}, "reduced", "uncontrolled model (full only without --sigma)")
      .text("feedback", "RATE|auto",
            "feedback integrator, balanced gains with pull-back rate RATE [1/s] >= 0 (0 = off) or the\n"
            "                          largest stable one (auto); uncontrolled only")
      .text("gains", "auto", "same as --feedback auto")
      .flag("stop-at-fall", "stop when Gamma3 <= 0")
      .flag("force", "run more than 1e9 steps");
  s.group("output")
      .output("csv", "FILE", "time series: t,v1,v2,v3,G2,G3,Omega1,Omega2,Omega3,Y1,u,theta_dot,x1,x2,dE")
      .number("every", "", 1, cli::between(1, 1e15), "CSV every N steps (whole number)")
      .flag("json", "summary as one JSON object instead of the one-line text");
  s.notes(
      "inertias: I1, I2, I3 (and J1, J2, J3) that violate the triangle inequality (I1 <= I2 + I3 and\n"
      "permutations) are no rigid body; the equations still run, with a warning on stderr.\n"
      "summary: fall time (first Gamma3 = 0, interpolated) or none, min Gamma3, max |u|, max invariant\n"
      "drifts (uncontrolled: E, C1, C2, |Gamma|^2 [, Gamma1, v4, v5, v6 for full]; controlled: the\n"
      "closed-loop invariants of the matched skate (57) and the controlled rotor momentum pi~ (51b)).\n"
      "A non-finite state or an invariant drift beyond 1 + |F(x0)| stops the run with exit 4.\n\n");
  return s;
}

}  // namespace sim_skate
