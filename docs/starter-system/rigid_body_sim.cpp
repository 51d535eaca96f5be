// SPDX-License-Identifier: Apache-2.0
// rigid-body-sim rigid-body: the free rigid body of rigid_body.hpp as an attractor-sim command,
// with every option, output and exit code of attractor-sim (docs/tools.md). The entry declares
// what the driver cannot know: parameters, names, the start state, the constraint and the
// region a run reaches (feedback_entry.hpp lists the members).
#include <array>
#include <string>

#include "feedback_system_driver.hpp"
#include "rigid_body.hpp"

namespace {

using attractor::Mat3;
using attractor::Vec;
using attractor::Vec3;

struct RigidBodyEntry {
  template <class S>
  using System = RigidBody<S>;
  static constexpr const char* name = "rigid-body";
  static constexpr const char* summary = "free rigid body on SO(3): energy, |Π|², RᵀR = I";
  static constexpr const char* about =
      "Free rigid body: attitude R (column by column) and body momentum Π, R' = R Ω^, Π' = Π × Ω.\n"
      "Invariants: the energy H, |Π|² and the six entries of RᵀR (one gain group, targets I).";
  static constexpr attractor::cli::Param params[] = {{"I1", "kg m^2", 1, attractor::cli::positive(), "moment 1"},
                                                     {"I2", "kg m^2", 2, attractor::cli::positive(), "moment 2"},
                                                     {"I3", "kg m^2", 3, attractor::cli::positive(), "moment 3"}};
  static constexpr const char* states[] = {"R11", "R21", "R31", "R12", "R22", "R32",
                                           "R13", "R23", "R33", "Pi1", "Pi2", "Pi3"};
  using Kind = attractor::cli::InvariantKind;
  static constexpr attractor::cli::InvariantInfo invariants[] = {
      {"H", Kind::energy},  {"Pi2", Kind::momentum}, {"O11", Kind::group}, {"O22", Kind::group},
      {"O33", Kind::group}, {"O12", Kind::group},    {"O13", Kind::group}, {"O23", Kind::group}};
  static constexpr attractor::cli::StateOption initial[] = {
      {"R0", 9, "R11,R21,..,R33", "initial attitude, a rotation, column by column (default identity)"},
      {"Pi0", 3, "P1,P2,P3", "initial body momentum [kg m^2/s] (default 1,0.2,0.5)"}};
  static constexpr double default_gain = 10;
  static constexpr const char* T_default = "default 20";

  template <class S>
  static attractor::Result<RigidBody<S>> make(const attractor::cli::Params& p) {
    return RigidBody<S>::make(S(p("I1")), S(p("I2")), S(p("I3")));
  }
  static void default_x0(const attractor::cli::Params&, double* x0) {
    Eigen::Map<Vec<double, 12>> x(x0);
    x = RigidBody<double>::state(Mat3<double>::Identity(), Vec3<double>(1, 0.2, 0.5));
  }
  static double default_T(const RigidBody<double>&, const Vec<double, 12>&) { return 20; }
  static std::string off_constraint(const attractor::cli::Params&, const double* x0) {
    const Eigen::Map<const Mat3<double>> R(x0);
    const double e = (R.transpose() * R - Mat3<double>::Identity()).cwiseAbs().maxCoeff();
    return e <= 1e-9 && R.determinant() > 0 ? "" : "--R0 is not a rotation (RᵀR ≠ I or det ≤ 0)";
  }
  // Gram–Schmidt on the columns; refuses a degenerate or left-handed R0.
  static std::string project(const attractor::cli::Params&, double* x0) {
    Eigen::Map<Mat3<double>> R(x0);
    if (!R.allFinite() || !(R.determinant() > 1e-12)) return "--R0 has no nearby rotation";
    R.col(0).normalize();
    R.col(1) = (R.col(1) - R.col(1).dot(R.col(0)) * R.col(0)).normalized();
    R.col(2) = R.col(0).cross(R.col(1));
    return "";
  }
  // |grad H| = |Ω| is largest with all of |Π| on the axis of least inertia: x0 and Π0's
  // magnitude along each axis (the RᵀR rows' gradients depend on R only).
  static std::array<Vec<double, 12>, 4> region(const RigidBody<double>&, const Vec<double, 12>& x0) {
    std::array<Vec<double, 12>, 4> r{x0, x0, x0, x0};
    for (int k = 0; k < 3; ++k) r[k + 1].tail<3>() = x0.tail<3>().norm() * Vec3<double>::Unit(k);
    return r;
  }
};

}  // namespace

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(RigidBodyEntry);
