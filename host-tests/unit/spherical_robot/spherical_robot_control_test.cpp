// SPDX-License-Identifier: Apache-2.0
// Controlled Lagrangian for the spherical robot (paper 003 Prop. 13, (52)–(53), Remark 14): the
// generic matching code against the closed form u_a = (J_a²/σ_a)Ω̇_a, the stability range
// −J_a²/I_P,a < σ_a < 0 enforced at configuration, the closed-loop invariants Ẽ, π̃, |Γ|², 𝒥̃ and
// the matched rotor-free ball, inside-stable / outside-falls sweeps, saturation, safe state.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "attractor/control/controlled_lagrangian.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/plants/spherical_robot/law.hpp"
#include "attractor/systems/spherical_robot.hpp"
#include "attractor/systems/spherical_robot_hamel.hpp"
#include "no_alloc.hpp"

using namespace attractor;

namespace {

using P = SphericalRobotParams<double>;
using X = Vec<double, 8>;
using Law = SphericalRobotLaw<double>;

std::vector<P> top_heavy_sets() {
  return {
      P{},                                                      // the reference robot
      {0.15, 2.5, 0.04, 9.81, 0.05, 0.07, 0.03, 0.004, 0.009},  // not axisymmetric
      {0.30, 6.0, 0.12, 9.81, 0.20, 0.20, 0.25, 0.02, 0.02},    // I3 > I⊥, larger offset
  };
}

X random_state_within_tilt(std::mt19937& rng, double tilt_max = 1.2) {
  std::uniform_real_distribution<double> U(-1, 1);
  const double th = tilt_max * std::abs(U(rng)), ph = 3.2 * U(rng);
  X x;
  x << 2 * U(rng), 2 * U(rng), 2 * U(rng), std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th),
      30 * U(rng), 30 * U(rng);
  return x;
}

X c1_state(const Law& law, double phi0 = 0.1) {
  const Vec3<double> Om(0.1, 0, 0.1);
  return spherical_robot_initial_state(phi0, Om, law.zero_momentum_rotor_rates(Om));
}

TEST(SphericalRobotControl, GenericLawEqualsClosedForm) {
  // ControlledLagrangian<SphericalRobotHamel> ((52), (53), Remark 14: a 3×3 solve with 𝔾̃ in the
  // Hamel basis) vs SphericalRobotLaw ((A − J + K)Ω̇ = f, u = KΩ̇), σ inside and outside the range.
  std::mt19937 rng(7);
  double worst = 0;
  for (const P& p : top_heavy_sets()) {
    const auto H = SphericalRobotHamel<double>::from(p);
    for (double f : {0.1, 0.5, 0.95, 1.36, 3.0, -2.0}) {  // σ_a = f·lower_a; f in (0,1) is inside
      const Vec<double, 2> sigma(f * spherical_robot_stability_range(p, 0).lower,
                                 f * spherical_robot_stability_range(p, 1).lower);
      const auto law = Law::make_unchecked(p, sigma);
      ASSERT_TRUE(law.ok()) << f;
      EXPECT_EQ(Law::make(p, sigma).ok(), f > 0 && f < 1);
      Mat<double, 2, 2> sig = Mat<double, 2, 2>::Zero();
      sig.diagonal() = sigma;
      const auto gen = ControlledLagrangian<SphericalRobotHamel<double>>::make(H, sig);
      ASSERT_TRUE(gen.ok());
      // (52): τ^a = −(J_a/σ_a)(e_a, 0) — no Y-part, so 𝒯 is Γ-independent and ℱ drops out of (53)
      Mat<double, 2, 6> tau = Mat<double, 2, 6>::Zero();
      tau(0, 0) = -p.J1 / sigma[0];
      tau(1, 1) = -p.J2 / sigma[1];
      EXPECT_LT((gen->tau() - tau).cwiseAbs().maxCoeff(), 1e-9 * tau.cwiseAbs().maxCoeff());
      for (int a = 0; a < 2; ++a) {
        const double J = a == 0 ? p.J1 : p.J2;
        EXPECT_NEAR(law->gain()[a], J * J / sigma[a], 1e-12 * std::abs(J * J / sigma[a]));
        EXPECT_NEAR(law->rho()[a], J * sigma[a] / (sigma[a] - J), 1e-15);
        EXPECT_NEAR(law->closed_loop_inertia()[a], (a == 0 ? p.I1 : p.I2) - J + J * J / sigma[a], 1e-12);
      }
      for (int t = 0; t < 30; ++t) {
        const X x = random_state_within_tilt(rng);
        Vec<double, 3> vd;
        const Vec<double, 2> ug =
            gen->control(Vec3<double>(x.head<3>()), Vec3<double>(x.segment<3>(3)), Vec<double, 2>(x.tail<2>()), vd);
        bool ok;
        const Vec3<double> wd = law->closed_loop_omega_dot(x, ok);
        const Vec<double, 2> uc = law->torque(x);
        if (!ok) continue;  // outside the range Ã(Γ) can be singular at this tilt
        const double s = 1 + uc.cwiseAbs().maxCoeff();
        worst = std::max(worst, (ug - uc).cwiseAbs().maxCoeff() / s);
        EXPECT_LT((vd - wd).cwiseAbs().maxCoeff(), 1e-8 * (1 + wd.cwiseAbs().maxCoeff()));
        // u_a = (J_a²/σ_a)Ω̇_a (53)
        EXPECT_NEAR(uc[0], p.J1 * p.J1 / sigma[0] * wd[0], 1e-10 * s);
        EXPECT_NEAR(uc[1], p.J2 * p.J2 / sigma[1] * wd[1], 1e-10 * s);
      }
    }
  }
  EXPECT_LT(worst, 1e-9);  // measured ~1e-13
}

