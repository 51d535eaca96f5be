// SPDX-License-Identifier: Apache-2.0
// The Chaplygin sphere with its attitude and contact point (systems/chaplygin_sphere_pose.hpp):
// the conformance harness; a roll about a horizontal principal axis, whose exact motion is a
// straight line at speed a|Ω|; and a generic motion, whose reduced part is the reduced system's
// run and whose spatial angular momentum R M stays fixed, float and double, plain and feedback RK4.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/chaplygin_sphere_pose.hpp"
#include "conformance.hpp"

namespace attractor::test {
template <class S>
struct Conformance<ChaplyginSpherePose<S>> : ConformanceDefaults {
  static ChaplyginSpherePose<S> make(std::mt19937&) {
    ChaplyginSphereParams<S> p;
    p.radius = S(0.7), p.mass = S(1.3), p.I1 = S(0.2), p.I2 = S(0.35), p.I3 = S(0.45);
    return ChaplyginSpherePose<S>::make(p).value();
  }
  // On SO(3) with Γ = Rᵀe3, where every row is conserved by the field.
  static Vec<double, 17> sample(std::mt19937& rng, const ChaplyginSpherePose<S>&) {
    const Mat3<double> R = exp_so3(uniform<3>(rng, -3.0, 3.0));
    return ChaplyginSpherePose<double>::state(uniform<3>(rng, -2.0, 2.0), R.row(2).transpose(), R,
                                              uniform<2>(rng, -5.0, 5.0));
  }
};
}  // namespace attractor::test

namespace {
template <class S>
using SpherePoseSystem = attractor::ChaplyginSpherePose<S>;
}
ATTRACTOR_CONFORMANCE(ChaplyginSpherePoseConformance, SpherePoseSystem);

using namespace attractor;

namespace {

template <class S>
struct PoseRun {
  Vec<S, 17> x;
  double worst_orthogonality = 0, worst_vertical = 0, worst_momentum = 0;
};

// T/h steps of plain (K = 0) or feedback RK4 from x0, with the attitude's invariants and the
// spatial momentum's drift (relative to |R M|) watched at every step.
template <class S>
PoseRun<S> run_pose(const ChaplyginSpherePose<S>& sys, const Vec<S, 17>& x0, S gain, double T, double h) {
  const auto fb = feedback(sys, x0, Vec<S, 13>::Constant(gain));
  const Vec3<S> L0 = sys.spatial_momentum(x0);
  PoseRun<S> r{x0};
  const int steps = int(std::lround(T / h));
  for (int k = 0; k < steps; ++k) {
    if (gain > S(0)) {
      rk4_step(fb, r.x, S(h));
    } else {
      rk4_step(sys, r.x, S(h));
    }
    const Vec<S, 13> F = sys.invariants(r.x);
    r.worst_orthogonality = std::max(r.worst_orthogonality, double(F.template segment<6>(4).norm()));
    r.worst_vertical = std::max(r.worst_vertical, double(F.template tail<3>().norm()));
    r.worst_momentum = std::max(r.worst_momentum, double((sys.spatial_momentum(r.x) - L0).norm() / L0.norm()));
  }
  return r;
}

template <class S>
void pose_straight_roll(S gain, double tol, double position_tol) {
  // Ω = (w, 0, 0) along the principal axis e1, Γ = e3: Ω stays, R = rot_x(w t), and the contact
  // point moves along −y at a w (ẏ = −a ω_x).
  ChaplyginSphereParams<S> p;
  p.radius = S(0.6);
  const auto sys = ChaplyginSpherePose<S>::make(p).value();
  const double w = 1.5, T = 4;
  const Vec<S, 17> x0 =
      ChaplyginSpherePose<S>::state(Vec3<S>(S(w), 0, 0), Vec3<S>(0, 0, 1), Mat3<S>::Identity(), Vec<S, 2>::Zero());
  const PoseRun<S> r = run_pose(sys, x0, gain, T, 1e-3);
  const Vec<S, 2> c = ChaplyginSpherePose<S>::contact_point(r.x);
  EXPECT_NEAR(double(c[0]), 0, position_tol);
  EXPECT_NEAR(double(c[1]), -0.6 * w * T, position_tol);
  const Mat3<double> exact = exp_so3(Vec3<double>(w * T, 0, 0));
  EXPECT_LT((ChaplyginSpherePose<S>::attitude(r.x).template cast<double>() - exact).norm(), tol);
  EXPECT_LT(r.worst_orthogonality, tol);
  EXPECT_LT(r.worst_vertical, tol);
}

TEST(ChaplyginSpherePose, RollAboutAHorizontalPrincipalAxisIsAStraightLine) {
  pose_straight_roll<double>(0, 1e-11, 1e-11);  // measured 4e-13 at most
  pose_straight_roll<double>(1, 1e-11, 1e-11);
  // float: y = 3.6 gains 9e-4 per step, each rounded to ulp(3.6)/2 = 1.2e-7 (measured 7.1e-5 after
  // 4000 steps).
  pose_straight_roll<float>(0, 2e-5, 3e-4);
  pose_straight_roll<float>(1, 2e-5, 3e-4);
}

template <class S>
void pose_generic_motion(S gain, double tol_attitude, double tol_momentum) {
  const auto sys = ChaplyginSpherePose<S>::make().value();
  const Vec3<S> G0(S(0.6), 0, S(0.8));
  // R with Rᵀe3 = Γ0: the rotation about e2 taking e3 to Γ0, transposed.
  const Mat3<S> R0 = exp_so3(Vec3<S>(0, -std::atan2(S(0.6), S(0.8)), 0));
  ASSERT_LT((R0.row(2).transpose() - G0).norm(), 1e-6);
  const Vec<S, 17> x0 = ChaplyginSpherePose<S>::state(Vec3<S>(1, S(0.5), 2), G0, R0, Vec<S, 2>::Zero());
  const PoseRun<S> r = run_pose(sys, x0, gain, 20, 1e-3);
  EXPECT_LT(r.worst_orthogonality, tol_attitude);
  EXPECT_LT(r.worst_vertical, tol_attitude);
  EXPECT_LT(r.worst_momentum, tol_momentum);
  // The ball went somewhere: the reconstruction is not frozen.
  EXPECT_GT(double(ChaplyginSpherePose<S>::contact_point(r.x).norm()), 0.1);
  if (gain == S(0)) {  // the reduced part is the reduced system's own plain run
    Vec<S, 6> y = ChaplyginSpherePose<S>::reduced(x0);
    for (int k = 0; k < 20000; ++k) rk4_step(sys.sphere, y, S(1e-3));
    EXPECT_EQ(ChaplyginSpherePose<S>::reduced(r.x), y);
  }
}

TEST(ChaplyginSpherePose, GenericMotionKeepsTheAttitudeAndTheSpatialMomentum) {
  // Measured (attitude rows, momentum): double 5.5e-14, 5.4e-14 plain, 1.3e-10, 4.2e-10 feedback;
  // float 9.8e-6, 1.2e-5 plain, 1.7e-6, 3.1e-6 feedback.
  pose_generic_motion<double>(0, 1e-12, 1e-12);
  pose_generic_motion<double>(1, 1e-9, 4e-9);
  pose_generic_motion<float>(0, 1e-4, 1e-4);
  pose_generic_motion<float>(1, 2e-5, 3e-5);
}

}  // namespace
