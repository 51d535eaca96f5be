// SPDX-License-Identifier: Apache-2.0
// Feedback integrators for the pendulum skate (paper 003 model, paper 000 §2.4 recipe): drift
// with and without the feedback term, float and double (split from pendulum_skate_test.cpp so
// the two heavy translation units build in parallel).

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "no_alloc.hpp"

using namespace attractor;

namespace {

template <class T>
class SkateFeedback : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SkateFeedback, Scalars);

// Max invariant drift (evaluated in double) of a scheme applied to the feedback field and to the
// plain extended field, from the same start.
template <class S, class Sys, int N>
void drifts(const Sys& sys, const Vec<double, N>& x0d, Scheme sc, S rate, S h, int steps, double& dfb, double& dplain) {
  using Ref = decltype(sys.p);
  (void)sizeof(Ref);
  const Vec<S, N> x0 = x0d.template cast<S>();
  // Gains sized on the start and on the fully tilted state (gradients of C1, C2 grow with tilt).
  Vec<S, N> samples[2] = {x0, x0};
  if (N == 9) {
    samples[1][6] = S(0);
    samples[1][7] = S(1);
    samples[1][8] = S(0);
  } else {
    samples[1][3] = S(1);
    samples[1][4] = S(0);
    samples[1][1] *= S(3);
  }
  auto fb = Feedback<Sys>::make(sys, x0, balanced_gains(sys, samples, rate));
  ASSERT_TRUE(fb.ok());
  ASSERT_EQ(fb->check_step(sc, h, x0), Error::none);
  Vec<S, N> xf = x0, xp = x0;
  dfb = dplain = 0;
  const auto F0 = sys.invariants(x0).template cast<double>().eval();
  for (int k = 0; k < steps; ++k) {
    {
      test::NoAllocGuard guard;
      step(sc, *fb, xf, h);
      step(sc, sys, xp, h);
    }
    dfb = std::max(dfb, (sys.invariants(xf).template cast<double>() - F0).cwiseAbs().maxCoeff());
    dplain = std::max(dplain, (sys.invariants(xp).template cast<double>() - F0).cwiseAbs().maxCoeff());
  }
}

TYPED_TEST(SkateFeedback, FullFeedbackIntegratorEulerThroughTheFall) {
  // Full ambient system z ∈ R⁹, all 8 invariants (E, C1, C2, |Γ|², Γ1, v4, v5, v6) monitored;
  // explicit Euler at h = 1e-2 over the §7.2 run up to the fall (1 s).
  using S = TypeParam;
  double dfb, dplain;
  drifts<S>(PendulumSkateFull<S>{}, skate_tilted_sliding_state(0.1), Scheme::euler, S(20), S(1e-2), 100, dfb, dplain);
  EXPECT_LT(dfb, 0.08);        // measured 0.019 (double), 0.042 (float)
  EXPECT_GT(dplain, 3 * dfb);  // measured 0.18
}

TYPED_TEST(SkateFeedback, FullFeedbackIntegratorRk4LongSpin) {
  // A stable spin (Ω0 = 6 > 4.1 of (42)) tilted by 0.1, RK4 at h = 1e-2 (coarse for the fast
  // spin about E3, I3 = 0.004) over 10 s: the plain field drifts by ~1, the feedback one by 0.1.
  using S = TypeParam;
  double dfb, dplain;
  Vec<double, 5> q;
  q << 0.0, 6.0, 0.0, std::sin(0.1), std::cos(0.1);
  drifts<S>(PendulumSkateFull<S>{}, skate_full(q), Scheme::rk4, S(5), S(1e-2), 1000, dfb, dplain);
  EXPECT_LT(dfb, 0.3);         // measured 0.101 (double and float)
  EXPECT_GT(dplain, 5 * dfb);  // measured 0.98
}

TYPED_TEST(SkateFeedback, ReducedFeedbackIntegratorEuler) {
  using S = TypeParam;
  double dfb, dplain;
  drifts<S>(PendulumSkate<S>{}, skate_zeta(skate_tilted_sliding_state(0.1)), Scheme::euler, S(20), S(1e-2), 100, dfb,
            dplain);
  EXPECT_LT(dfb, 0.05);        // measured 0.021
  EXPECT_GT(dplain, 3 * dfb);  // measured 0.18
}

TYPED_TEST(SkateFeedback, AdvectedGammaKeepsUnitNormAndPitchWithNoisyRates) {
  // Firmware attitude propagation: a measured Ω violating v4 = 0 (noise), float at 1 kHz, 10 s.
  using S = TypeParam;
  std::mt19937 rng(11);
  std::normal_distribution<double> N(0, 0.05);
  Feedback<AdvectedGamma<S>> fb(AdvectedGamma<S>{}, Vec<S, 2>(S(1), S(0)), Vec<S, 2>(S(200), S(200)));
  AdvectedGamma<S> plain{};
  Vec<S, 3> g(S(0), S(0.0998), S(0.995));
  g.normalize();
  Vec<S, 3> gp = g;
  ASSERT_EQ(fb.check_step(Scheme::rk4, S(1e-3), g), Error::none);
  double worst = 0, worst_plain = 0;
  for (int k = 0; k < 10000; ++k) {
    const Vec<S, 3> w(S(0.3 * std::sin(1e-3 * k) + N(rng)), S(N(rng)), S(0.2 + N(rng)));
    fb.system().omega = w;
    plain.omega = w;
    {
      test::NoAllocGuard guard;
      rk4_step(fb, g, S(1e-3));
      rk4_step(plain, gp, S(1e-3));
    }
    worst = std::max({worst, std::abs(double(g.norm()) - 1), std::abs(double(g[0]))});
    worst_plain = std::max({worst_plain, std::abs(double(gp.norm()) - 1), std::abs(double(gp[0]))});
  }
  EXPECT_LT(worst, 2e-3);             // measured ~1e-3 (Γ1 under noise, double and float)
  EXPECT_GT(worst_plain, 5 * worst);  // without feedback Γ1 random-walks
}

}  // namespace
