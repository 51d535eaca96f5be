// SPDX-License-Identifier: Apache-2.0
// 3D Chaplygin sleigh with an oscillating mass (paper 004, Lagrangian (0.28), constraint
// Ω⁶ = 0): the reduced equations against a Lagrange–d'Alembert computation with the multiplier
// of Ω⁶ = 0, the conformance harness, energy kept by the feedback integrator over long runs, and
// the volume preservation the slides derive (∫ div X dt along a run), float and double.
#include <gtest/gtest.h>

#include <Eigen/Geometry>  // cross()
#include <Eigen/LU>
#include <cmath>
#include <random>

#include "attractor/core/documented.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/measure.hpp"
#include "attractor/systems/sleigh_oscillating_mass.hpp"
#include "conformance.hpp"

namespace attractor::test {
template <class S>
struct Conformance<SleighOscillatingMass<S>> : ConformanceDefaults {
  static SleighOscillatingMass<S> make(std::mt19937&) {
    SleighOscillatingMassParams<S> p;
    p.I1 = S(0.8), p.I2 = S(1.3), p.I3 = S(1.9), p.M = S(1.4), p.m = S(0.6), p.k = S(3);
    return SleighOscillatingMass<S>::make(p).value();
  }
  static Vec<double, 7> sample(std::mt19937& rng, const SleighOscillatingMass<S>&) {
    return uniform<7>(rng, -1.5, 1.5);
  }
};
}  // namespace attractor::test

namespace {
template <class S>
using SleighMassSystem = attractor::SleighOscillatingMass<S>;
}
ATTRACTOR_CONFORMANCE(SleighOscillatingMassConformance, SleighMassSystem);

using namespace attractor;
using namespace attractor::test;

namespace {

using Vec7 = Vec<double, 7>;
using Mat7 = Mat<double, 7, 7>;

// (0.28) as printed, in q = (Ω¹..Ω⁶, ṙ), without the potential.
double kinetic_028(const SleighOscillatingMassParams<double>& p, double r, const Vec7& q) {
  const double a = q[3] + q[1] * r, b = q[4] - q[0] * r, c = q[5] + q[6];
  return 0.5 * (p.I1 * q[0] * q[0] + p.I2 * q[1] * q[1] + p.I3 * q[2] * q[2]) +
         0.5 * p.M * (q[3] * q[3] + q[4] * q[4] + q[5] * q[5]) + 0.5 * p.m * (a * a + b * b + c * c);
}
// Its metric G(r), by polarization of the quadratic form (independent of the header's blocks).
Mat7 metric_028(const SleighOscillatingMassParams<double>& p, double r) {
  Mat7 G;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) {
      const Vec7 ei = Vec7::Unit(i), ej = Vec7::Unit(j);
      G(i, j) = kinetic_028(p, r, ei + ej) - kinetic_028(p, r, ei) - kinetic_028(p, r, ej);
    }
  return G;
}

// Lagrange–d'Alembert on R × SE(3) with the multiplier λ of Ω⁶ = 0:
//   d/dt (G q)_ξ = ad*_ξ (G q)_ξ + λ e6,   d/dt (G q)_r = ½ qᵀG'q − k r,   q̇6 = 0,
// ad* of se(3) in body form: Π̇ = Π×Ω + P×V, Ṗ = P×Ω. Returns (r̈, ṗ1..ṗ5).
Vec<double, 6> lagrange_dalembert(const SleighOscillatingMassParams<double>& p, double r, const Vec7& q) {
  const Mat7 G = metric_028(p, r);
  const double e = 1e-5;
  const Mat7 Gd = (metric_028(p, r + e) - metric_028(p, r - e)) / (2 * e);
  const Vec7 mu = G * q;
  const Vec3<double> Om = q.head<3>(), V = q.segment<3>(3), Pi = mu.head<3>(), P = mu.segment<3>(3);
  Vec7 rhs;
  rhs << Pi.cross(Om) + P.cross(V), P.cross(Om), 0.5 * q.dot(Gd * q) - p.k * r;
  rhs -= Gd * q * q[6];  // μ̇ = G q̇ + G' ṙ q
  Mat<double, 8, 8> A = Mat<double, 8, 8>::Zero();
  A.topLeftCorner<7, 7>() = G;
  A(5, 7) = -1;  // − λ e6
  A(7, 5) = 1;   // q̇6 = 0
  Vec<double, 8> b;
  b << rhs, 0;
  const Vec<double, 8> sol = A.fullPivLu().solve(b);
  const Vec7 qd = sol.head<7>();
  const Vec7 mud = G * qd + Gd * q * q[6];
  Vec<double, 6> out;
  out << qd[6], mud.head<5>();
  return out;
}

Vec<double, 7> sleigh_start() { return documented_x0<double, SleighOscillatingMassFacts>(); }

}  // namespace

