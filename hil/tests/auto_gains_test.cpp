// SPDX-License-Identifier: Apache-2.0
// --gains auto (hil/cli/auto_gains.hpp): h * stiffness stays within the safety fraction of the
// stability interval along the run, and the invariant error in double is never worse than plain
// RK4's by more than kAutoGainDriftMargin * (1 + |F_i(x0)|) on the papers' experiments.
#include <gtest/gtest.h>

#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "auto_gains.hpp"

namespace {

using namespace attractor;

// Max |F_i(x) - F_i(x0)| over `steps` steps of plain RK4 and of feedback RK4 with auto gains.
template <class Sys, int Count>
void compare(const Sys& sys, const Vec<double, Sys::N>& x0, const Vec<double, Sys::N> (&region)[Count], double h,
             long steps, double* worst_hs) {
  const Vec<double, Sys::M> K = cli::auto_gains(sys, region, Scheme::rk4, h);
  const auto fb = *Feedback<Sys>::make(sys, x0, K);
  const Vec<double, Sys::M> F0 = sys.invariants(x0);
  Vec<double, Sys::N> xp = x0, xf = x0;
  Vec<double, Sys::M> dp = Vec<double, Sys::M>::Zero(), df = dp;
  *worst_hs = 0;
  for (long k = 0; k < steps; ++k) {
    rk4_step([&](const Vec<double, Sys::N>& y) { return sys.field(y); }, xp, h);
    rk4_step(fb, xf, h);
    dp = dp.cwiseMax((sys.invariants(xp) - F0).cwiseAbs());
    df = df.cwiseMax((sys.invariants(xf) - F0).cwiseAbs());
    *worst_hs = std::max(*worst_hs, h * fb.stiffness(xf));
  }
  for (int i = 0; i < Sys::M; ++i) {
    EXPECT_LE(df[i], dp[i] + cli::kAutoGainDriftMargin * (1 + std::abs(F0[i]))) << "invariant " << i;
    EXPECT_TRUE(std::isfinite(df[i]));
  }
}

TEST(AutoGains, SphericalPendulumPaper002Section23) {
  const SphericalPendulum<double> sys{};
  const Vec<double, 6> x0(0, 1, 0, 1, 0, 1);
  // Bound state of the energy level (pendulum_cli.hpp): q = l e1, p = p_max e2.
  const double pmax = std::sqrt(2 * (sys.invariants(x0)[2] + 1));
  const Vec<double, 6> region[2] = {x0, Vec<double, 6>(1, 0, 0, 0, pmax, 0)};
  double hs = 0;
  compare(sys, x0, region, 1e-3, 20000, &hs);  // t in [0, 20] of §2.3
  EXPECT_LE(hs, cli::kAutoGainSafety * real_stability_limit<double>(Scheme::rk4) * (1 + 1e-9));
  EXPECT_GT(hs, 0.5 * cli::kAutoGainSafety * real_stability_limit<double>(Scheme::rk4));  // largest, not tiny
}

TEST(AutoGains, PlanarPendulumPaper002Section24) {
  const PlanarPendulum<double> sys{};
  const Vec<double, 4> x0(1, 0, 0, 0);
  const Vec<double, 4> region[2] = {x0, Vec<double, 4>(1, 0, 0, std::sqrt(2.0))};
  double hs = 0;
  compare(sys, x0, region, 1e-3, 7416, &hs);
  EXPECT_LE(hs, cli::kAutoGainSafety * real_stability_limit<double>(Scheme::rk4) * (1 + 1e-9));
}

TEST(AutoGains, SkatePaper003Section72UntilTheFall) {
  const PendulumSkate<double> sys{PendulumSkateParams<double>{}};
  const Vec<double, 5> x0 = skate_zeta(skate_initial_condition_59(0.1));
  Vec<double, 5> tilted = x0;  // the sample region attractor-sim skate uses
  tilted[3] = 1, tilted[4] = 0, tilted[1] *= 3;
  const Vec<double, 5> region[2] = {x0, tilted};
  double hs = 0;
  compare(sys, x0, region, 1e-3, 1020, &hs);  // the skate falls at t = 1.025
}

TEST(AutoGains, ChosenRateScalesWithTheStep) {
  const PlanarPendulum<double> sys{};
  const Vec<double, 4> region[1] = {Vec<double, 4>(1, 0, 0, 0)};
  const auto K1 = cli::auto_gains(sys, region, Scheme::rk4, 1e-3);
  const auto K2 = cli::auto_gains(sys, region, Scheme::rk4, 2e-3);
  EXPECT_NEAR(K1[0], 2 * K2[0], 1e-9 * K1[0]);
  const auto Ke = cli::auto_gains(sys, region, Scheme::euler, 1e-3);
  EXPECT_LT(Ke[0], K1[0]);  // Euler's stability interval (2) is shorter than RK4's (2.785)
}

}  // namespace
