// SPDX-License-Identifier: Apache-2.0
// attractor-sim chaplygin-sphere (the entry; registration chaplygin_sphere.cpp, also run by
// attractor-paper lie-flows): the Chaplygin sphere of paper 004 (systems/chaplygin_sphere.hpp)
// through the feedback-system driver (hil/cli/feedback_system_driver.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "attractor/systems/chaplygin_sphere.hpp"
#include "chaplygin_sphere_region.hpp"
#include "feedback_system_driver.hpp"

namespace attractor::sim {

struct ChaplyginSphereEntry : cli::FactsEntry<ChaplyginSphereFacts> {
  template <class S>
  using System = ChaplyginSphere<S>;
  static constexpr const char* name = "chaplygin-sphere";
  static constexpr const char* summary = "Chaplygin sphere (paper 004): rolling ball, centred mass, distinct moments";
  static constexpr const char* about =
      "Chaplygin sphere (paper 004): a ball of radius a, mass m, centre of mass at its centre and\n"
      "principal moments I1, I2, I3, rolling without slipping. State x = (Omega, Gamma): body rate and\n"
      "the upward vertical in the body. Invariants G = |Gamma|^2 (target 1), H energy, K = M.Gamma\n"
      "(the conserved nonholonomic momentum, M the angular momentum about the contact point) and\n"
      "M2 = |M|^2. log_measure_change uses Chaplygin's density. The slides give no numbers; defaults:\n"
      "a = m = 1 (the slides' constraints take a = 1), I = (0.3, 0.4, 0.5), Omega0 = (1, 0.5, 2),\n"
      "Gamma0 = (0.6, 0, 0.8), T = 20.";
  static constexpr cli::StateOption initial[] = {
      {"omega0", 3, "W1,W2,W3", "body angular velocity [rad/s] (default 1,0.5,2)"},
      {"gamma0", 3, "G1,G2,G3", "upward vertical in the body, |Gamma0| = 1 (default 0.6,0,0.8)"}};

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    ChaplyginSphereParams<S> q;
    q.radius = S(p("a")), q.mass = S(p("m")), q.I1 = S(p("I1")), q.I2 = S(p("I2")), q.I3 = S(p("I3"));
    return System<S>::make(q);
  }
  static std::string off_constraint(const cli::Params&, const double* x) {
    const double g2 = x[3] * x[3] + x[4] * x[4] + x[5] * x[5];
    if (std::abs(g2 - 1) <= 1e-9) return "";
    return "Gamma0 is not a unit vector: |Gamma0| = " + cli::exact(std::sqrt(g2));
  }
  static std::string project(const cli::Params&, double* x) {
    const double n = std::sqrt(x[3] * x[3] + x[4] * x[4] + x[5] * x[5]);
    if (!(n > 0) || !std::isfinite(n)) return "Gamma0 = 0 cannot be normalized";
    for (int i = 3; i < 6; ++i) x[i] /= n;
    return "";
  }
  // x0 and states of the level set of |Gamma|^2, H, K and |M|^2 through it
  // (chaplygin_sphere_region.hpp): the states the run can reach.
  static std::array<Vec<double, 6>, kSphereRegionSamples> region(const System<double>& sys, const Vec<double, 6>& x0) {
    return sphere_reachable_samples(sys, x0);
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::ChaplyginSphereEntry);
