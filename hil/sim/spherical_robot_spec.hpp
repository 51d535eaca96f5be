// SPDX-License-Identifier: Apache-2.0
// The options of `attractor-sim spherical-robot` (declared once; parsed by hil/cli/spec.hpp). Host tool.
#pragma once

#include <cmath>
#include <string>

#include "closed_loop_options.hpp"
#include "spec.hpp"

namespace sim_spherical_robot {

using namespace attractor;

inline cli::Spec robot_spec() {
  cli::Spec s("spherical-robot", "usage: attractor-sim spherical-robot [options]",
              "Spherical robot (paper 004 (0.29)-(0.30)): a top-heavy ball of radius a rolling without slipping,\n"
              "two internal rotors about E1, E2. Without --sigma: uncontrolled. With --sigma: the controlled-\n"
              "Lagrangian law u_a = (J_a^2/sigma_a) dOmega_a/dt (paper 003 (53), Remark 14); sigma_a outside\n"
              "-J_a^2/I_P,a < sigma_a < 0, I_P,a = I_a - J_a + m (a+l)^2, is refused (exit 3) unless --unchecked.\n"
              "Defaults: the reference robot and start of docs/spherical-robot.md (run C1 with --sigma -1.5e-4).");
  s.group("physical parameters (SI)")
      .number("a", "m", 0.20, cli::positive(), "ball radius")
      .number("m", "kg", 4.0, cli::positive(), "total mass, rotors included")
      .number("l", "m", 0.05, cli::any_finite(), "centre -> centre of mass along E3 (> 0 top-heavy; |l| < a)")
      .number("g", "m/s^2", 9.81, cli::non_negative(), "gravity")
      .number("I1", "kg m^2", 0.10, cli::positive(), "inertia about E1 at the CM, rotors locked")
      .number("I2", "kg m^2", 0.10, cli::positive(), "inertia about E2 at the CM, rotors locked")
      .number("I3", "kg m^2", 0.08, cli::positive(), "inertia about E3 at the CM, rotors locked")
      .number("J1", "kg m^2", 0.01, cli::positive(), "rotor 1 axial inertia (about E1; J1 < I1)")
      .number("J2", "kg m^2", 0.01, cli::positive(), "rotor 2 axial inertia (about E2; J2 < I2)");
  s.group("control")
      .number_mode("sigma", "", "none: uncontrolled", cli::any_finite(),
                   "controlled-Lagrangian parameter sigma of rotor 1 (and 2); enables the law")
      .number_mode("sigma2", "", "default --sigma", cli::any_finite(), "sigma of rotor 2 (with --sigma)")
      .flag("unchecked", "allow sigma outside the stability range, or a --feedback step that check_step refuses")
      .number_mode("umax", "N m", "default none", cli::positive(), "torque saturation |u_a| <= umax (with --sigma)")
      .flag("zoh", "sample the law once per step (zero-order hold, like firmware); default: at every stage");
  cli::add_closed_loop_options(s, "a, m, l, g, I1, I2, I3, J1, J2");
  s.group("initial condition (default: the reference start, tilt 0.1 about E1)")
      .number("phi0", "rad", 0.1, cli::between(-M_PI / 2, M_PI / 2, true),
              "tilt about E1: Gamma = (0, sin phi0, cos phi0)")
      .list("Omega", 3, "W1,W2,W3", "body angular velocity [rad/s] (default 0.1,0,0.1)")
      .list("theta-dot", 2, "R1,R2",
            "rotor rates relative to the shell [rad/s] (default: pi = 0, i.e. -W1,-W2, uncontrolled;\n"
            "                          pi~ = 0, i.e. (J_a/sigma_a - 1) W_a, controlled)");
  s.group("numerics")
      .number("h", "s", 1e-3, cli::positive(), "step")
      .number("T", "s", 10, cli::positive(), "duration")
      .choice("scheme", {"euler", "heun", "rk4"}, "rk4", "Runge-Kutta scheme")
      .choice("precision", {"float", "double"}, "double", "scalar type of the run")
      .text("feedback", "RATE|auto",
            "feedback integrator: pull E, pi, |Gamma|^2 (and Jellett when pi = 0) back at this\n"
            "                          rate [1/s] >= 0 (0 = off), or 'auto': the largest rate within a safety\n"
            "                          fraction of the scheme's stability interval, at most 4x the fall rate\n"
            "                          sqrt(m g |l| / I_P) (uncontrolled only)")
      .text("gains", "auto", "same as --feedback auto")
      .flag("stop-at-fall", "stop when Gamma3 <= 0")
      .flag("force", "run more than 1e9 steps");
  s.group("output")
      .output("csv", "FILE", "time series: t,Omega1,Omega2,Omega3,G1,G2,G3,theta_dot1,theta_dot2,u1,u2,tilt,x,y,dE")
      .number("every", "", 1, cli::between(1, 1e15), "CSV every N steps (whole number)")
      .flag("json", "summary as one JSON object instead of the one-line text");
  s.notes(
      "summary: fall time (first Gamma3 = 0, interpolated) or none, max tilt (arccos Gamma3), min Gamma3,\n"
      "max |u_a|, max |theta_dot_a|, the centre's final (x, y) and largest distance from the start, and\n"
      "max invariant drifts: uncontrolled E, pi1, pi2, |Gamma|^2, Jellett J (an invariant only when pi = 0\n"
      "and I1 - J1 = I2 - J2); controlled the closed-loop E~, pi~1, pi~2, |Gamma|^2, J~ (E~ and pi~ are\n"
      "invariants of the unsaturated continuous law; J~ when pi~ = 0 and the robot is axisymmetric).\n"
      "A non-finite state, a drift of |Gamma|^2 (or of E, E~ where they are invariants) beyond 1 + |F(x0)|,\n"
      "or a singular closed loop (det of A(Gamma) - J + K changes sign: sigma outside the range) stops the\n"
      "run with exit 4.\n\n");
  return s;
}

}  // namespace sim_spherical_robot
