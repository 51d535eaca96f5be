// SPDX-License-Identifier: Apache-2.0
// The attractor-sim sleigh-toda entry (registered in sleigh_toda.cpp, run by attractor-paper
// lie-flows): the Chaplygin sleigh in its velocities (v, ω), the two-dimensional Toda lattice at
// half the time (paper 004; lib/include/attractor/systems/sleigh_toda.hpp). Driver:
// hil/cli/feedback_system_driver.hpp.
#pragma once

#include <array>
#include <cmath>
#include <string>

#include "attractor/systems/sleigh_toda.hpp"
#include "feedback_system_driver.hpp"

namespace attractor::sim {

struct SleighTodaEntry : cli::FactsEntry<SleighTodaFacts> {
  template <class S>
  using System = SleighToda<S>;
  static constexpr const char* name = "sleigh-toda";
  static constexpr const char* summary = "Chaplygin sleigh in (v, w) = 2D Toda lattice (paper 004): energy, exact flow";
  static constexpr const char* about =
      "Chaplygin sleigh in its blade speed v and turning rate w (paper 004): v' = a w^2,\n"
      "w' = -k v w, k = m a/(I + m a^2) (the slides' m a^2 is a misprint), energy\n"
      "E = m v^2/2 + (I + m a^2) w^2/2 the one invariant. V = k v, W = sqrt(a k) w obey V' = W^2,\n"
      "W' = -V W, and (b1, a1)(t) = (V, W)(2t) is the 2D Toda lattice b1' = 2 a1^2, a1' = -2 a1 b1;\n"
      "exact_error is against the closed form V = C tanh(C t + phi). Every orbit with w != 0 tends\n"
      "to the positive v axis; divergence_integral = log(w(t)/w(0)) (no invariant measure).\n"
      "Defaults: m = 1, I = 0, a = 1 (k = 1, the slides' normalized v' = w^2, w' = -v w), v0 = 0,\n"
      "w0 = 1: the Toda solution b1 = tanh 2t, a1 = 1/cosh 2t at Toda time t/2.";
  static constexpr cli::StateOption initial[] = {{"v0", 1, "V", "blade speed [m/s] (default 0)"},
                                                 {"w0", 1, "W", "turning rate [rad/s] (default 1)"}};

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    SleighTodaParams<S> prm;
    prm.mass = S(p("m")), prm.inertia = S(p("I")), prm.offset = S(p("a"));
    return System<S>::make(prm);
  }
  // No constraint left in (v, w): every state is admissible.
  static std::string off_constraint(const cli::Params&, const double*) { return ""; }
  static std::string project(const cli::Params&, double*) { return ""; }
  // The energy ellipse; |grad E|^2 = m^2 v^2 + (I + m a^2)^2 w^2 is largest at an axis end.
  static std::array<Vec<double, 2>, 3> region(const System<double>& sys, const Vec<double, 2>& x0) {
    const double E = sys.invariants(x0)[0];
    return {x0, Vec<double, 2>(std::sqrt(2 * E / sys.prm.mass), 0), Vec<double, 2>(0, std::sqrt(2 * E / sys.Ia))};
  }
  static Vec<double, 2> exact(const System<double>& sys, const Vec<double, 2>& x0, double t) {
    return sys.exact(x0, t);
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::SleighTodaEntry);
