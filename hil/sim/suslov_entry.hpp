// SPDX-License-Identifier: Apache-2.0
// attractor-sim suslov (the entry; registration suslov.cpp, also run by attractor-paper
// nonholonomic): the Suslov problem of attractor/systems/suslov.hpp, paper 000 §3.1, with any
// inertia, constraint vector a (the constraint is ⟨ω, a⟩ = 0, ω = 𝕀⁻¹Π; e = 𝕀⁻¹a normalised,
// eq. (30)) and initial state. Parameters, names and the default (the paper's experiment) are the
// system's facts, SuslovFacts.
#pragma once

#include <array>
#include <cmath>
#include <string>

#include "attractor/systems/suslov.hpp"
#include "feedback_system_driver.hpp"
#include "nonholonomic_entry.hpp"
#include "suslov_exact.hpp"

namespace attractor::sim {

struct SuslovEntry : cli::FactsEntry<SuslovFacts> {
  template <class S>
  using System = Suslov<S>;
  static constexpr const char* name = "suslov";
  static constexpr const char* summary = "Suslov problem on SO(3) (paper 000 §3.1), exact solution of Π";
  static constexpr const char* about =
      "Suslov problem (paper 000 §3.1): a rigid body, attitude R (column-major, 9 states) and body\n"
      "momentum Π, with the constraint <ω, a> = 0 on its angular velocity ω = I^-1 Π. Invariants: J (the\n"
      "constraint, target 0), the extended energy h~, and the six rows of R^T R - I (one gain group).\n"
      "exact_error compares Π with its closed form (any inertia and a; R has none and is left out).";
  static constexpr cli::StateOption initial[] = {
      {"R0", 9, "R11,R21,..,R33", "initial attitude, a rotation, column by column (default identity)"},
      {"Pi0", 3, "P1,P2,P3", "initial body momentum, <I^-1 Π0, a> = 0 (default (0,1,1) projected)"}};

  static Mat3<double> inertia(const cli::Params& p) {
    const double* v = p.list("inertia", 6);
    return (Mat3<double>() << v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5]).finished();
  }
  // e = 𝕀⁻¹a (the header scales it); NaN when 𝕀 is not positive definite (make refuses it).
  static Vec3<double> constraint(const cli::Params& p) {
    const Mat3<double> I = inertia(p);
    if (!is_symmetric_positive_definite<double, 3>(I)) return Vec3<double>::Constant(NAN);
    return small_inverse<double, 3>(I) * Eigen::Map<const Vec3<double>>(p.list("a", 3));
  }
  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    SuslovParams<S> prm;
    prm.inertia = inertia(p).cast<S>();
    prm.constraint = constraint(p).cast<S>();
    return System<S>::make(prm);
  }
  // The documented Π0 projected onto the constraint of the given inertia and a.
  static void default_x0(const cli::Params& p, double* x0) {
    const Vec3<double> Pi0(documented.x0[9], documented.x0[10], documented.x0[11]),
        e = constraint(p), Pi = e.allFinite() ? project_momentum(Pi0, e) : Pi0;
    const Vec<double, 12> x = Suslov<double>::state(Mat3<double>::Identity(), Pi);
    for (int i = 0; i < 12; ++i) x0[i] = x[i];
  }
  static std::string off_constraint(const cli::Params& p, const double* x0) {
    const std::string r = rotation_error<3>("R0", x0);
    const Vec3<double> e = constraint(p);
    if (!r.empty() || !e.allFinite()) return r;  // a bad inertia is refused by make
    return momentum_error("Π0 (<I^-1 Π0, a>)", Eigen::Map<const Vec3<double>>(x0 + 9), e);
  }
  static std::string project(const cli::Params& p, double* x0) {
    const std::string why = project_rotation<3>("R0", x0);
    Eigen::Map<Vec3<double>> Pi(x0 + 9);
    Pi = project_momentum(Pi, constraint(p));
    return why;
  }
  // x0 and eight states of its energy level on the constraint plane.
  static std::array<Vec<double, 12>, 9> region(const System<double>& sys, const Vec<double, 12>& x0) {
    return energy_ellipse(sys, x0, sys.model().e, 1);
  }
  static Vec<double, 12> exact(const System<double>& sys, const Vec<double, 12>& x0, double t) {
    Vec<double, 12> x = Vec<double, 12>::Constant(NAN);  // R: no closed form
    x.tail<3>() = suslov_momentum(sys.model().I, sys.model().I * sys.model().e, x0.tail<3>(), t);
    return x;
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::SuslovEntry);