TEST(SphericalRobotControl, GenericLawFloatAgreesWithoutAllocation) {
  const SphericalRobotParams<float> p{};
  const auto law = SphericalRobotLaw<float>::make(p, -1.5e-4f);
  ASSERT_TRUE(law.ok());
  Mat<float, 2, 2> sig = Mat<float, 2, 2>::Zero();
  sig.diagonal() = Vec<float, 2>(-1.5e-4f, -1.5e-4f);
  const auto gen = ControlledLagrangian<SphericalRobotHamel<float>>::make(SphericalRobotHamel<float>::from(p), sig);
  ASSERT_TRUE(gen.ok());
  std::mt19937 rng(9);
  for (int t = 0; t < 50; ++t) {
    const Vec<float, 8> x = random_state_within_tilt(rng, 0.5).cast<float>();
    Vec<float, 2> ug, uc;
    {
      test::NoAllocGuard guard;
      uc = law->torque(x);
      ug = gen->control(Vec3<float>(x.head<3>()), Vec3<float>(x.segment<3>(3)), Vec<float, 2>(x.tail<2>()));
    }
    EXPECT_LT((ug - uc).cwiseAbs().maxCoeff(), 1e-4f * (1.f + uc.cwiseAbs().maxCoeff()));
  }
}

TEST(SphericalRobotControl, StabilityRangeEnforced) {
  for (const P& p : top_heavy_sets()) {
    for (int a = 0; a < 2; ++a) {
      const auto r = spherical_robot_stability_range(p, a);
      const double J = a == 0 ? p.J1 : p.J2;
      EXPECT_NEAR(r.lower, -J * J / ((a == 0 ? p.I1 : p.I2) - J + p.m * (p.radius + p.l) * (p.radius + p.l)), 1e-18);
      EXPECT_EQ(r.upper, 0.0);
    }
    const double lo =
        std::max(spherical_robot_stability_range(p, 0).lower, spherical_robot_stability_range(p, 1).lower);
    const double lo_min =
        std::min(spherical_robot_stability_range(p, 0).lower, spherical_robot_stability_range(p, 1).lower);
    EXPECT_TRUE(Law::make(p, 0.5 * lo).ok());
    EXPECT_TRUE(Law::make(p, 0.999 * lo).ok());
    EXPECT_EQ(Law::make(p, 1.001 * lo_min).error(), Error::outside_stability_range);
    EXPECT_EQ(Law::make(p, lo_min).error(), Error::outside_stability_range);
    EXPECT_EQ(Law::make(p, 0.0).error(), Error::outside_stability_range);
    EXPECT_EQ(Law::make(p, 1e-3).error(), Error::outside_stability_range);
    EXPECT_EQ(Law::make(p, NAN).error(), Error::non_finite);
    // one rotor inside, the other outside: refused
    EXPECT_EQ(Law::make(p, Vec<double, 2>(0.5 * lo, 2 * lo_min)).error(), Error::outside_stability_range);
    // unchecked: outside allowed; σ = 0, σ = J (ρ infinite) and Ĩ_P = 0 (singular upright) are not
    EXPECT_TRUE(Law::make_unchecked(p, 3 * lo_min).ok());
    EXPECT_TRUE(Law::make_unchecked(p, 1e-3).ok());
    EXPECT_EQ(Law::make_unchecked(p, 0.0).error(), Error::invalid_parameter);
    EXPECT_EQ(Law::make_unchecked(p, Vec<double, 2>(0.5 * lo, 0.0)).error(), Error::invalid_parameter);  // either rotor
    EXPECT_EQ(Law::make_unchecked(p, Vec<double, 2>(0.0, 0.5 * lo)).error(), Error::invalid_parameter);
    EXPECT_EQ(Law::make_unchecked(p, Vec<double, 2>(p.J1, 0.5 * lo)).error(), Error::singular);
    EXPECT_EQ(Law::make_unchecked(p, Vec<double, 2>(spherical_robot_stability_range(p, 0).lower, 0.5 * lo)).error(),
              Error::singular);
  }
  // the reference robot: I_P = 0.34, range (−2.941e-4, 0), σ = −1.5e-4 gives k = −0.6667
  const P p{};
  EXPECT_NEAR(spherical_robot_stability_range(p).lower, -2.941e-4, 5e-8);
  const auto law = Law::make(p, -1.5e-4);
  ASSERT_TRUE(law.ok());
  EXPECT_NEAR(law->gain()[0], -0.6667, 5e-5);
  EXPECT_NEAR(law->closed_loop_pivot_inertia(0), -0.3267, 5e-5);
  EXPECT_NEAR(law->closed_loop_frequency(), 2.4507, 5e-5);
  EXPECT_TRUE(law->lyapunov_certified());
  EXPECT_FALSE(Law::make(top_heavy_sets()[1], 0.5 * spherical_robot_stability_range(top_heavy_sets()[1]).lower)
                   ->lyapunov_certified());
  // bottom-heavy robot or bad parameters: refused
  P b{};
  b.l = -0.05;
  EXPECT_EQ(Law::make(b, -1e-4).error(), Error::invalid_parameter);
  b = P{};
  b.m = INFINITY;
  EXPECT_EQ(Law::make(b, -1e-4).error(), Error::non_finite);
  EXPECT_TRUE(SphericalRobotLaw<float>::make(SphericalRobotParams<float>{}, -1.5e-4f).ok());
  EXPECT_EQ(SphericalRobotLaw<float>::make(SphericalRobotParams<float>{}, -4e-4f).error(),
            Error::outside_stability_range);
}

