// SPDX-License-Identifier: Apache-2.0
// attractor-sim chaplygin-sphere-pose (the entry; registration chaplygin_sphere_pose.cpp): the
// Chaplygin sphere with its attitude R and contact point (x, y) (systems/chaplygin_sphere_pose.hpp)
// through the feedback-system driver; the reduced command is chaplygin-sphere
// (chaplygin_sphere_entry.hpp), whose parameters, defaults and reachable region this takes.
#pragma once

#include <array>
#include <cmath>
#include <string>

#include "attractor/systems/chaplygin_sphere_pose.hpp"
#include "attractor/systems/spherical_robot_pose.hpp"
#include "chaplygin_sphere_entry.hpp"

namespace attractor::sim {

struct ChaplyginSpherePoseEntry : cli::FactsEntry<ChaplyginSpherePoseFacts> {
  template <class S>
  using System = ChaplyginSpherePose<S>;
  using Reduced = ChaplyginSphereEntry;
  static constexpr const char* name = "chaplygin-sphere-pose";
  static constexpr const char* summary =
      "Chaplygin sphere with its attitude and contact point (where the ball rolls to)";
  static constexpr const char* about =
      "Chaplygin sphere (paper 004) with the reconstruction of where it rolls: R' = R Omega^ (body to\n"
      "space) and the contact point x' = a (R Omega)_2, y' = -a (R Omega)_1, beside chaplygin-sphere's\n"
      "(Omega, Gamma). State x = (Omega, Gamma, R column-major, x, y). Invariants: chaplygin-sphere's\n"
      "G, H, K, M2, the six rows of R^T R - I (one gain) and R^T e3 - Gamma (one gain, target 0).\n"
      "Defaults as chaplygin-sphere's, R0 the smallest rotation with R0^T e3 = Gamma0, the contact\n"
      "point at (0, 0), T = 20. A start must have R0 a rotation with R0^T e3 = Gamma0: --project\n"
      "normalizes Gamma0 and sets R0 from it that way.";
  static constexpr cli::StateOption initial[] = {
      Reduced::initial[0],
      Reduced::initial[1],
      {"R0", 9, "R11,R21,R31,R12,R22,R32,R13,R23,R33", "attitude, body to space, column-major (default from Gamma0)"},
      {"xy0", 2, "X,Y", "contact point on the plane [m] (default 0,0)"}};

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    ChaplyginSphereParams<S> q;
    q.radius = S(p("a")), q.mass = S(p("m")), q.I1 = S(p("I1")), q.I2 = S(p("I2")), q.I3 = S(p("I3"));
    return System<S>::make(q);
  }
  static std::string off_constraint(const cli::Params& p, const double* x) {
    const std::string reduced = Reduced::off_constraint(p, x);
    if (!reduced.empty()) return reduced;
    const Vec<double, 17> v = Eigen::Map<const Vec<double, 17>>(x);
    const Mat3<double> R = System<double>::attitude(v);
    const double orth = (R.transpose() * R - Mat3<double>::Identity()).norm();
    if (orth > 1e-9 || R.determinant() < 0) return "R0 is not a rotation: |R0^T R0 - I| = " + cli::exact(orth);
    const double vert = (R.row(2).transpose() - v.segment<3>(3)).norm();
    if (vert > 1e-9) return "R0^T e3 is not Gamma0: |R0^T e3 - Gamma0| = " + cli::exact(vert);
    return "";
  }
  static std::string project(const cli::Params& p, double* x) {
    const std::string why = Reduced::project(p, x);
    if (why.empty()) write_attitude(x);
    return why;
  }
  // The reduced command's reachable samples, each with the attitude its Gamma gives.
  static std::array<Vec<double, 17>, kSphereRegionSamples> region(const System<double>& sys,
                                                                  const Vec<double, 17>& x0) {
    const auto reduced = sphere_reachable_samples(sys.sphere, Vec<double, 6>(x0.head<6>()));
    std::array<Vec<double, 17>, kSphereRegionSamples> out;
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i] = x0;
      out[i].head<6>() = reduced[i];
      write_attitude(out[i].data());
    }
    return out;
  }

 private:
  static void write_attitude(double* x) {
    const Mat3<double> R = spherical_robot_pose_from_gamma(Vec3<double>(x[3], x[4], x[5])).R;
    for (int k = 0; k < 9; ++k) x[6 + k] = R.data()[k];
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::ChaplyginSpherePoseEntry);
