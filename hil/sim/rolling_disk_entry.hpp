// SPDX-License-Identifier: Apache-2.0
// attractor-sim rolling-disk (the entry; registration rolling_disk.cpp, also run by attractor-paper
// nonholonomic): the vertical rolling disk of paper 000 §3.4 with any parameters,
// initial condition, method, gains, step and precision (driver: hil/cli/feedback_system_driver.hpp).
#pragma once

#include <array>
#include <string>

#include "attractor/systems/rolling_disk.hpp"
#include "constraint_momentum.hpp"
#include "feedback_system_driver.hpp"
#include "nonholonomic_entry.hpp"

namespace attractor::sim {

struct RollingDiskEntry : cli::FactsEntry<RollingDiskFacts> {
  template <class S>
  using System = RollingDisk<S>;
  static constexpr const char* name = "rolling-disk";
  static constexpr const char* summary = "vertical rolling disk (paper 000 §3.4) on SE(2) x S^1, exact solution";
  static constexpr const char* about =
      "Vertical rolling disk (paper 000 §3.4): state (R, x, y, psi, Pi) with R in SO(2) as 2x2, Pi =\n"
      "(Pi_theta, Pi_x, Pi_y, Pi_psi) body momenta; invariants J1 = Pi_y/sqrt(m), J2 ~ I Pi_x - m R Pi_psi\n"
      "(rolling), the extended energy h~, Pi_theta and R^T R = I. Default (documented case, §3.4 has no\n"
      "experiment): m = R = 1, I = 1/2, J = 1/4, heading 0, Pi_theta = 1/4, Pi_psi = 1 (a circle of\n"
      "radius 2), gains 50, T = 20; exact_error against the closed-form solution.";
  static constexpr cli::StateOption initial[] = {
      {"R0", 4, "R11,R21,R12,R22", "initial heading, a rotation, column by column (default identity)"},
      {"xy0", 2, "x,y", "contact point (default 0,0)"},
      {"psi0", 1, "PSI", "rolling angle (default 0)"},
      {"Pi0", 4, "Pt,Px,Py,Ppsi", "momenta, Pi_y = 0 and I Pi_x = m R Pi_psi (default 0.25, mR/I, 0, 1)"}};

  template <class S = double>
  static RollingDiskParams<S> prm(const cli::Params& p) {
    RollingDiskParams<S> r;
    r.mass = S(p("m")), r.radius = S(p("radius")), r.inertia_axle = S(p("I")), r.inertia_spin = S(p("J"));
    return r;
  }
  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    return System<S>::make(prm<S>(p));
  }
  // The documented Π (Pi_theta, Pi_psi) on the rolling constraint of the given parameters.
  static void default_x0(const cli::Params& p, double* x0) {
    Vec<double, 11>::Map(x0) = System<double>::state(0, 0, 0, 0, System<double>::on_constraint(prm(p), 0.25, 1));
  }
  static std::string off_constraint(const cli::Params& p, const double* x0) {
    const std::string r = sim::rotation_error<2>("R0", x0);
    return r.empty()
               ? sim::constraint_momentum_error("Pi0", RollingDiskModel<double>{prm(p)}.constraint_vectors(), x0 + 7)
               : r;
  }
  static std::string project(const cli::Params& p, double* x0) {
    const RollingDiskModel<double> m{prm(p)};
    sim::project_constraint_momentum(m.locked_inertia(), m.constraint_vectors(), x0 + 7);
    return sim::project_rotation<2>("R0", x0);
  }
  // Π is constant on the constraint set and only the heading moves: DF's rows have the same
  // size at every heading; x0 and two quarter turns.
  static std::array<Vec<double, 11>, 3> region(const System<double>&, const Vec<double, 11>& x0) {
    const auto turned = [&x0](double a) {
      return System<double>::state(std::atan2(x0[1], x0[0]) + a, x0[4], x0[5], x0[6], x0.tail<4>());
    };
    return {x0, turned(M_PI / 2), turned(M_PI)};
  }
  static Vec<double, 11> exact(const System<double>& sys, const Vec<double, 11>& x0, double t) {
    return sys.exact_state(x0, t);
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::RollingDiskEntry);