TEST(SphericalRobotControl, NonFiniteOrSingularStateGivesZeroTorque) {
  const auto law = Law::make(P{}, -1.5e-4);
  X x = c1_state(*law);
  bool ok = false;
  EXPECT_GT(law->torque(x, ok).norm(), 0.0);
  EXPECT_TRUE(ok);
  x[1] = NAN;
  EXPECT_EQ(law->torque(x, ok).norm(), 0.0);
  EXPECT_FALSE(ok);
  x = c1_state(*law);
  x[7] = INFINITY;
  EXPECT_EQ(law->torque(x, ok).norm(), 0.0);
  EXPECT_FALSE(ok);
  // σ outside the range: Ã(Γ) is singular at a finite tilt (C3: ≈ 0.428 rad); there the law
  // refuses to produce a torque instead of an unbounded one.
  const auto out = Law::make_unchecked(P{}, -4e-4);
  double lo = 0.3, hi = 0.6;  // bisect the tilt where det Ã changes sign
  auto det_at = [&](double th) { return out->closed_loop_determinant(Vec3<double>(0, std::sin(th), std::cos(th))); };
  ASSERT_LT(det_at(lo) * det_at(hi), 0.0);
  for (int i = 0; i < 60; ++i) (det_at(lo) * det_at(0.5 * (lo + hi)) < 0 ? hi : lo) = 0.5 * (lo + hi);
  X xs = spherical_robot_initial_state(lo, Vec3<double>(0.1, 0, 0.1), Vec<double, 2>(0, 0));
  EXPECT_EQ(out->torque(xs, ok).norm(), 0.0);
  EXPECT_FALSE(ok);
  // inside the range det Ã never vanishes: sample the whole sphere of Γ
  std::mt19937 rng(3);
  const double d0 = law->closed_loop_determinant(Vec3<double>(0, 0, 1));
  for (int t = 0; t < 2000; ++t) {
    const X r = random_state_within_tilt(rng, 3.1416);
    EXPECT_GT(law->closed_loop_determinant(Vec3<double>(r.segment<3>(3))) * d0, 0.0);
  }
}

