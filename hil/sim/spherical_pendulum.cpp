// SPDX-License-Identifier: Apache-2.0
// attractor-sim spherical-pendulum: paper 002 §2.3 (Chang, Perlmutter, Vankerschaver) with any
// parameters, initial condition, method, gains, step and precision. Driver:
// hil/cli/feedback_system_driver.hpp; what the pendulums share: pendulum_entry.hpp.
#include "attractor/systems/spherical_pendulum.hpp"
#include "pendulum_entry.hpp"

// Named, not anonymous: attractor-sim is one translation unit (hil/CMakeLists.txt).
namespace sim_spherical_pendulum {

using namespace attractor;

struct Spherical : sim::PendulumEntry<3, SphericalPendulum, SphericalPendulumFacts> {
  static constexpr const char* name = "spherical-pendulum";
  static constexpr const char* summary =
      "spherical pendulum (paper 002 §2.3): feedback/RK/RATTLE/splitting, invariant drift";
  static constexpr const char* about =
      "Spherical pendulum on T*S^2 inside T*R^3 (paper 002 §2.3): state x = (q, p), q, p in R^3,\n"
      "invariants f1 = |q|^2, f2 = q.p, H = |p|^2/(2m) + m g q3, J = q1 p2 - q2 p1 (gravity along -e3).\n"
      "Defaults reproduce §2.3: m = g = l = 1, q0 = (0,1,0), p0 = (1,0,1), h = 1e-3, T = 100, gains 50\n"
      "(the paper's H0 = 2, J0 = 1 are misprints: H0 = 1, J0 = -1).";
  static constexpr cli::StateOption initial[] = {
      {"q0", 3, "a,b,c", "position on the sphere |q| = l (default (0, l, 0))"},
      {"p0", 3, "a,b,c", "momentum, tangent: q0.p0 = 0 (default (1, 0, 1))"}};
  // The documented q0 = (0, l, 0) for the given l.
  static void default_x0(const cli::Params& p, double* x0) {
    for (int i = 0; i < 6; ++i) x0[i] = documented.x0[i] * (i == 1 ? p("l") : 1);
  }
};

}  // namespace sim_spherical_pendulum

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(sim_spherical_pendulum::Spherical);
