// SPDX-License-Identifier: Apache-2.0
// The measure checks of integrate/measure.hpp on fields whose divergence and invariant density
// are known in closed form: the trapezoid integral of div X, the central-difference divergence
// against the analytic hook, and log ρ(x(t)) − log ρ(x0) + ∫ div X dt = 0 for an invariant ρ.
#include <gtest/gtest.h>

#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/measure.hpp"

namespace attractor {
namespace {

// q' = p, p' = −q − c p: div X = −c everywhere, so ∫ div X dt = −c t; no invariant density.
struct DampedOscillator {
  using Scalar = double;
  static constexpr int N = 2;
  double c = 0.3;
  Vec<double, 2> field(const Vec<double, 2>& x) const { return Vec<double, 2>(x[1], -x[0] - c * x[1]); }
};

// The same field with its divergence written out (must win over central differences).
struct DampedOscillatorAnalytic : DampedOscillator {
  double divergence(const Vec<double, 2>&) const { return -2 * c; }  // deliberately twice the truth
};

// ẋ = x1 (x1, x2): div X = 3 x1, invariant density ρ = 1/x1³
// (div(ρX) = ∂1(1/x1) + ∂2(x2/x1²) = −1/x1² + 1/x1² = 0).
struct ScalingField {
  using Scalar = double;
  static constexpr int N = 2;
  Vec<double, 2> field(const Vec<double, 2>& x) const { return x[0] * x; }
  double log_density(const Vec<double, 2>& x) const { return -3 * std::log(x[0]); }
};

template <class Sys>
MeasureTracker<Sys> run(const Sys& sys, Vec<double, 2> x, double h, int steps) {
  MeasureTracker<Sys> m(sys, x);
  for (int k = 0; k < steps; ++k) {
    rk4_step(sys, x, h);
    m.record(x, h);
  }
  return m;
}

TEST(MeasureCheck, ConstantDivergenceIntegratesToMinusCTimesT) {
  const DampedOscillator sys;
  const auto m = run(sys, Vec<double, 2>(1, 0), 1e-2, 500);
  EXPECT_NEAR(m.divergence_integral(), -0.3 * 5.0, 1e-9);
  EXPECT_NEAR(m.max_abs_divergence(), 0.3, 1e-9);   // the largest |div X|, of a negative divergence
  EXPECT_TRUE(std::isnan(m.log_measure_change()));  // no density: null in --json
}

TEST(MeasureCheck, AnalyticDivergenceHookIsUsed) {
  const DampedOscillatorAnalytic sys;
  EXPECT_EQ(field_divergence(sys, Vec<double, 2>(0.4, -1)), -0.6);
  EXPECT_NEAR(numeric_divergence(sys, Vec<double, 2>(0.4, -1)), -0.3, 1e-9);
}

TEST(MeasureCheck, InvariantDensityBalancesTheDivergence) {
  const ScalingField sys;
  const Vec<double, 2> x0(0.5, 1);
  EXPECT_NEAR(numeric_divergence(sys, x0), 1.5, 1e-9);
  const auto m = run(sys, x0, 1e-3, 1000);                        // x1(t) = x1(0)/(1 − x1(0) t): 0.5 → 1 at t = 1
  EXPECT_NEAR(m.divergence_integral(), 3 * std::log(2.0), 1e-6);  // ∫ 3 x1 dt = 3 log(x1(t)/x1(0))
  EXPECT_NEAR(m.log_measure_change(), 0, 1e-6);
  EXPECT_GT(m.max_abs_divergence(), 2.9);
}

}  // namespace
}  // namespace attractor