TEST(SphericalRobotControl, ClosedLoopIsTheMatchedRotorFreeBall) {
  // On any π̃: Ã(Γ)Ω̇ = f(Ω, Γ, ĨΩ + β) — the ball with inertia Ĩ plus the gyrostat β (derived).
  std::mt19937 rng(11);
  for (const P& p : top_heavy_sets()) {
    const auto law = Law::make(p, Vec<double, 2>(0.4 * spherical_robot_stability_range(p, 0).lower,
                                                 0.6 * spherical_robot_stability_range(p, 1).lower));
    ASSERT_TRUE(law.ok());
    const SphericalRobot<double> plant{p};
    for (int t = 0; t < 50; ++t) {
      const X x = random_state_within_tilt(rng, 0.8);
      const X f = plant.field(x, law->torque(x));
      const Vec3<double> Om = x.head<3>(), G = x.segment<3>(3);
      const Vec3<double> rhs = plant.rate_terms(Om, G, law->closed_loop_inertia().cwiseProduct(Om) + law->gyrostat(x));
      EXPECT_LT((law->closed_loop_matrix(G) * Vec3<double>(f.head<3>()) - rhs).cwiseAbs().maxCoeff(),
                1e-10 * (1 + rhs.cwiseAbs().maxCoeff()));
      // π̃ is conserved: J_aΩ̇_a + ρ_aθ̈_a = 0 (51b)
      EXPECT_NEAR(p.J1 * f[0] + law->rho()[0] * f[6], 0, 1e-12 * (1 + f.cwiseAbs().maxCoeff()));
      EXPECT_NEAR(p.J2 * f[1] + law->rho()[1] * f[7], 0, 1e-12 * (1 + f.cwiseAbs().maxCoeff()));
    }
  }
}

// The closed loop's invariant Jacobian: SphericalRobotClosedLoopConformance
// (spherical_robot_conformance_test.cpp).

TEST(SphericalRobotControl, ClosedLoopInvariantsAlongAccurateTrajectories) {
  // RK4, 10 s: Ẽ, π̃, |Γ|² for every set and rotor start; 𝒥̃ when π̃ = 0 and Ĩ1 = Ĩ2. h = 1e-2
  // (ωh ≈ 0.025): Ẽ, |Γ|², 𝒥̃ drift ≤ 6.5e-10 (h = 1e-3: ≤ 1.1e-13), π̃ to rounding.
  for (const P& p : top_heavy_sets()) {
    for (int start = 0; start < 2; ++start) {  // 0: π̃ = 0, 1: rotors at rest (π̃ ≠ 0)
      const auto law = Law::make(
          p, 0.5 * std::max(spherical_robot_stability_range(p, 0).lower, spherical_robot_stability_range(p, 1).lower));
      ASSERT_TRUE(law.ok());
      const SphericalRobotClosedLoop<double> cl{SphericalRobot<double>{p}, *law};
      X x = start == 0 ? c1_state(*law, 0.15)
                       : spherical_robot_initial_state(0.15, Vec3<double>(0.1, 0, 0.1), Vec<double, 2>(0, 0));
      const Vec<double, 5> F0 = cl.invariants(x);
      Vec<double, 5> drift = Vec<double, 5>::Zero();
      double max_tilt = 0;
      for (int k = 0; k < 1000; ++k) {
        {
          test::NoAllocGuard guard;
          rk4_step(cl, x, 1e-2);
        }
        drift = drift.cwiseMax((cl.invariants(x) - F0).cwiseAbs());
        max_tilt = std::max(max_tilt, spherical_robot_tilt(x));
      }
      EXPECT_LT(drift[0], 1e-8) << "Ẽ m=" << p.m << " start " << start;
      EXPECT_LT(drift[1], 1e-12);
      EXPECT_LT(drift[2], 1e-12);
      EXPECT_LT(drift[3], 1e-8);
      const bool jellett = start == 0 && law->closed_loop_inertia()[0] == law->closed_loop_inertia()[1];
      if (jellett) {
        EXPECT_LT(drift[4], 1e-8) << "𝒥̃ m=" << p.m;
      }
      EXPECT_LT(max_tilt, 0.5) << "m=" << p.m << " start " << start;
    }
  }
}

