// SPDX-License-Identifier: Apache-2.0
// attractor-sim chaplygin-sleigh and chaplygin-sleigh-reduced (the entries; registration
// chaplygin_sleigh.cpp, also run by attractor-paper nonholonomic): the Chaplygin sleigh of
// attractor/systems/chaplygin_sleigh.hpp, paper 000 §3.3, with SE(2) embedded as (R ∈ R^{2×2},
// x, y) or reduced to the momentum Π alone (two commands: the state sizes differ). Parameters,
// names and the documented case are the system's facts (ChaplyginSleighFacts, ...ReducedFacts).
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <type_traits>

#include "attractor/systems/chaplygin_sleigh.hpp"
#include "attractor/systems/chaplygin_sleigh_xy.hpp"
#include "feedback_system_driver.hpp"
#include "nonholonomic_baselines.hpp"
#include "nonholonomic_entry.hpp"

namespace attractor::sim {

template <bool Embedded>
struct SleighEntryBase
    : cli::FactsEntry<std::conditional_t<Embedded, ChaplyginSleighFacts, ChaplyginSleighReducedFacts>> {
  template <class S>
  using System = ChaplyginSleigh<S, Embedded>;
  static constexpr int N = Embedded ? 9 : 3;

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    ChaplyginSleighParams<S> prm;
    prm.mass = S(p("m")), prm.inertia = S(p("I")), prm.offset = S(p("a"));
    return System<S>::make(prm);
  }
  // ⟨Π, e⟩ = 0 with e ∝ (m a, 0, −(I + m a²)): m a Πθ = (I + m a²) Πy.
  static Vec3<double> constraint(const cli::Params& p) {
    return Vec3<double>(p("m") * p("a"), 0, -(p("I") + p("m") * p("a") * p("a")));
  }
  // The documented Π0 = (1, 1, Πy) with Πy on the constraint of the given parameters.
  static void default_x0(const cli::Params& p, double* x0) {
    const Vec3<double> Pi(1, 1, p("m") * p("a") / (p("I") + p("m") * p("a") * p("a")));
    const Vec<double, N> x = System<double>::state(0, 0, 0, Pi);
    for (int i = 0; i < N; ++i) x0[i] = x[i];
  }
  static std::string off_constraint(const cli::Params& p, const double* x0) {
    if constexpr (Embedded) {
      const std::string r = rotation_error<2>("R0", x0);
      if (!r.empty()) return r;
    }
    return momentum_error("Π0 (m a Πθ - (I + m a^2) Πy)", Eigen::Map<const Vec3<double>>(x0 + N - 3), constraint(p));
  }
  static std::string project(const cli::Params& p, double* x0) {
    const std::string why = Embedded ? project_rotation<2>("R0", x0) : "";
    Eigen::Map<Vec3<double>> Pi(x0 + N - 3);
    Pi = project_momentum(Pi, constraint(p));
    return why;
  }
  static std::array<Vec<double, N>, 9> region(const System<double>& sys, const Vec<double, N>& x0) {
    return energy_ellipse(sys, x0, sys.model().constraint_vectors(), 1);
  }
};

// Paper 001's baselines on the embedded sleigh: they step the same body in its contact point's
// coordinates (ChaplyginSleighXY: q = (x, y, θ), p = m(θ)q̇, the form of paper 001 Example 3); the
// state converts there at the start and back after every step (θ = atan2(R21, R11), body
// velocity ξ = 𝕀⁻¹Π = (ω, ξx, ξy), (ẋ, ẏ) = R(ξx, ξy); back: R = rot θ, Π = 𝕀ξ).
template <class S>
struct SleighDiscreteExtra {
  using XY = ChaplyginSleighXY<S>;
  DiscreteNonholonomicExtra<ChaplyginSleighXYModel<S>> inner;
  XY xy;
  Vec<S, 6> z = Vec<S, 6>::Zero();  // the coordinates' state
  Vec<S, 9> last = Vec<S, 9>::Zero();

