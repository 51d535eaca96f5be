// SPDX-License-Identifier: Apache-2.0
// attractor-sim chaplygin-sphere-pose (hil/sim/chaplygin_sphere_pose_entry.hpp): the sphere's
// contact point and attitude in the run's state. A roll about a horizontal principal axis goes
// straight at a|Ω| (exact); the default run moves the ball and keeps the attitude's rows, float
// and double; a start whose R0 does not match Gamma0 is off the constraints.
#include <gtest/gtest.h>

#include <cmath>

#include "../sim/chaplygin_sphere_pose_entry.hpp"
#include "feedback_system_driver.hpp"

namespace {

using namespace attractor;
using cli::InvariantKind;
using sim::ChaplyginSpherePoseEntry;

template <class S>
cli::FeedbackOutcome<17> pose_run(const char* method, const std::vector<double>& x0, double T) {
  cli::FeedbackInputs in = cli::feedback_defaults<ChaplyginSpherePoseEntry>(method);
  in.measure_volume = false, in.T = T, in.T_given = true;
  if (!x0.empty()) in.x0 = x0;
  return cli::feedback_simulate<ChaplyginSpherePoseEntry, S>(in);
}

TEST(SpherePose, RollAboutAHorizontalPrincipalAxisGoesStraight) {
  // Ω = (1.5, 0, 0), Γ = e3, R = I: y(t) = −a 1.5 t (a = 1), x = 0, R = rot_x(1.5 t); to t = 2.
  const std::vector<double> x0 = {1.5, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
  for (const char* m : {"rk4", "feedback-rk4"}) {
    const auto o = pose_run<double>(m, x0, 2);
    ASSERT_EQ(o.mon.stopped(), nullptr) << m;
    EXPECT_NEAR(o.r.last[15], 0, 1e-10) << m;
    EXPECT_NEAR(o.r.last[16], -3, 1e-10) << m;
    EXPECT_NEAR(o.r.last[10], std::cos(3.0), 1e-10) << m;  // R22
  }
}

// To t = 4 of the default T = 20 (the whole run takes ~45 s under ASan).
TEST(SpherePose, DefaultRunMovesTheBallAndKeepsTheAttitude) {
  const auto d = pose_run<double>("feedback-rk4", {}, 4);
  const auto f = pose_run<float>("feedback-rk4", {}, 4);
  ASSERT_EQ(d.mon.stopped(), nullptr);
  ASSERT_EQ(f.mon.stopped(), nullptr);
  EXPECT_GT(std::hypot(d.r.last[15], d.r.last[16]), 1);
  EXPECT_LT(d.mon.worst(InvariantKind::group), 1e-9);
  EXPECT_LT(f.mon.worst(InvariantKind::group), 2e-5);
  EXPECT_NEAR(f.r.last[15], d.r.last[15], 1e-3);  // float follows double's path
  EXPECT_NEAR(f.r.last[16], d.r.last[16], 1e-3);
}

TEST(SpherePose, AStartWhoseAttitudeDisagreesWithGammaIsOffTheConstraints) {
  const double values[] = {1, 1, 0.3, 0.4, 0.5};  // a, m, I1, I2, I3
  const cli::Params p(cli::params_of<ChaplyginSpherePoseEntry>(), values);
  double x[17] = {1, 0.5, 2, 0.6, 0, 0.8, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};  // R0 = I, Gamma0 tilted
  EXPECT_NE(ChaplyginSpherePoseEntry::off_constraint(p, x).find("R0^T e3 is not Gamma0"), std::string::npos);
  ASSERT_EQ(ChaplyginSpherePoseEntry::project(p, x), "");
  EXPECT_EQ(ChaplyginSpherePoseEntry::off_constraint(p, x), "");
}

}  // namespace