double max_tilt_run(const P& p, const Vec<double, 2>& sigma, double T, double phi0 = 0.1) {
  const auto law = Law::make_unchecked(p, sigma);
  if (!law) return -1;
  const SphericalRobotClosedLoop<double> cl{SphericalRobot<double>{p}, *law};
  X x = c1_state(*law, phi0);
  double m = 0;
  // h = 1e-2: the inside maxima agree with h = 1e-3 to 1e-4; outside runs pass 1.5 rad either way
  for (int k = 0; k < int(std::lround(T / 1e-2)); ++k) {
    rk4_step(cl, x, 1e-2);
    const double t = spherical_robot_tilt(x);
    if (!(t == t)) return 4;  // NaN: diverged
    m = std::max(m, t);
    if (m > 1.5) break;
  }
  return m;
}

TEST(SphericalRobotControl, InsideRangeStableOutsideFalls) {
  // σ inside the range keeps every set near upright for 6 s; σ below the bound (k between
  // −I_P and −(I⊥ − J): singular at a finite tilt; or beyond) or σ > 0 loses it.
  for (const P& p : top_heavy_sets()) {
    const Vec<double, 2> lo(spherical_robot_stability_range(p, 0).lower, spherical_robot_stability_range(p, 1).lower);
    for (double f : {0.3, 0.6, 0.9}) EXPECT_LT(max_tilt_run(p, f * lo, 6.0), 0.3) << "inside f=" << f << " m=" << p.m;
    for (double f : {1.36, 3.0, -3.0})
      EXPECT_GT(max_tilt_run(p, f * lo, 6.0), 1.0) << "outside f=" << f << " m=" << p.m;
  }
}

TEST(SphericalRobotControl, TorqueSaturation) {
  // The nominal loop needs 0.431 N m; a 0.3 N m limit is reached yet the robot stays up.
  const auto law = Law::make(P{}, -1.5e-4);
  SphericalRobotClosedLoop<double> cl{SphericalRobot<double>{P{}}, *law, 0.3};
  X x = c1_state(*law);
  double max_u = 0, max_tilt = 0;
  bool saturated = false;
  for (int k = 0; k < 1000; ++k) {  // 10 s at h = 1e-2 (max tilt 0.1276 as at h = 1e-3)
    const Vec<double, 2> u = cl.torque(x);
    saturated = saturated || saturates(law->torque(x)[0], 0.3) || saturates(law->torque(x)[1], 0.3);
    max_u = std::max(max_u, u.cwiseAbs().maxCoeff());
    rk4_step(cl, x, 1e-2);
    max_tilt = std::max(max_tilt, spherical_robot_tilt(x));
  }
  EXPECT_TRUE(saturated);
  EXPECT_LE(max_u, 0.3);
  EXPECT_LT(max_tilt, 0.2);  // measured 0.13
}

TEST(SphericalRobotControl, FeedbackIntegratorForTheClosedLoopInFloat) {
  // float, h = 0.02: Feedback<SphericalRobotClosedLoop> keeps Ẽ and |Γ|² closer than plain RK4.
  const SphericalRobotParams<float> p{};
  const auto law = SphericalRobotLaw<float>::make(p, -1.5e-4f);
  const SphericalRobotClosedLoop<float> cl{SphericalRobot<float>{p}, *law};
  const Vec3<float> Om(0.1f, 0.f, 0.1f);
  const Vec<float, 8> x0 = spherical_robot_initial_state(0.1f, Om, law->zero_momentum_rotor_rates(Om));
  const auto fb = feedback(cl, x0, balanced_gains(cl, x0, 1.f));
  const float h = 0.02f;
  EXPECT_EQ(fb.check_step(Scheme::rk4, h, x0), Error::none);
  Vec<float, 8> xf = x0, xp = x0;
  const Vec<float, 5> F0 = cl.invariants(x0);
  Vec<float, 5> dfb = Vec<float, 5>::Zero(), dp = Vec<float, 5>::Zero();
  for (int k = 0; k < 5000; ++k) {  // 100 s
    rk4_step(fb, xf, h);
    rk4_step(cl, xp, h);
    dfb = dfb.cwiseMax((cl.invariants(xf) - F0).cwiseAbs());
    dp = dp.cwiseMax((cl.invariants(xp) - F0).cwiseAbs());
  }
  EXPECT_LT(dfb[0], dp[0]);
  EXPECT_LT(dfb[3], dp[3]);
  EXPECT_LT(spherical_robot_tilt(xf), 0.12f);
}

}  // namespace
