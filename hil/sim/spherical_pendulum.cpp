// SPDX-License-Identifier: Apache-2.0
// attractor-sim spherical-pendulum: paper 002 §2.3 (Chang, Perlmutter, Vankerschaver) with any
// parameters, initial condition, method, gains, step and precision. Driver: pendulum_cli.hpp.
#include "attractor/systems/spherical_pendulum.hpp"
#include "commands.hpp"
#include "pendulum_cli.hpp"

namespace {

using namespace attractor;

struct Spherical {
  template <class S>
  using System = SphericalPendulum<S>;
  static constexpr int D = 3, M = 4;
  static constexpr int energy_index = 2;
  static constexpr bool has_period = false;
  static constexpr const char* name = "spherical-pendulum";
  static constexpr const char* coord[D] = {"q1", "q2", "q3"};
  static constexpr const char* mom[D] = {"p1", "p2", "p3"};
  static constexpr const char* inv[M] = {"f1", "f2", "H", "J"};
  static constexpr const char* usage = "usage: attractor-sim spherical-pendulum [options]";
  static constexpr const char* about =
      "Spherical pendulum on T*S^2 inside T*R^3 (paper 002 §2.3): state x = (q, p), q, p in R^3,\n"
      "invariants f1 = |q|^2, f2 = q.p, H = |p|^2/(2m) + m g q3, J = q1 p2 - q2 p1 (gravity along -e3).\n"
      "Defaults reproduce §2.3: m = g = l = 1, q0 = (0,1,0), p0 = (1,0,1), h = 1e-3, T = 100, gains 50\n"
      "(the paper's H0 = 2, J0 = 1 are misprints: H0 = 1, J0 = -1).";
  static constexpr const char* q0_meta = "a,b,c";
  static constexpr const char* p0_meta = "a,b,c";
  static constexpr const char* q0_help = "position on the sphere |q| = l (default (0, l, 0))";
  static constexpr const char* p0_help = "momentum, tangent: q0.p0 = 0 (default (1, 0, 1))";
  static constexpr const char* T_default_text = "default 100";
  static void default_x0(double l, double* q0, double* p0) {
    q0[0] = 0, q0[1] = l, q0[2] = 0;  // paper 002 §2.3 (l = 1)
    p0[0] = 1, p0[1] = 0, p0[2] = 1;
  }
  static double default_T(const SphericalPendulum<double>&, const Vec<double, 6>&) { return 100.0; }
  static Result<double> period(const SphericalPendulum<double>&, const Vec<double, 6>&) {
    return Error::out_of_range;  // quasi-periodic: no period
  }
};

}  // namespace

ATTRACTOR_REGISTER_COMMAND(attractor::cli::SimSystems, "spherical-pendulum",
                           "spherical pendulum (paper 002 §2.3): feedback/RK/RATTLE/splitting, invariant drift",
                           attractor::sim::pendulum_spec<Spherical>, attractor::sim::pendulum_run<Spherical>);
