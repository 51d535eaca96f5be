// SPDX-License-Identifier: Apache-2.0
// Chaplygin sphere (paper 004, "Chaplygin Sphere"): the slides' Euler-angle Lagrangian and
// rolling constraints against the body-frame model, the cross-check with the spherical robot at
// l = 0 and zero rotor momenta, the conformance harness, long feedback runs keeping |Γ|², H, K
// and |M|², and Chaplygin's invariant measure against the field's divergence, float and double.
#include <gtest/gtest.h>

#include <Eigen/Geometry>  // cross()
#include <cmath>
#include <random>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/measure.hpp"
#include "attractor/systems/chaplygin_sphere.hpp"
#include "attractor/systems/spherical_robot.hpp"
#include "conformance.hpp"

namespace attractor::test {
template <class S>
struct Conformance<ChaplyginSphere<S>> : ConformanceDefaults {
  static ChaplyginSphere<S> make(std::mt19937&) {
    ChaplyginSphereParams<S> p;
    p.radius = S(0.7), p.mass = S(1.3), p.I1 = S(0.2), p.I2 = S(0.35), p.I3 = S(0.45);
    return ChaplyginSphere<S>::make(p).value();
  }
  static Vec<double, 6> sample(std::mt19937& rng, const ChaplyginSphere<S>&) {
    return ChaplyginSphere<double>::state(uniform<3>(rng, -2.0, 2.0), unit_vector(rng));
  }
};
}  // namespace attractor::test

namespace {
template <class S>
using SphereSystem = attractor::ChaplyginSphere<S>;
}
ATTRACTOR_CONFORMANCE(ChaplyginSphereConformance, SphereSystem);

using namespace attractor;
using namespace attractor::test;

namespace {

// R = Rz(φ) Rx(θ) Rz(ψ): the z-x-z Euler angles of the slides.
Mat3<double> euler_zxz(double th, double ph, double ps) {
  using Eigen::AngleAxisd;
  return (AngleAxisd(ph, Vec3<double>::UnitZ()) * AngleAxisd(th, Vec3<double>::UnitX()) *
          AngleAxisd(ps, Vec3<double>::UnitZ()))
      .toRotationMatrix();
}

// A state of the default sphere with a varied rate, on |Γ| = 1.
Vec<double, 6> sphere_start() {
  return ChaplyginSphere<double>::state(Vec3<double>(1.0, 0.5, 2.0), Vec3<double>(0.6, 0.0, 0.8));
}

}  // namespace

// The slides' Lagrangian L(θ, φ, ψ, ẋ, ẏ) and constraints, with Ω taken from R(q) by finite
// differences (not from the slides' expressions), agree with H = ½Ω·A(Γ)Ω for a = 1 and
// Γ = Rᵀe3: the Euler-angle form and the body-frame model are the same system.
TEST(ChaplyginSphere, SlidesEulerAngleLagrangianAndConstraintsMatchTheModel) {
  ChaplyginSphereParams<double> prm;
  prm.radius = 1;  // the slides' constraints have a = 1
  prm.mass = 1.7, prm.I1 = 0.3, prm.I2 = 0.5, prm.I3 = 0.6;
  const auto sys = *ChaplyginSphere<double>::make(prm);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.2, 1.2);
  for (int k = 0; k < 50; ++k) {
    const double th = 1.2 + 0.5 * u(rng), ph = u(rng), ps = u(rng);
    const double thd = u(rng), phd = u(rng), psd = u(rng);
    // Slides: ẋ − θ̇ sin φ + ψ̇ cos φ sin θ = 0, ẏ + θ̇ cos φ + ψ̇ sin φ sin θ = 0.
    const double xd = thd * std::sin(ph) - psd * std::cos(ph) * std::sin(th);
    const double yd = -thd * std::cos(ph) - psd * std::sin(ph) * std::sin(th);
    const double w1 = thd * std::cos(ps) + phd * std::sin(ps) * std::sin(th);
    const double w2 = -thd * std::sin(ps) + phd * std::cos(ps) * std::sin(th);
    const double w3 = psd + phd * std::cos(th);
    const double L =
        0.5 * (prm.I1 * w1 * w1 + prm.I2 * w2 * w2 + prm.I3 * w3 * w3) + 0.5 * prm.mass * (xd * xd + yd * yd);
    // Ω = (RᵀṘ)^∨ with Ṙ by central differences along the velocity.
    const double e = 1e-6;
    const Mat3<double> R = euler_zxz(th, ph, ps);
    const Mat3<double> Rd =
        (euler_zxz(th + e * thd, ph + e * phd, ps + e * psd) - euler_zxz(th - e * thd, ph - e * phd, ps - e * psd)) /
        (2 * e);
    const Mat3<double> W = R.transpose() * Rd;
    const Vec3<double> Om(W(2, 1), W(0, 2), W(1, 0));
    EXPECT_NEAR((Om - Vec3<double>(w1, w2, w3)).norm(), 0, 1e-8);
    const Vec3<double> G = R.transpose() * Vec3<double>::UnitZ();
    // Centre velocity of a rolling ball: a ω×e3 in space, ω = RΩ.
    const Vec3<double> v = (R * Om).cross(Vec3<double>::UnitZ());
    EXPECT_NEAR(v[0] - xd, 0, 1e-8);
    EXPECT_NEAR(v[1] - yd, 0, 1e-8);
    EXPECT_NEAR(sys.energy(ChaplyginSphere<double>::state(Om, G)) - L, 0, 1e-8 * (1 + std::abs(L)));
  }
}