// The header's momenta are (0.28)'s ∂L/∂Ω^a on Ω⁶ = 0, and its r̈ and ṗ the Lagrange–d'Alembert
// equations (with m r̈, not the slides' r̈ = −∂U_a/∂r unless m = 1).
TEST(SleighOscillatingMass, EquationsMatchLagrangeDalembertWithMultiplier) {
  SleighOscillatingMassParams<double> prm;
  prm.I1 = 0.7, prm.I2 = 1.1, prm.I3 = 1.6, prm.M = 2.0, prm.m = 0.45, prm.k = 2.5;
  const auto sys = *SleighOscillatingMass<double>::make(prm);
  std::mt19937 rng(11);
  for (int k = 0; k < 100; ++k) {
    const Vec7 x = uniform<7>(rng, -2.0, 2.0);
    const auto w = sys.rates(x);
    Vec7 q;
    q << w, 0, x[1];
    const Vec7 mu = metric_028(prm, x[0]) * q;
    EXPECT_NEAR((mu.head<5>() - x.tail<5>()).norm(), 0, 1e-12 * (1 + x.norm())) << k;
    EXPECT_NEAR(mu[5], prm.m * x[1], 1e-12 * (1 + x.norm()));  // P3 = mṙ on the constraint
    const Vec<double, 6> ld = lagrange_dalembert(prm, x[0], q);
    const Vec7 f = sys.field(x);
    EXPECT_NEAR((ld - f.tail<6>()).norm(), 0, 1e-7 * (1 + f.norm())) << k;
    EXPECT_NEAR(sys.energy(x), kinetic_028(prm, x[0], q) + 0.5 * prm.k * x[0] * x[0], 1e-12 * (1 + sys.energy(x)));
  }
}

// The volume dr dṙ d⁵p: ∫ div X dt (central differences) stays at rounding along a run.
TEST(SleighOscillatingMass, FlowPreservesReducedVolume) {
  const auto sys = *SleighOscillatingMass<double>::make();
  Vec7 x = sleigh_start();
  MeasureTracker<SleighOscillatingMass<double>> tr(sys, x);
  const double h = 2e-3;
  for (int k = 0; k < 10000; ++k) {
    rk4_step(sys, x, h);
    tr.record(x, h);
  }
  EXPECT_LT(std::abs(tr.divergence_integral()), 1e-6);
  EXPECT_LT(tr.max_abs_divergence(), 1e-6);
  EXPECT_LT(std::abs(tr.log_measure_change()), 1e-6);
}

template <class T>
class SleighOscillatingMassTyped : public ::testing::Test {};
using SleighMassScalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SleighOscillatingMassTyped, SleighMassScalars);

TYPED_TEST(SleighOscillatingMassTyped, MakeRefusesBadParameters) {
  using S = TypeParam;
  SleighOscillatingMassParams<S> p;
  p.m = S(0);
  EXPECT_EQ(SleighOscillatingMass<S>::make(p).error(), Error::invalid_parameter);
  p = {}, p.k = S(-1);
  EXPECT_EQ(SleighOscillatingMass<S>::make(p).error(), Error::invalid_parameter);
  p = {}, p.I1 = std::numeric_limits<S>::quiet_NaN();
  EXPECT_EQ(SleighOscillatingMass<S>::make(p).error(), Error::non_finite);
  p = {}, p.k = S(0);
  EXPECT_TRUE(SleighOscillatingMass<S>::make(p).ok());
}

// Over 200 s (4e4 RK4 steps of 5 ms) the feedback integrator keeps the energy within rounding
// of E0, in float no worse than plain RK4.
TYPED_TEST(SleighOscillatingMassTyped, FeedbackKeepsEnergyOverLongRuns) {
  using S = TypeParam;
  const auto sys = *SleighOscillatingMass<S>::make();
  const auto ref = *SleighOscillatingMass<double>::make();
  const Vec<S, 7> x0 = sleigh_start().cast<S>();
  const S h = S(5e-3);
  const auto fb = feedback(sys, x0, balanced_gains(sys, x0, S(2)));
  const double E0 = ref.energy(x0.template cast<double>());
  Vec<S, 7> xf = x0, xp = x0;
  double dev_fb = 0, dev_plain = 0;
  for (int k = 0; k < 40000; ++k) {
    rk4_step(fb, xf, h);
    rk4_step(sys, xp, h);
    dev_fb = std::max(dev_fb, std::abs(ref.energy(xf.template cast<double>()) - E0));
    dev_plain = std::max(dev_plain, std::abs(ref.energy(xp.template cast<double>()) - E0));
  }
  const double tol = std::is_same<S, float>::value ? 2e-5 : 1e-9;
  EXPECT_LT(dev_fb, tol * (1 + E0));
  if (std::is_same<S, float>::value) {
    EXPECT_LE(dev_fb, dev_plain);
  }
}
