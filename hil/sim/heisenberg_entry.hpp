// SPDX-License-Identifier: Apache-2.0
// attractor-sim heisenberg (the entry; registration heisenberg.cpp, also run by attractor-paper
// nonholonomic): the Heisenberg system of attractor/systems/heisenberg.hpp, paper 000 §3.6, unit
// mass (no parameters), any initial state. §3.6 gives no experiment; the documented case
// (host-tests/unit/nonholonomic): q0 = (0.5, -0.3, 0.2), p0 = (0.4, 0.7, pz on the constraint),
// h = 1e-3, gains (10, 10, 50) on (J1, J2, H), t ∈ [0, 5].
#pragma once

#include <array>
#include <cmath>
#include <string>

#include "attractor/systems/heisenberg.hpp"
#include "feedback_system_driver.hpp"

namespace attractor::sim {

struct HeisenbergEntry : cli::FactsEntry<HeisenbergFacts> {
  template <class S>
  using System = Heisenberg<S>;
  static constexpr const char* name = "heisenberg";
  static constexpr const char* summary = "Heisenberg system / nonholonomic integrator (paper 000 §3.6), exact";
  static constexpr const char* about =
      "Heisenberg system (paper 000 §3.6): a unit free particle in R^3 with the constraint\n"
      "z' - y x' + x y' = 0. Invariants: J1 = pz - y px + x py (the constraint, target 0), J2 = x py - y px,\n"
      "H = |p|^2/2; exact solution q0 + p0 t. The level set is not compact (|grad J1| grows with |q|), so\n"
      "check_step looks at the states of the whole run: a long --T with large gains is refused.";
  static constexpr cli::StateOption initial[] = {
      {"q0", 3, "x,y,z", "initial position (default 0.5,-0.3,0.2)"},
      {"p0", 3, "px,py,pz", "initial momentum, pz = y px - x py (default 0.4,0.7,-0.47)"}};

  template <class S>
  static Result<System<S>> make(const cli::Params&) {
    return System<S>::make();
  }
  // ∇_p J1 = e = (−y, x, 1).
  static std::string off_constraint(const cli::Params&, const double* x0) {
    const double J1 = x0[5] - x0[1] * x0[3] + x0[0] * x0[4];
    if (std::abs(J1) <= 1e-9 * (1 + std::sqrt(x0[3] * x0[3] + x0[4] * x0[4] + x0[5] * x0[5]))) return "";
    return "p0 is off the constraint: J1 = pz - y px + x py = " + cli::exact(J1) + " instead of 0";
  }
  static std::string project(const cli::Params&, double* x0) {
    const double e[3] = {-x0[1], x0[0], 1}, J1 = x0[5] - x0[1] * x0[3] + x0[0] * x0[4];
    const double n2 = e[0] * e[0] + e[1] * e[1] + 1;
    for (int i = 0; i < 3; ++i) x0[3 + i] -= J1 / n2 * e[i];
    return "";
  }
  static Vec<double, 6> exact(const System<double>&, const Vec<double, 6>& x0, double t) {
    return System<double>::exact_state(x0, t);
  }
  // The exact motion at eight times over the run (the gradients grow with |q|).
  static std::array<Vec<double, 6>, 8> region(const System<double>&, const Vec<double, 6>& x0, double T) {
    std::array<Vec<double, 6>, 8> r;
    for (std::size_t k = 0; k < r.size(); ++k) r[k] = System<double>::exact_state(x0, T * double(k) / 7.0);
    return r;
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::HeisenbergEntry);
