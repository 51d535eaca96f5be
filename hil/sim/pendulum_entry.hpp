// SPDX-License-Identifier: Apache-2.0
// What the planar and the spherical pendulum (paper 002 §2.3-2.4: T*S^{D-1} inside T*R^D) share
// as feedback-system entries (hil/cli/feedback_entry.hpp): the parameters m, g, l, the
// on-sphere check and --project, the reachable region of an energy level, and the baselines
// RATTLE (HLW VII.1.4) and the Lie-Trotter / Strang splittings of kinetic and potential energy.
// Host tool.
#pragma once

#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "attractor/integrate/rattle.hpp"
#include "attractor/integrate/splitting.hpp"
#include "feedback_system_driver.hpp"

namespace attractor::sim {

template <int D, template <class> class Pendulum, class Facts>
struct PendulumEntry : cli::FactsEntry<Facts> {
  template <class S>
  using System = Pendulum<S>;
  static constexpr int N = 2 * D;
  static constexpr const char* extra_methods[] = {"rattle", "lie-trotter", "strang"};
  static constexpr const char* notes =
      "baselines: rattle is HLW VII.1.4; lie-trotter|strang compose the exact sub-flows of kinetic\n"
      "and potential energy.\n"
      "validation: q0 must lie on the sphere (| |q0|^2 - l^2 | <= 1e-9 l^2) and p0 be tangent\n"
      "(|q0.p0| <= 1e-9 l |p0|) unless --project.\n"
      "region: x0 and the state q = l e1, p = p_max e2 with p_max^2 = 2m (H0 + m g l) (the largest\n"
      "|p|^2 on the energy level), where every row of DF has at least its largest norm over the\n"
      "level H = H0 on the constraint.\n";

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    return System<S>::make(S(p("m")), S(p("g")), S(p("l")));
  }
  static std::string off_constraint(const cli::Params& p, const double* x0) {
    const double l = p("l");
    double f1 = 0, f2 = 0, p2 = 0;
    for (int i = 0; i < D; ++i) f1 += x0[i] * x0[i], f2 += x0[i] * x0[D + i], p2 += x0[D + i] * x0[D + i];
    if (!std::isfinite(f1) || !std::isfinite(f2) || !std::isfinite(p2))
      throw cli::Failure(cli::exit_invalid, "--q0/--p0 overflow: |q0|^2 or q0.p0 is not finite");
    char b[300];
    if (!(std::abs(f1 - l * l) <= 1e-9 * l * l)) {
      std::snprintf(b, sizeof b, "q0 is not on the sphere |q| = l = %g: |q0| = %.10g", l, std::sqrt(f1));
      return b;
    }
    if (!(std::abs(f2) <= 1e-9 * l * std::sqrt(p2))) {
      std::snprintf(b, sizeof b, "p0 is not tangent to the sphere at q0: q0.p0 = %.3e", f2);
      return b;
    }
    return "";
  }
  static std::string project(const cli::Params& p, double* x0) {
    double f1 = 0;
    for (int i = 0; i < D; ++i) f1 += x0[i] * x0[i];
    if (!(f1 > 0)) return "q0 = 0 cannot be projected onto the sphere";
    const double s = p("l") / std::sqrt(f1);
    double q2 = 0, qp = 0;
    for (int i = 0; i < D; ++i) x0[i] *= s, q2 += x0[i] * x0[i], qp += x0[i] * x0[D + i];
    for (int i = 0; i < D; ++i) x0[D + i] -= (qp / q2) * x0[i];
    return "";
  }
  // x0 and the bound state of the energy level (see notes).
  static std::array<Vec<double, N>, 2> region(const System<double>& sys, const Vec<double, N>& x0) {
    const double pmax2 = std::max(0.0, 2 * sys.m * (sys.invariants(x0)[2] + sys.m * sys.g * sys.l));
    Vec<double, N> xw = Vec<double, N>::Zero();
    xw[0] = sys.l;
    xw[D + 1] = std::sqrt(pmax2);
    return {x0, xw};
  }

  template <class S>
  struct Extra {
    Rattle<System<S>> rattle;
    const char* start(int i, const System<S>& sys, const Vec<S, N>& x0) {
      if (i != 0) return nullptr;
      const Result<Rattle<System<S>>> r = Rattle<System<S>>::make(sys, x0);
      if (!r) return to_string(r.error());
      rattle = *r;
      return nullptr;
    }
    const char* step(int i, const System<S>& sys, Vec<S, N>& x, S h) {
      if (i == 0) {
        const bool ok = rattle.step(h) == Error::none;
        x = rattle.state();
        return ok ? nullptr : "rattle_no_solution";
      }
      if (i == 1)
        lie_trotter_step(sys, x, h);
      else
        strang_step(sys, x, h);
      return nullptr;
    }
  };
};

}  // namespace attractor::sim