// The spherical robot with l = 0 and π = 0 (θ̇ = −Ω_a) is the sphere with inertia
// diag(I1 − J1, I2 − J2, I3): the fields agree at random states, and so do RK4 runs.
TEST(ChaplyginSphere, MatchesSphericalRobotWithCentredMassAndZeroRotorMomenta) {
  SphericalRobotParams<double> rp;
  rp.l = 0, rp.radius = 0.3, rp.m = 2.5, rp.I1 = 0.12, rp.I2 = 0.09, rp.I3 = 0.07, rp.J1 = 0.015, rp.J2 = 0.02;
  SphericalRobot<double> robot;
  robot.p = rp;
  ChaplyginSphereParams<double> sp;
  sp.radius = rp.radius, sp.mass = rp.m, sp.I1 = rp.I1 - rp.J1, sp.I2 = rp.I2 - rp.J2, sp.I3 = rp.I3;
  const auto sphere = *ChaplyginSphere<double>::make(sp);
  std::mt19937 rng(3);
  for (int k = 0; k < 100; ++k) {
    const Vec<double, 6> x = ChaplyginSphere<double>::state(uniform<3>(rng, -3.0, 3.0), unit_vector(rng));
    Vec<double, 8> xr;
    xr << x, -x[0], -x[1];
    ASSERT_EQ(robot.rotor_momenta(xr).norm(), 0.0);
    const Vec<double, 8> fr = robot.field(xr);
    const Vec<double, 6> fs = sphere.field(x);
    EXPECT_NEAR((fr.head<6>() - fs).norm(), 0, 1e-12 * (1 + fs.norm())) << k;
    EXPECT_NEAR(robot.energy(xr) - sphere.energy(x), 0, 1e-12 * (1 + sphere.energy(x)));
  }
  Vec<double, 6> xs = sphere_start();
  Vec<double, 8> xr;
  xr << xs, -xs[0], -xs[1];
  for (int k = 0; k < 2000; ++k) rk4_step(sphere, xs, 1e-3), rk4_step(robot, xr, 1e-3);
  EXPECT_NEAR((xr.head<6>() - xs).norm(), 0, 1e-10);
  EXPECT_NEAR(robot.rotor_momenta(xr).norm(), 0, 1e-12);
}

// Chaplygin's density: log ρ(x(t)) − log ρ(x0) + ∫ div X dt stays at the quadrature error along
// an accurate run, while ∫ div X dt alone (the Lebesgue volume in (Ω, Γ)) swings far from 0.
TEST(ChaplyginSphere, ChaplyginDensityIsInvariantAndVolumeIsNot) {
  ChaplyginSphereParams<double> prm;
  prm.I1 = 0.2, prm.I2 = 0.5, prm.I3 = 0.9, prm.mass = 2, prm.radius = 0.8;
  const auto sys = *ChaplyginSphere<double>::make(prm);
  Vec<double, 6> x = sphere_start();
  MeasureTracker<ChaplyginSphere<double>> tr(sys, x);
  double max_change = 0, max_volume = 0;
  const double h = 1e-3;
  for (int k = 0; k < 20000; ++k) {
    rk4_step(sys, x, h);
    tr.record(x, h);
    max_change = std::max(max_change, std::abs(tr.log_measure_change()));
    max_volume = std::max(max_volume, std::abs(tr.divergence_integral()));
  }
  EXPECT_LT(max_change, 1e-6);
  EXPECT_GT(max_volume, 1e-2);
}

