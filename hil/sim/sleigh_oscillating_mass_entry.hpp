// SPDX-License-Identifier: Apache-2.0
// attractor-sim sleigh-oscillating-mass (the entry; registration sleigh_oscillating_mass.cpp, also
// run by attractor-paper lie-flows): the 3D Chaplygin sleigh with an oscillating mass of paper 004
// (systems/sleigh_oscillating_mass.hpp) through the feedback-system driver
// (hil/cli/feedback_system_driver.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "attractor/systems/sleigh_oscillating_mass.hpp"
#include "feedback_system_driver.hpp"

namespace attractor::sim {

struct SleighOscillatingMassEntry : cli::FactsEntry<SleighOscillatingMassFacts> {
  template <class S>
  using System = SleighOscillatingMass<S>;
  static constexpr const char* name = "sleigh-oscillating-mass";
  static constexpr const char* summary = "3D Chaplygin sleigh with an oscillating mass (paper 004 (0.28)), Omega6 = 0";
  static constexpr const char* about =
      "3D Chaplygin sleigh with an oscillating mass (paper 004, Lagrangian (0.28)): a rigid body\n"
      "(mass M, moments I1..I3) with no body velocity along its third axis, carrying a mass m on a\n"
      "spring U = k r^2/2 along that axis. State x = (r, rdot, p1..p5); invariant E (energy). The\n"
      "flow keeps the volume dr drdot d^5p: divergence_integral stays at rounding. The slides give\n"
      "no numbers; defaults: I = (1, 1.5, 2), M = 1, m = 0.5, k = 4, r0 = (0.3, 0),\n"
      "p0 = (0.5, 0.3, 0.8, 1, 0.2), T = 20. Omega6 = 0 is built into the state: every x0 is\n"
      "admissible and --project changes nothing.";
  static constexpr cli::StateOption initial[] = {
      {"r0", 2, "r,rdot", "displacement [m] and rate [m/s] of the mass (default 0.3,0)"},
      {"p0", 5, "p1,..,p5", "body momenta dL/dOmega^a (default 0.5,0.3,0.8,1,0.2)"}};

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    SleighOscillatingMassParams<S> q;
    q.I1 = S(p("I1")), q.I2 = S(p("I2")), q.I3 = S(p("I3")), q.M = S(p("M")), q.m = S(p("m")), q.k = S(p("k"));
    return System<S>::make(q);
  }
  // The constraint Omega6 = 0 is built into the reduced state: every x0 is admissible.
  static std::string off_constraint(const cli::Params&, const double*) { return ""; }
  static std::string project(const cli::Params&, double*) { return ""; }
  // x0 and the energy level's extremes: |rdot| <= sqrt(2E/m), |r| <= sqrt(2E/k) (without a spring,
  // k = 0, the mass slides: |r| <= |r0| + T sqrt(2E/m) over the run), and each p_a at sqrt(2E λ)
  // (λ = the largest eigenvalue bound I_a + m r^2 + M + m of the momentum metric).
  static std::array<Vec<double, 7>, 8> region(const System<double>& sys, const Vec<double, 7>& x0, double T) {
    const auto& q = sys.p;
    const double E = sys.energy(x0), vmax = std::sqrt(2 * E / q.m);
    const double rmax = q.k > 0 ? std::sqrt(2 * E / q.k) : std::abs(x0[0]) + T * vmax;
    const double lam = std::max({q.I1, q.I2, q.I3}) + q.m * rmax * rmax + q.M + q.m;
    std::array<Vec<double, 7>, 8> r;
    r[0] = x0;
    r[1] = Vec<double, 7>::Unit(0) * rmax;
    r[2] = Vec<double, 7>::Unit(1) * vmax;
    for (int a = 0; a < 5; ++a) r[3 + a] = Vec<double, 7>::Unit(2 + a) * std::sqrt(2 * E * lam), r[3 + a][0] = rmax;
    return r;
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::SleighOscillatingMassEntry);
