// SPDX-License-Identifier: Apache-2.0
// attractor-sim planar-pendulum: paper 002 §2.4 (Chang, Perlmutter, Vankerschaver) with any
// parameters, initial condition, method, gains, step and precision. Driver:
// hil/cli/feedback_system_driver.hpp; what the pendulums share: pendulum_entry.hpp.
#include "attractor/systems/planar_pendulum.hpp"
#include "pendulum_entry.hpp"

// Named, not anonymous: attractor-sim is one translation unit (hil/CMakeLists.txt).
namespace sim_planar_pendulum {

using namespace attractor;

struct Planar : sim::PendulumEntry<2, PlanarPendulum, PlanarPendulumFacts> {
  static constexpr const char* name = "planar-pendulum";
  static constexpr const char* summary =
      "planar pendulum (paper 002 §2.4): feedback/RK/RATTLE/splitting, invariant drift";
  static constexpr const char* about =
      "Planar pendulum on T*S^1 inside T*R^2 (paper 002 §2.4): state x = (x, y, px, py), invariants\n"
      "f1 = x^2 + y^2, f2 = x px + y py, H = |p|^2/(2m) + m g y (gravity along -e_y). Default: §2.4's\n"
      "start at rest on the horizontal, m = g = l = 1, q0 = (l, 0), p0 = (0, 0), run for one period\n"
      "T = 4 sqrt(l/g) K(k) = 7.4163 (§2.4 gives no gains; default 50 as in §2.3).";
  static constexpr cli::StateOption initial[] = {{"q0", 2, "x,y", "position on the circle |q| = l (default (l, 0))"},
                                                 {"p0", 2, "px,py", "momentum, tangent: q0.p0 = 0 (default (0, 0))"}};
  static constexpr const char* T_default =
      "default: one period of the motion, the summary gives it; 10 when it has none";

  static void default_x0(const cli::Params& p, double* x0) {
    for (int i = 0; i < 4; ++i) x0[i] = documented.x0[i] * (i == 0 ? p("l") : 1);  // q0 = (l, 0)
  }
  static double default_T(const PlanarPendulum<double>& sys, const Vec<double, 4>& x0) {
    const Result<double> T = sys.period(x0);
    return T ? *T : 10.0;
  }
  static void report(const PlanarPendulum<double>& sys, const Vec<double, 4>& x0, cli::Json& j, std::string& text) {
    const Result<double> T = sys.period(x0);
    j["period"] = T ? cli::num(*T) : cli::Json(nullptr);
    char b[40];
    if (T) std::snprintf(b, sizeof b, " | period=%.6g", *T), text = b;
  }
};

}  // namespace sim_planar_pendulum

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(sim_planar_pendulum::Planar);
