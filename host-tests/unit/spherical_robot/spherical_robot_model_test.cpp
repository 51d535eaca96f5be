// SPDX-License-Identifier: Apache-2.0
// Spherical robot model (paper 004 (0.29)–(0.30); paper 003 (17), (43)–(44)): the explicit
// equations against two independent formulations (multipliers eliminated numerically; the generic
// Hamel plant), the open-loop invariants and their Jacobians, the feedback integrator, the
// reconstruction of R and (x, y), the upright fall rate. Several parameter sets, random states.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Eigenvalues>

#include "attractor/control/controlled_lagrangian.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/spherical_robot.hpp"
#include "attractor/systems/spherical_robot_hamel.hpp"
#include "attractor/systems/spherical_robot_pose.hpp"
#include "no_alloc.hpp"
#include "numeric_jacobian.hpp"
#include "spherical_robot_multipliers.hpp"

using namespace attractor;

namespace {

using P = SphericalRobotParams<double>;
using X = Vec<double, 8>;

std::vector<P> param_sets() {
  return {
      P{},                                                      // the reference robot
      {0.15, 2.5, 0.04, 9.81, 0.05, 0.07, 0.03, 0.004, 0.009},  // 𝕀 and J not axisymmetric
      {0.30, 6.0, -0.08, 9.81, 0.20, 0.20, 0.25, 0.02, 0.02},   // bottom-heavy, I3 > I⊥
      {0.25, 3.0, 0.0, 3.7, 0.06, 0.06, 0.06, 0.01, 0.01},      // l = 0: Chaplygin ball + gyrostat
  };
}

X random_state(std::mt19937& rng, double w = 2, double th = 30) {
  std::uniform_real_distribution<double> U(-1, 1);
  Vec3<double> G(U(rng), U(rng), U(rng));
  G.normalize();
  X x;
  x << w * U(rng), w * U(rng), w * U(rng), G, th * U(rng), th * U(rng);
  return x;
}

TEST(SphericalRobotModel, ExplicitAgreesWithMultiplierFormAtRandomStates) {
  // Newton–Euler with the 3×3 solve vs paper 003 (17) with λ eliminated from an 8×8 system.
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> U(-1, 1);
  double worst = 0;
  for (const P& p : param_sets()) {
    ASSERT_EQ(p.validate(), Error::none);
    const SphericalRobot<double> ex{p};
    const SphericalRobotMultipliers<double> ep{p};
    for (int t = 0; t < 200; ++t) {
      const X x = random_state(rng);
      const Vec<double, 2> u(U(rng), U(rng));
      X fx;
      Vec<double, 11> fz;
      const Vec<double, 11> z = spherical_robot_full_state(x, p.radius);
      {
        test::NoAllocGuard guard;
        fx = ex.field(x, u);
        fz = ep.field(z, u);
      }
      const double scale = 1 + fx.cwiseAbs().maxCoeff();
      worst = std::max(worst, (fx - spherical_robot_reduced_state(fz)).cwiseAbs().maxCoeff() / scale);
      // Ẏ = d/dt(aΩ×Γ) = a(Ω̇×Γ + Ω×Γ̇): the multipliers keep the contact at rest
      const Vec3<double> Yd = p.radius * (Vec3<double>(fx.head<3>()).cross(Vec3<double>(x.segment<3>(3))) +
                                          Vec3<double>(x.head<3>()).cross(Vec3<double>(fx.segment<3>(3))));
      worst = std::max(worst, (Yd - fz.segment<3>(3)).cwiseAbs().maxCoeff() / scale);
    }
  }
  EXPECT_LT(worst, 1e-12);  // measured 1.1e-14
}

TEST(SphericalRobotModel, ExplicitAgreesWithGenericHamelPlant) {
  // The same robot through hamel_rotor_rates (paper 003 (44)) built from 𝔾, ℰ(Γ), ad*, 𝐊.
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> U(-1, 1);
  double worst = 0;
  for (const P& p : param_sets()) {
    const SphericalRobot<double> ex{p};
    const auto H = SphericalRobotHamel<double>::from(p);
    for (int t = 0; t < 100; ++t) {
      const X x = random_state(rng);
      const Vec<double, 2> u(U(rng), U(rng));
      const X f = ex.field(x, u);
      const auto r = hamel_rotor_rates(H, Vec3<double>(x.head<3>()), Vec3<double>(x.segment<3>(3)),
                                       Vec<double, 2>(x.tail<2>()), u);
      const double scale = 1 + f.cwiseAbs().maxCoeff();
      worst = std::max(worst, (f.head<3>() - r.v_dot).cwiseAbs().maxCoeff() / scale);
      worst = std::max(worst, (f.segment<3>(3) - r.Gamma_dot).cwiseAbs().maxCoeff() / scale);
      worst = std::max(worst, (f.tail<2>() - r.theta_ddot).cwiseAbs().maxCoeff() / scale);
    }
  }
  EXPECT_LT(worst, 1e-11);
}

TEST(SphericalRobotModel, OpenLoopInvariantsAlongAccurateTrajectories) {
  // u = 0, π = 0 (θ̇ = −Ω on the rotor axes): E, π, |Γ| and the Jellett integral conserved.
  for (const P& p : param_sets()) {
    const SphericalRobot<double> sys{p};
    X x = spherical_robot_initial_state(0.3, Vec3<double>(0.4, -0.2, 0.7), Vec<double, 2>(-0.4, 0.2));
    const Vec<double, 5> F0 = sys.invariants(x);
    double drift[5] = {0, 0, 0, 0, 0};
    for (int k = 0; k < 4000; ++k) {  // [0, 4] s at h = 1e-3
      rk4_step(sys, x, 1e-3);
      const Vec<double, 5> F = sys.invariants(x);
      for (int i = 0; i < 5; ++i) drift[i] = std::max(drift[i], std::abs(F[i] - F0[i]));
    }
    EXPECT_LT(drift[0], 1e-8) << "E, m=" << p.m;
    EXPECT_LT(drift[1], 1e-12);
    EXPECT_LT(drift[2], 1e-12);
    EXPECT_LT(drift[3], 1e-9);
    if (p.I1 - p.J1 == p.I2 - p.J2) {
      EXPECT_LT(drift[4], 1e-9) << "Jellett, m=" << p.m;
    } else {
      EXPECT_GT(drift[4], 1e-6) << "Jellett needs an axisymmetric 𝕀 − J, m=" << p.m;
    }
  }
}

TEST(SphericalRobotModel, JellettDefectWithSpinningRotors) {
  // π ≠ 0: d𝒥/dt = l π·(Ω×E3) (derived); E and π still conserved.
  std::mt19937 rng(4);
  for (const P& p : param_sets()) {
    if (p.I1 - p.J1 != p.I2 - p.J2) continue;
    const SphericalRobot<double> sys{p};
    for (int t = 0; t < 50; ++t) {
      const X x = random_state(rng);
      const X f = sys.field(x, Vec<double, 2>::Zero());
      const Vec<double, 5> dF = sys.invariants_jacobian(x) * f;
      const Vec<double, 2> pi = sys.rotor_momenta(x);
      const Vec3<double> Om = x.head<3>();
      const double defect = p.l * Vec3<double>(pi[0], pi[1], 0).dot(Om.cross(Vec3<double>::UnitZ()));
      EXPECT_NEAR(dF[4], defect, 1e-10 * (1 + std::abs(defect)));
      EXPECT_NEAR(dF[0], 0, 1e-10 * (1 + f.cwiseAbs().maxCoeff()));
      EXPECT_NEAR(dF[1], 0, 1e-14);
      EXPECT_NEAR(dF[3], 0, 1e-14);
    }
  }
}

TEST(SphericalRobotModel, ChaplyginBallWithGyrostatIntegrals) {
  // l = 0: ⟨AΩ + h, Γ⟩ and |AΩ + h|² conserved for any constant rotor rates (classical).
  P p = param_sets()[3];
  const SphericalRobot<double> sys{p};
  std::mt19937 rng(5);
  for (int t = 0; t < 50; ++t) {
    const X x = random_state(rng);
    const X f = sys.field(x, Vec<double, 2>::Zero());
    auto K = [&](const X& y) {
      const Vec3<double> Om = y.head<3>(), G = y.segment<3>(3);
      const Vec3<double> M = sys.contact_inertia(G) * Om + sys.rotor_momentum_vector(Vec<double, 2>(y.tail<2>()));
      return Vec<double, 2>(M.dot(G), M.squaredNorm());
    };
    const Mat<double, 2, 8> DK = test::numeric_jacobian<2>(K, x);
    const Vec<double, 2> rate = DK * f;
    EXPECT_LT(rate.cwiseAbs().maxCoeff(), 1e-6 * (1 + K(x).cwiseAbs().maxCoeff()));
  }
}

TEST(SphericalRobotModel, UprightFallRate) {
  // Linearization at Γ = E3, Ω = 0, θ̇ = 0: eigenvalues ±√(mgl/I_P) (twice), I_P = I⊥ − J1 + m(a+l)².
  const P p{};
  const SphericalRobot<double> sys{p};
  EXPECT_NEAR(p.pivot_inertia(0), 0.34, 1e-15);
  EXPECT_NEAR(sys.fall_rate(), 2.4022, 5e-5);  // spherical-robot.md
  X x0 = spherical_robot_initial_state(0.0, Vec3<double>(0, 0, 0), Vec<double, 2>(0, 0));
  const auto Jn = test::numeric_jacobian<8>([&sys](const X& y) { return sys.field(y); }, x0);
  const Eigen::EigenSolver<Mat<double, 8, 8>> es(Jn);
  double lmax = 0;
  int count = 0;
  for (int i = 0; i < 8; ++i) {
    lmax = std::max(lmax, es.eigenvalues()[i].real());
    if (std::abs(es.eigenvalues()[i].real() - sys.fall_rate()) < 1e-5) ++count;
  }
  EXPECT_NEAR(lmax, sys.fall_rate(), 1e-6);
  EXPECT_EQ(count, 2);
}

TEST(SphericalRobotModel, FeedbackIntegratorKeepsInvariantsInFloat) {
  // float, coarse h = 0.05, 20 s of the falling, flipping robot (U1): the feedback integrator
  // (rate 0.3/s) keeps E and |Γ|² closer than plain RK4 at the same step, and its feedback term
  // stays inside RK4's stability interval along the whole run (the gradients grow as the ball
  // flips: rate 3/s at this step is unstable, see docs/spherical-robot.md).
  const SphericalRobot<float> sys{SphericalRobotParams<float>{}};
  const Vec<float, 8> x0 = spherical_robot_initial_state(0.1f, Vec3<float>(0.1f, 0.f, 0.1f), Vec<float, 2>(-0.1f, 0.f));
  auto fb = spherical_robot_feedback(sys, x0, 0.3f);
  EXPECT_GT(fb.gains()[4], 0.f);  // π = 0: the Jellett integral is monitored
  const float h = 0.05f;
  Vec<float, 8> xf = x0, xp = x0;
  const Vec<float, 5> F0 = sys.invariants(x0);
  Vec<float, 5> dfb = Vec<float, 5>::Zero(), dp = Vec<float, 5>::Zero();
  float max_tilt = 0;
  for (int k = 0; k < 400; ++k) {
    EXPECT_EQ(fb.check_step(Scheme::rk4, h, xf), Error::none);
    {
      test::NoAllocGuard guard;
      rk4_step(fb, xf, h);
    }
    rk4_step(sys, xp, h);
    dfb = dfb.cwiseMax((sys.invariants(xf) - F0).cwiseAbs());
    dp = dp.cwiseMax((sys.invariants(xp) - F0).cwiseAbs());
    max_tilt = std::max(max_tilt, spherical_robot_tilt(xf));
  }
  // measured: E 6.6e-4 vs 4.9e-3, |Γ|² 2.8e-4 vs 7.0e-4, π 1.5e-7 (RK4 keeps linear invariants
  // exactly), 𝒥 7.7e-7 vs 1.0e-6
  EXPECT_LT(dfb[0], 0.3f * dp[0]);
  EXPECT_LT(dfb[3], 0.6f * dp[3]);
  EXPECT_LT(dfb.cwiseAbs().maxCoeff(), 1e-3f);
  EXPECT_GT(max_tilt, 3.0f);  // it did fall over (and rolls back: E is conserved)
  // spinning rotors: the Jellett gain is switched off
  const Vec<float, 8> x1 = spherical_robot_initial_state(0.1f, Vec3<float>(0.1f, 0.f, 0.1f), Vec<float, 2>(5.f, 0.f));
  EXPECT_EQ(spherical_robot_feedback(sys, x1, 0.3f).gains()[4], 0.f);
}

TEST(SphericalRobotModel, ReconstructionConsistentWithGammaAndRolling) {
  const P p{};
  const SphericalRobot<double> sys{p};
  X x = spherical_robot_initial_state(0.1, Vec3<double>(0.1, 0.0, 0.1), Vec<double, 2>(-0.1, 0.0));
  SphericalRobotPose<double> pose = spherical_robot_pose_from_gamma(Vec3<double>(x.segment<3>(3)));
  Mat3<double> R0;
  R0 << 1, 0, 0, 0, std::cos(0.1), -std::sin(0.1), 0, std::sin(0.1), std::cos(0.1);
  EXPECT_LT((pose.R - R0).cwiseAbs().maxCoeff(), 1e-15);  // the experiment's R(0)
  double worst = 0;
  const double h = 1e-3;
  for (int k = 0; k < 3000; ++k) {
    const Vec3<double> Om0 = x.head<3>();
    rk4_step(sys, x, h);
    advance_pose(pose, Om0, Vec3<double>(x.head<3>()), p.radius, h);
    worst = std::max(worst, (pose.R.transpose() * Vec3<double>::UnitZ() - x.segment<3>(3)).norm());
  }
  EXPECT_LT(worst, 1e-5);  // second-order reconstruction at h = 1e-3
  EXPECT_LT((pose.R.transpose() * pose.R - Mat3<double>::Identity()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_GT(pose.position.norm(), 0.01);  // the falling ball rolls away
  // Rolling: the centre velocity is a(RΩ)×e3; a pure spin about the vertical does not move it.
  const Vec<double, 2> v =
      spherical_robot_centre_velocity(Mat3<double>(Mat3<double>::Identity()), Vec3<double>(0, 0, 3), 0.2);
  EXPECT_EQ(v.norm(), 0.0);
  const Vec<double, 2> v1 =
      spherical_robot_centre_velocity(Mat3<double>(Mat3<double>::Identity()), Vec3<double>(1, 0, 0), 0.2);
  EXPECT_NEAR(v1[1], -0.2, 1e-15);  // rolling about e1 moves the centre along −e2
  // Γ = −e3 (upside down) still gives a rotation with Rᵀe3 = Γ
  const auto down = spherical_robot_pose_from_gamma(Vec3<double>(0, 0, -1));
  EXPECT_LT((down.R.transpose() * Vec3<double>::UnitZ() - Vec3<double>(0, 0, -1)).norm(), 1e-12);
}

TEST(SphericalRobotModel, ParameterValidation) {
  EXPECT_EQ(P{}.validate(), Error::none);
  P b{};
  b.m = NAN;
  EXPECT_EQ(b.validate(), Error::non_finite);
  b = P{};
  b.J1 = 0.2;  // J1 > I1
  EXPECT_EQ(b.validate(), Error::invalid_parameter);
  b = P{};
  b.l = 0.3;  // centre of mass outside the ball
  EXPECT_EQ(b.validate(), Error::invalid_parameter);
  b = P{};
  b.radius = 0;
  EXPECT_EQ(b.validate(), Error::invalid_parameter);
  b = P{};
  b.J2 = -0.01;
  EXPECT_EQ(b.validate(), Error::invalid_parameter);
}

}  // namespace
