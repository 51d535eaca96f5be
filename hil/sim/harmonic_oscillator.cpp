// SPDX-License-Identifier: Apache-2.0
// attractor-sim harmonic-oscillator: the worked example of docs/adding-a-feedback-system.md, the
// whole registration of a feedback-integrator system (driver: hil/cli/feedback_system_driver.hpp).
#include <array>
#include <string>

#include "attractor/systems/harmonic_oscillator.hpp"
#include "feedback_system_driver.hpp"

// Named, not anonymous: attractor-sim is one translation unit (hil/CMakeLists.txt).
namespace sim_harmonic_oscillator {

using namespace attractor;

struct Oscillator {
  template <class S>
  using System = HarmonicOscillator<S>;
  static constexpr const char* name = "harmonic-oscillator";
  static constexpr const char* summary = "harmonic oscillator, energy H = p^2/2m + k q^2/2 (the guide's example)";
  static constexpr const char* about =
      "Harmonic oscillator q' = p/m, p' = -k q with its energy H = p^2/(2m) + k q^2/2 as the one\n"
      "invariant; the exact flow (a rotation at w = sqrt(k/m)) gives exact_error.";
  static constexpr cli::Param params[] = {{"m", "kg", 1, cli::positive(), "mass"},
                                          {"k", "N/m", 1, cli::positive(), "spring stiffness"}};
  static constexpr const char* states[] = {"q", "p"};
  static constexpr cli::InvariantInfo invariants[] = {{"H", cli::InvariantKind::energy}};
  static constexpr cli::StateOption initial[] = {{"q0", 1, "Q", "initial position [m] (default 1)"},
                                                 {"p0", 1, "P", "initial momentum [kg m/s] (default 0)"}};
  static constexpr double default_gain = 10;
  static constexpr const char* T_default = "default 10";

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    return System<S>::make(S(p("m")), S(p("k")));
  }
  static void default_x0(const cli::Params&, double* x0) { x0[0] = 1, x0[1] = 0; }
  static double default_T(const System<double>&, const Vec<double, 2>&) { return 10; }
  // No constraint: every state is admissible.
  static std::string off_constraint(const cli::Params&, const double*) { return ""; }
  static std::string project(const cli::Params&, double*) { return ""; }
  // The energy level is an ellipse; |grad H|^2 = k^2 q^2 + p^2/m^2 is largest at one of its
  // axis ends (q = sqrt(2H/k), 0) and (0, sqrt(2 m H)).
  static std::array<Vec<double, 2>, 3> region(const System<double>& sys, const Vec<double, 2>& x0) {
    const double H = sys.invariants(x0)[0];
    return {x0, Vec<double, 2>(std::sqrt(2 * H / sys.k), 0), Vec<double, 2>(0, std::sqrt(2 * sys.m * H))};
  }
  static Vec<double, 2> exact(const System<double>& sys, const Vec<double, 2>& x0, double t) {
    return sys.exact(x0, t);
  }
};

}  // namespace sim_harmonic_oscillator

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(sim_harmonic_oscillator::Oscillator);
