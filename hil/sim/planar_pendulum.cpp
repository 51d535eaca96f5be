// SPDX-License-Identifier: Apache-2.0
// attractor-sim planar-pendulum: paper 002 §2.4 (Chang, Perlmutter, Vankerschaver) with any
// parameters, initial condition, method, gains, step and precision. Driver: pendulum_cli.hpp.
#include "attractor/systems/planar_pendulum.hpp"
#include "commands.hpp"
#include "pendulum_cli.hpp"

namespace {

using namespace attractor;

struct Planar {
  template <class S>
  using System = PlanarPendulum<S>;
  static constexpr int D = 2, M = 3;
  static constexpr int energy_index = 2;
  static constexpr bool has_period = true;
  static constexpr const char* name = "planar-pendulum";
  static constexpr const char* coord[D] = {"x", "y"};
  static constexpr const char* mom[D] = {"px", "py"};
  static constexpr const char* inv[M] = {"f1", "f2", "H"};
  static constexpr const char* usage = "usage: attractor-sim planar-pendulum [options]";
  static constexpr const char* about =
      "Planar pendulum on T*S^1 inside T*R^2 (paper 002 §2.4): state x = (x, y, px, py), invariants\n"
      "f1 = x^2 + y^2, f2 = x px + y py, H = |p|^2/(2m) + m g y (gravity along -e_y). Default: §2.4's\n"
      "start at rest on the horizontal, m = g = l = 1, q0 = (l, 0), p0 = (0, 0), run for one period\n"
      "T = 4 sqrt(l/g) K(k) = 7.4163 (§2.4 gives no gains; default 50 as in §2.3).";
  static constexpr const char* q0_meta = "x,y";
  static constexpr const char* p0_meta = "px,py";
  static constexpr const char* q0_help = "position on the circle |q| = l (default (l, 0))";
  static constexpr const char* p0_help = "momentum, tangent: q0.p0 = 0 (default (0, 0))";
  static constexpr const char* T_default_text =
      "default: one period of the motion, the summary gives it; 10 when it has none";
  static void default_x0(double l, double* q0, double* p0) {
    q0[0] = l, q0[1] = 0;  // paper 002 §2.4 (l = 1)
    p0[0] = 0, p0[1] = 0;
  }
  static Result<double> period(const PlanarPendulum<double>& sys, const Vec<double, 4>& x0) { return sys.period(x0); }
  static double default_T(const PlanarPendulum<double>& sys, const Vec<double, 4>& x0) {
    const Result<double> T = sys.period(x0);
    return T ? *T : 10.0;
  }
};

}  // namespace

ATTRACTOR_REGISTER_COMMAND(attractor::cli::SimSystems, "planar-pendulum",
                           "planar pendulum (paper 002 §2.4): feedback/RK/RATTLE/splitting, invariant drift",
                           attractor::sim::pendulum_spec<Planar>, attractor::sim::pendulum_run<Planar>);
