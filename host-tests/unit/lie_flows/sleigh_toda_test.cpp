// SPDX-License-Identifier: Apache-2.0
// The Chaplygin sleigh in (v, ω) and the two-dimensional Toda lattice (systems/sleigh_toda.hpp):
// the Toda closed form against the Toda equations, the sleigh against it under the stated time
// scaling, the approach to the positive v axis, the same motion as the paper-000 sleigh model,
// the energy kept by the feedback integrator in float and double, and the measure property
// ∫ div X dt = log(ω(t)/ω(0)) (Ẇ/W = −V = div X).
#include <gtest/gtest.h>

#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/measure.hpp"
#include "attractor/systems/chaplygin_sleigh.hpp"
#include "attractor/systems/sleigh_toda.hpp"

namespace attractor {
namespace {

SleighToda<double> physical_sleigh() {
  SleighTodaParams<double> p;
  p.mass = 2, p.inertia = 0.7, p.offset = 0.4;
  return *SleighToda<double>::make(p);
}

TEST(SleighToda, TodaClosedFormSolvesTheTodaEquations) {
  const double c = 0.8, d = 1e-5;
  for (double t : {0.0, 0.2, 1.0, 3.0}) {
    const Vec<double, 2> rate =
        (SleighToda<double>::toda_exact(c, t + d) - SleighToda<double>::toda_exact(c, t - d)) / (2 * d);
    EXPECT_NEAR((rate - SleighToda<double>::toda_field(SleighToda<double>::toda_exact(c, t))).norm(), 0, 1e-9) << t;
    // The slides' printed b₁ = −c tanh 2ct runs the other way: ḃ₁ = −2a₁² along it.
    const Vec<double, 2> printed(-c * std::tanh(2 * c * t), c / std::cosh(2 * c * t));
    if (t > 0 && t < 2) {
      EXPECT_GT(std::abs(-2 * c * c / std::pow(std::cosh(2 * c * t), 2) - SleighToda<double>::toda_field(printed)[0]),
                0.1);
    }
  }
}

// The sleigh from v = 0, ω = ω0 integrated (feedback RK4), mapped to (b₁, a₁) at Toda time t/2:
// the Toda closed form with c = √(a k) ω0.
TEST(SleighToda, SleighIsTheTodaLatticeAtHalfTheTime) {
  const auto sys = physical_sleigh();
  const double w0 = 1.3, c = std::sqrt(sys.prm.offset * sys.k) * w0, h = 1e-3;
  Vec<double, 2> x(0, w0);
  const auto fb = *Feedback<SleighToda<double>>::make(sys, x, Vec<double, 1>(20));
  double worst = 0;
  for (int k = 1; k <= 6000; ++k) {
    rk4_step(fb, x, h);
    const double t = k * h;
    worst = std::max(worst, (sys.normalized(x) - SleighToda<double>::toda_exact(c, t / 2)).norm());
    EXPECT_NEAR((x - sys.exact(Vec<double, 2>(0, w0), t)).norm(), 0, 1e-10);
  }
  EXPECT_LT(worst, 1e-10);
}

// Every orbit with ω ≠ 0, v0 of either sign, ends on the positive v axis at v = √(2E/m).
TEST(SleighToda, OrbitsApproachThePositiveVAxis) {
  const auto sys = physical_sleigh();
  for (const Vec<double, 2>& x0 : {Vec<double, 2>(-1.5, 0.2), Vec<double, 2>(0.3, -2), Vec<double, 2>(-0.2, 1)}) {
    Vec<double, 2> x = x0;
    for (int k = 0; k < 40000; ++k) rk4_step(sys, x, 1e-3);
    const double E = sys.invariants(x0)[0];
    EXPECT_LT(std::abs(x[1]), 1e-3 * std::abs(x0[1])) << x0.transpose();
    EXPECT_NEAR(x[0], std::sqrt(2 * E / sys.prm.mass), 1e-6) << x0.transpose();
    EXPECT_NEAR((x - sys.exact(x0, 40)).norm(), 0, 1e-8);
  }
}

// exact() against the integrated flow while the orbit still turns (t <= 3), for ω0 of either
// sign (ω0 < 0: the mirror orbit, ω(t) < 0 all along) and v0 of either sign; a state with ω = 0
// is an equilibrium it returns unchanged, the origin included (where v/|v| is 0/0).
TEST(SleighToda, ExactFlowMatchesTheIntegratedOneForEitherSignOfOmega) {
  const auto sys = physical_sleigh();
  for (const Vec<double, 2>& x0 :
       {Vec<double, 2>(0.3, -2), Vec<double, 2>(-1.5, -0.2), Vec<double, 2>(-0.2, 1), Vec<double, 2>(0.5, 0.7)}) {
    Vec<double, 2> x = x0;
    for (int k = 1; k <= 3000; ++k) {
      rk4_step(sys, x, 1e-3);
      if (k % 500 != 0) continue;
      const Vec<double, 2> e = sys.exact(x0, k * 1e-3);
      ASSERT_GT(std::abs(x[1]), 1e-3) << x0.transpose();  // still turning: the sign of ω matters
      EXPECT_NEAR((x - e).norm(), 0, 1e-9) << x0.transpose() << " t=" << k * 1e-3;
    }
  }
  for (const Vec<double, 2>& rest : {Vec<double, 2>(0.8, 0), Vec<double, 2>(-0.8, 0), Vec<double, 2>(0, 0)})
    EXPECT_EQ(sys.exact(rest, 5), rest);
}

// The paper-000 sleigh (reduced, Π = 𝕀ξ with ξ = (ω, v, 0) on the constraint) runs the same
// motion: Π = ((I + m a²) ω, m v, m a ω).
TEST(SleighToda, SameMotionAsThePaper000Sleigh) {
  const auto sys = physical_sleigh();
  ChaplyginSleighParams<double> p;
  p.mass = sys.prm.mass, p.inertia = sys.prm.inertia, p.offset = sys.prm.offset;
  const auto ref = *ChaplyginSleigh<double, false>::make(p);
  Vec<double, 2> x(-0.4, 1.1);
  auto to_pi = [&](const Vec<double, 2>& y) {
    return Vec3<double>(sys.Ia * y[1], p.mass * y[0], p.mass * p.offset * y[1]);
  };
  Vec3<double> Pi = to_pi(x);
  for (int k = 0; k < 5000; ++k) {
    rk4_step(sys, x, 1e-3);
    rk4_step(ref, Pi, 1e-3);
  }
  EXPECT_NEAR((to_pi(x) - Pi).norm(), 0, 1e-12);
  EXPECT_GT(std::abs(x[0] + 0.4), 0.5);  // it moved
}

template <class T>
class SleighTodaTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SleighTodaTyped, Scalars);

// Feedback RK4 keeps E (float: to its rounding), plain RK4 drifts more in float over long runs;
// ∫ div X dt = log(ω(t)/ω(0)) along the run (measured on the double system).
TYPED_TEST(SleighTodaTyped, FeedbackKeepsEnergyAndDivergenceMatchesLogOmega) {
  using S = TypeParam;
  SleighTodaParams<S> p;
  p.mass = S(2), p.inertia = S(0.7), p.offset = S(0.4);
  const auto sys = *SleighToda<S>::make(p);
  const auto ref = physical_sleigh();
  Vec<S, 2> x(S(-1), S(1.5));
  const auto fb = *Feedback<SleighToda<S>>::make(sys, x, Vec<S, 1>(S(20)));
  const double E0 = ref.invariants(x.template cast<double>())[0];
  MeasureTracker<SleighToda<double>> m(ref, x.template cast<double>());
  double worst = 0;
  for (int k = 0; k < 10000; ++k) {
    rk4_step(fb, x, S(1e-3));
    m.record(x.template cast<double>(), 1e-3);
    worst = std::max(worst, std::abs(ref.invariants(x.template cast<double>())[0] - E0));
  }
  const bool is_float = std::is_same<S, float>::value;
  EXPECT_LT(worst, is_float ? 1e-5 : 2e-9);                                                    // E0 ≈ 2.1
  EXPECT_NEAR(m.divergence_integral(), std::log(double(x[1]) / 1.5), is_float ? 1e-3 : 1e-6);  // trapezoid: O(h²)
  EXPECT_LT(m.divergence_integral(), -1);  // area contracts: no invariant measure
}

TEST(SleighToda, RefusesBadParameters) {
  SleighTodaParams<double> p;
  p.mass = 0;
  EXPECT_FALSE(SleighToda<double>::make(p));
  p = {}, p.inertia = -1;
  EXPECT_FALSE(SleighToda<double>::make(p));
  p = {}, p.offset = NAN;
  EXPECT_FALSE(SleighToda<double>::make(p));
  p = {}, p.offset = 0;  // I + m a² = 0
  EXPECT_FALSE(SleighToda<double>::make(p));
  // validate() itself says so (make's later finite-k check would also refuse k = 0/0).
  EXPECT_EQ(p.validate(), Error::invalid_parameter);
  const auto normalized = *SleighToda<double>::make();
  EXPECT_EQ(normalized.k, 1.0);  // defaults: the slides' normalized v̇ = ω², ω̇ = −vω
  EXPECT_EQ(normalized.field(Vec<double, 2>(2, 3)), (Vec<double, 2>(9, -6)));
}

// The rule across parameters is a fact with its text, checked in the scalar the values are held
// in: a = 1e-30 squares to 0 in float (I + m a² = 0), not in double.
TEST(SleighToda, FactsStateTheRuleAcrossParameters) {
  const double zero[] = {1, 0, 0};
  const facts::Refusal r = facts::check<SleighTodaFacts>(zero);
  ASSERT_TRUE(r);
  EXPECT_EQ(r.param, -1);
  EXPECT_STREQ(r.rule, "I + m a^2 > 0 is violated");
  const double tiny[] = {1, 0, 1e-30};
  EXPECT_FALSE(facts::check<SleighTodaFacts>(tiny));
  const float tiny_f[] = {1, 0, 1e-30f};
  EXPECT_TRUE(facts::check<SleighTodaFacts>(tiny_f));
  SleighTodaParams<float> pf;
  pf.offset = 1e-30f;
  EXPECT_EQ(pf.validate(), Error::invalid_parameter);
}

}  // namespace
}  // namespace attractor