// The feedback's target for |Γ|² is 1, not its start value; H, K and |M|² keep theirs: a start
// with |Γ| = 1.05 is pulled onto the unit sphere (the gain on |Γ|² alone, so that the other rows'
// targets, taken off the sphere, do not pull against it).
TEST(ChaplyginSphere, FeedbackPullsTheVerticalToUnitLength) {
  const auto sys = *ChaplyginSphere<double>::make();
  Vec<double, 6> x0 = sphere_start();
  x0.tail<3>() *= 1.05;
  const Vec<double, 4> F0 = sys.invariants(x0);
  const Vec<double, 4> T = sys.invariant_targets(F0);
  EXPECT_EQ(T[0], 1.0);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(T[i], F0[i]) << "row " << i;
  const auto fb = feedback(sys, x0, Vec<double, 4>(1, 0, 0, 0));
  EXPECT_EQ(fb.reference(), T);
  Vec<double, 6> x = x0;
  for (int k = 0; k < 2000; ++k) rk4_step(fb, x, 5e-3);
  EXPECT_NEAR(sys.invariants(x)[0], 1.0, 1e-6);
  EXPECT_NEAR(x.tail<3>().norm(), 1.0, 1e-6);
}

template <class T>
class ChaplyginSphereTyped : public ::testing::Test {};
using SphereScalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ChaplyginSphereTyped, SphereScalars);

TYPED_TEST(ChaplyginSphereTyped, MakeRefusesBadParameters) {
  using S = TypeParam;
  ChaplyginSphereParams<S> p;
  p.I2 = S(0);
  EXPECT_EQ(ChaplyginSphere<S>::make(p).error(), Error::invalid_parameter);
  p = {}, p.radius = S(-1);
  EXPECT_EQ(ChaplyginSphere<S>::make(p).error(), Error::invalid_parameter);
  p = {}, p.mass = std::numeric_limits<S>::quiet_NaN();
  EXPECT_EQ(ChaplyginSphere<S>::make(p).error(), Error::non_finite);
  p = {}, p.I3 = std::numeric_limits<S>::infinity();
  EXPECT_EQ(ChaplyginSphere<S>::make(p).error(), Error::non_finite);
  EXPECT_TRUE(ChaplyginSphere<S>::make().ok());
}

// Over 200 s (4e4 RK4 steps of 5 ms) the feedback integrator keeps every invariant near its
// target, and in float better than plain RK4 (whose rounding drift it removes).
TYPED_TEST(ChaplyginSphereTyped, FeedbackKeepsInvariantsOverLongRuns) {
  using S = TypeParam;
  const auto sys = *ChaplyginSphere<S>::make();
  const Vec<S, 6> x0 = sphere_start().cast<S>();
  const S h = S(5e-3);
  const auto fb = feedback(sys, x0, balanced_gains(sys, x0, S(2)));
  Vec<S, 6> xf = x0, xp = x0;
  const Vec<double, 4> F0 = fb.reference().template cast<double>();
  Vec<double, 4> dev_fb = Vec<double, 4>::Zero(), dev_plain = Vec<double, 4>::Zero();
  const ChaplyginSphere<double> ref = *ChaplyginSphere<double>::make();
  for (int k = 0; k < 40000; ++k) {
    rk4_step(fb, xf, h);
    rk4_step(sys, xp, h);
    dev_fb = dev_fb.cwiseMax((ref.invariants(xf.template cast<double>()) - F0).cwiseAbs());
    dev_plain = dev_plain.cwiseMax((ref.invariants(xp.template cast<double>()) - F0).cwiseAbs());
  }
  const bool single = std::is_same<S, float>::value;
  for (int i = 0; i < 4; ++i) {
    EXPECT_LT(dev_fb[i], (single ? 2e-5 : 1e-9) * (1 + std::abs(F0[i]))) << "row " << i;
    // In float the plain run's rounding drift is what the feedback removes; in double both are
    // at RK4's truncation error (~1e-10), where the pull-back neither helps nor hurts.
    if (single) {
      EXPECT_LE(dev_fb[i], dev_plain[i]) << "row " << i;
    }
  }
}
