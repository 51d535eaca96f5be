// SPDX-License-Identifier: Apache-2.0
// attractor-sim nonholonomic-oscillator (the entry; registration nonholonomic_oscillator.cpp,
// also run by attractor-paper nonholonomic): attractor/systems/nonholonomic_oscillator.hpp,
// paper 000 §3.7, unit mass and stiffness (no parameters), any initial state. Names and the
// default (the paper's experiment) are the system's facts, NonholonomicOscillatorFacts.
#pragma once

#include <array>
#include <cmath>
#include <string>

#include "attractor/integrate/butcher.hpp"
#include "attractor/systems/nonholonomic_oscillator.hpp"
#include "feedback_system_driver.hpp"
#include "nonholonomic_baselines.hpp"

namespace attractor::sim {

struct NonholonomicOscillatorEntry : cli::FactsEntry<NonholonomicOscillatorFacts> {
  template <class S>
  using System = NonholonomicOscillator<S>;
  static constexpr const char* name = "nonholonomic-oscillator";
  static constexpr const char* summary = "nonholonomic oscillator (paper 000 §3.7), y = y0 cos t + py0 sin t";
  static constexpr const char* about =
      "Nonholonomic oscillator (paper 000 §3.7): a unit particle in R^3 in the potential |q|^2/2 with the\n"
      "constraint x' + y z' = 0. Invariants: J = (px + y pz)/sqrt(1 + y^2) (the constraint, target 0), the\n"
      "extended energy H~, H_y = (py^2 + y^2)/2. exact_error compares (y, py) with their closed form\n"
      "(on the constraint y is a unit harmonic oscillator; the other states have none and are left out).";
  static constexpr cli::StateOption initial[] = {
      {"q0", 3, "x,y,z", "initial position (default 1,1,1)"},
      {"p0", 3, "px,py,pz", "initial momentum, px + y pz = 0 (default 0,0,0)"}};
  static constexpr const char* notes = discrete_nonholonomic_notes;
  static constexpr const char* extra_methods[] = {"nh-verlet", "dla", "nh-verlet-remark5",
                                                  "dla-one-sided"};  // paper 001's baselines
  template <class S>
  struct Extra : DiscreteNonholonomicExtra<NonholonomicOscillatorModel<S>> {};

  template <class S>
  static Result<System<S>> make(const cli::Params&) {
    return System<S>::make();
  }
  // ∇_p of the constraint: (1, 0, y).
  static std::string off_constraint(const cli::Params&, const double* x0) {
    const double c = x0[3] + x0[1] * x0[5];
    if (std::abs(c) <= 1e-9 * (1 + std::abs(x0[1])) * (1 + std::hypot(x0[3], x0[5]))) return "";
    return "p0 is off the constraint: px + y pz = " + cli::exact(c) + " instead of 0";
  }
  static std::string project(const cli::Params&, double* x0) {
    const double c = (x0[3] + x0[1] * x0[5]) / (1 + x0[1] * x0[1]);
    x0[3] -= c, x0[5] -= c * x0[1];
    return "";
  }
  static Vec<double, 6> exact(const System<double>&, const Vec<double, 6>& x0, double t) {
    Vec<double, 6> x = Vec<double, 6>::Constant(NAN);  // x, z: no closed form
    x[1] = x0[1] * std::cos(t) + x0[4] * std::sin(t);
    x[4] = -x0[1] * std::sin(t) + x0[4] * std::cos(t);
    return x;
  }
  // The energy level is compact: 32 states of an accurate plain run over two periods of y.
  static std::array<Vec<double, 6>, 32> region(const System<double>& sys, const Vec<double, 6>& x0) {
    std::array<Vec<double, 6>, 32> r;
    Vec<double, 6> x = x0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      r[k] = x;
      for (int i = 0; i < 40; ++i) rk4_step(sys, x, 0.01);
    }
    return r;
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::NonholonomicOscillatorEntry);
