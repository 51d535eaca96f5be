// SPDX-License-Identifier: Apache-2.0
// attractor-sim nonholonomic-particle (the entry; registration nonholonomic_particle.cpp, also run
// by attractor-paper nonholonomic-baselines): paper 001 Example 1 (driver: hil/cli/
// feedback_system_driver.hpp), with the feedback methods and paper 001's baselines nh-verlet, dla.
#pragma once

#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "attractor/systems/nonholonomic_particle.hpp"
#include "feedback_system_driver.hpp"
#include "nonholonomic_baselines.hpp"

namespace attractor::sim {

struct NonholonomicParticleEntry : cli::FactsEntry<NonholonomicParticleFacts> {
  template <class S>
  using System = NonholonomicParticle<S>;
  static constexpr const char* name = "nonholonomic-particle";
  static constexpr const char* summary = "nonholonomic particle (paper 001 Example 1): feedback/RK/nh-verlet/dla";
  static constexpr const char* about =
      "Free particle of mass m in R^3 with the constraint z' = y x' (paper 001 Example 1): x = (q, p),\n"
      "invariants c = pz - y px (constraint), H~ (energy), py (momentum). The exact motion gives\n"
      "exact_error. nh-verlet keeps |q_{k+1} - q_k| (Theorem 1) and c, py to rounding.";
  static constexpr const char* notes = discrete_nonholonomic_notes;
  static constexpr cli::StateOption initial[] = {
      {"q0", 3, "x,y,z", "position (default (0, 0.3, 0))"},
      {"p0", 3, "px,py,pz", "momentum, pz = y px (default m (1, 0.5, 0.3))"}};
  static constexpr const char* extra_methods[] = {"nh-verlet", "dla", "nh-verlet-remark5", "dla-one-sided"};
  template <class S>
  struct Extra : DiscreteNonholonomicExtra<NonholonomicParticleModel<S>> {};

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    return System<S>::make(S(p("m")));
  }
  // The documented momentum scales with m (the same velocity for any mass).
  static void default_x0(const cli::Params& p, double* x0) {
    for (int i = 0; i < 6; ++i) x0[i] = documented.x0[i] * (i < 3 ? 1 : p("m"));
  }
  static std::string off_constraint(const cli::Params&, const double* x0) {
    const double c = x0[5] - x0[1] * x0[3], scale = 1 + std::abs(x0[5]) + std::abs(x0[1] * x0[3]);
    if (!std::isfinite(c)) throw cli::Failure(cli::exit_invalid, "--q0/--p0 overflow: pz - y px is not finite");
    if (std::abs(c) <= 1e-9 * scale) return "";
    char b[120];
    std::snprintf(b, sizeof b, "p0 violates the constraint pz = y px: pz - y px = %.3e", c);
    return b;
  }
  // p -> p - e (e.p)/|e|^2, e = (-y, 0, 1): the metric projection (m I) onto the constraint.
  static std::string project(const cli::Params&, double* x0) {
    const double y = x0[1], c = x0[5] - y * x0[3], e2 = 1 + y * y;
    x0[3] += y * c / e2;
    x0[5] -= c / e2;
    return "";
  }
  // x0 and the exact states at T/2 and T of the default run (|y| grows linearly).
  static std::array<Vec<double, 6>, 3> region(const System<double>& sys, const Vec<double, 6>& x0) {
    return {x0, sys.exact_state(x0, 5), sys.exact_state(x0, 10)};
  }
  static Vec<double, 6> exact(const System<double>& sys, const Vec<double, 6>& x0, double t) {
    return sys.exact_state(x0, t);
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::NonholonomicParticleEntry);