  Vec<S, 6> to_xy(const ChaplyginSleigh<S, true>& sys, const Vec<S, 9>& x) const {
    const S th = std::atan2(x[1], x[0]), c = std::cos(th), s = std::sin(th);
    const Vec3<S> xi = sys.model().inverse_locked_inertia() * Vec3<S>(x.template tail<3>());
    const Vec3<S> q(x[4], x[5], th), qdot(c * xi[1] - s * xi[2], s * xi[1] + c * xi[2], xi[0]);
    Vec<S, 6> r;
    r << q, xy.model().mass(q) * qdot;
    return r;
  }
  Vec<S, 9> from_xy(const ChaplyginSleigh<S, true>& sys) const {
    const Vec3<S> q = z.template head<3>(), qdot = xy.model().inverse_mass(q) * Vec3<S>(z.template tail<3>());
    const S c = std::cos(q[2]), s = std::sin(q[2]);
    const Vec3<S> Pi =
        sys.model().locked_inertia() * Vec3<S>(qdot[2], c * qdot[0] + s * qdot[1], -s * qdot[0] + c * qdot[1]);
    Vec<S, 9> x;
    x << c, s, -s, c, q[0], q[1], Pi;
    return x;
  }
  const char* start(int i, const ChaplyginSleigh<S, true>& sys, const Vec<S, 9>& x0) {
    xy = XY(ChaplyginSleighXYModel<S>{sys.model().prm});
    z = to_xy(sys, x0);
    last = x0;
    return inner.start(i, xy, z);
  }
  static constexpr int discrete_q = 3;  // (x, y, theta)
  static constexpr bool is_dla(int i) { return DiscreteNonholonomicExtra<ChaplyginSleighXYModel<S>>::is_dla(i); }
  void choose_start(const std::string& kind, const double* q1, double h) { inner.choose_start(kind, q1, h); }
  void started(int i, const ChaplyginSleigh<S, true>& sys, Vec<S, 9>& x) {
    inner.started(i, xy, z);
    x = last = from_xy(sys);
  }
  const char* step(int i, const ChaplyginSleigh<S, true>& sys, Vec<S, 9>& x, S h) {
    if (x != last) z = to_xy(sys, x);
    const char* why = inner.step(i, xy, z, h);
    x = last = from_xy(sys);
    return why;
  }
};

struct SleighEntry : SleighEntryBase<true> {
  static constexpr const char* notes = discrete_nonholonomic_notes;
  static constexpr const char* extra_methods[] = {"nh-verlet", "dla", "nh-verlet-remark5",
                                                  "dla-one-sided"};  // paper 001's baselines
  template <class S>
  struct Extra : SleighDiscreteExtra<S> {};

  static constexpr const char* name = "chaplygin-sleigh";
  static constexpr const char* summary = "Chaplygin sleigh with SE(2) embedded (paper 000 §3.3)";
  static constexpr const char* about =
      "Chaplygin sleigh (paper 000 §3.3) with its pose: heading as R in R^{2x2} (column-major), position\n"
      "(x, y), body momentum (Pi_theta, Pi_x, Pi_y). Invariants: J (the blade constraint, target 0), the\n"
      "extended energy h~, the three rows of R^T R - I (one gain group). The reduced form (Π only):\n"
      "chaplygin-sleigh-reduced.";
  static constexpr cli::StateOption initial[] = {
      {"R0", 4, "R11,R21,R12,R22", "initial heading, a rotation, column by column (default identity)"},
      {"xy0", 2, "x,y", "initial position (default 0,0)"},
      {"Pi0", 3, "Pth,Px,Py", "initial momentum, m a Pth = (I + m a^2) Py (default 1,1,Py)"}};
};

struct SleighReducedEntry : SleighEntryBase<false> {
  static constexpr const char* name = "chaplygin-sleigh-reduced";
  static constexpr const char* summary = "Chaplygin sleigh reduced to its momentum (paper 000 §3.3, eq. (53b))";
  static constexpr const char* about =
      "Chaplygin sleigh (paper 000 §3.3) reduced to the body momentum (Pi_theta, Pi_x, Pi_y), eq. (53b).\n"
      "Invariants: J (the blade constraint, target 0) and the extended energy h~. With the pose:\n"
      "chaplygin-sleigh.";
  static constexpr cli::StateOption initial[] = {
      {"Pi0", 3, "Pth,Px,Py", "initial momentum, m a Pth = (I + m a^2) Py (default 1,1,Py)"}};
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::SleighEntry);
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::SleighReducedEntry);
