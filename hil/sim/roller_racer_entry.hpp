// SPDX-License-Identifier: Apache-2.0
// attractor-sim roller-racer (the entry; registration roller_racer.cpp, also run by attractor-paper
// nonholonomic): the roller racer of paper 000 §3.5 with any parameters, initial
// condition, method, gains, step and precision (driver: hil/cli/feedback_system_driver.hpp).
#pragma once

#include <array>
#include <cmath>
#include <string>

#include "attractor/integrate/butcher.hpp"
#include "attractor/systems/roller_racer.hpp"
#include "constraint_momentum.hpp"
#include "feedback_system_driver.hpp"
#include "nonholonomic_entry.hpp"

namespace attractor::sim {

struct RollerRacerEntry : cli::FactsEntry<RollerRacerFacts> {
  template <class S>
  using System = RollerRacer<S>;
  static constexpr const char* name = "roller-racer";
  static constexpr const char* summary = "roller racer (paper 000 §3.5): SE(2) symmetry, joint angle as shape";
  static constexpr const char* about =
      "Roller racer (paper 000 §3.5): state (R, x, y, phi, Pi_theta, Pi_x, Pi_y, p_phi), R in SO(2) as\n"
      "2x2, phi the joint angle; invariants J1 (rear axle rolls), J2 = Pi_y/sqrt(m) (front axle), the\n"
      "extended energy h~ and R^T R = I. Default (documented case, §3.5 has no experiment): m = I1 =\n"
      "d1 = 1, I2 = d2 = 1/2, phi0 = 0.5, Pi_theta = 1, p_phi = 0.2, gains 50, T = 20.";
  static constexpr cli::StateOption initial[] = {
      {"R0", 4, "R11,R21,R12,R22", "initial heading, a rotation, column by column (default identity)"},
      {"xy0", 2, "x,y", "front axle centre (default 0,0)"},
      {"phi0", 1, "PHI", "joint angle (default 0.5)"},
      {"z0", 4, "Pt,Px,Py,Pphi", "momenta on both constraints (default Pi_theta = 1, p_phi = 0.2)"}};

  template <class S = double>
  static RollerRacerParams<S> prm(const cli::Params& p) {
    RollerRacerParams<S> r;
    r.mass = S(p("m")), r.inertia1 = S(p("I1")), r.inertia2 = S(p("I2")), r.d1 = S(p("d1")), r.d2 = S(p("d2"));
    return r;
  }
  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    return System<S>::make(prm<S>(p));
  }
  // The documented phi0, Pi_theta, p_phi with Pi_x, Pi_y on the constraints of the given parameters.
  static void default_x0(const cli::Params& p, double* x0) {
    Vec<double, 11>::Map(x0) = System<double>::state(0, 0, 0, 0.5, System<double>::on_constraint(prm(p), 0.5, 1, 0.2));
  }
  static std::string off_constraint(const cli::Params& p, const double* x0) {
    const std::string r = sim::rotation_error<2>("R0", x0);
    return r.empty() ? sim::constraint_momentum_error(
                           "z0", RollerRacerModel<double>{prm(p)}.constraint_fields(Vec<double, 1>(x0[6])), x0 + 7)
                     : r;
  }
  static std::string project(const cli::Params& p, double* x0) {
    const RollerRacerModel<double> m{prm(p)};
    const Vec<double, 1> phi(x0[6]);
    sim::project_constraint_momentum(m.mass(phi), m.constraint_fields(phi), x0 + 7);
    return sim::project_rotation<2>("R0", x0);
  }
  // The momenta and the joint angle move along the orbit: x0 and the states of largest |z| and
  // of fastest joint over t in [0, 20] of the plain field (RK4, h = 0.01).
  static std::array<Vec<double, 11>, 3> region(const System<double>& sys, const Vec<double, 11>& x0) {
    std::array<Vec<double, 11>, 3> r{x0, x0, x0};
    Vec<double, 11> x = x0;
    for (int k = 0; k < 2000 && all_finite(x); ++k) {
      rk4_step(sys, x, 0.01);
      if (x.tail<4>().norm() > r[1].tail<4>().norm()) r[1] = x;
      if (std::abs(sys.field(x)[6]) > std::abs(sys.field(r[2])[6])) r[2] = x;
    }
    return r;
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::RollerRacerEntry);
