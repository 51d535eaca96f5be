// SPDX-License-Identifier: Apache-2.0
// RATTLE baseline (Hairer–Lubich–Wanner p. 246; paper 002 §2.3-2.4): stays on T*S^2 to
// rounding, is symmetric, second order, energy-bounded over t in [0, 100], and refuses a step
// whose position constraint has no solution.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "attractor/integrate/rattle.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "no_alloc.hpp"
#include "paper002.hpp"

using namespace attractor;
using attractor::test::paper002_x0;

namespace {

template <class T>
class RattleTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(RattleTyped, Scalars);

// Every step ends exactly on T*S^2 up to rounding (closed-form multipliers, no iteration
// tolerance). 10^4 steps (t in [0, 10]); measured max |f1 - 1|, |f2|: double 4.4e-16, 3.3e-16;
// float 1.8e-7, 1.3e-7.
TYPED_TEST(RattleTyped, StaysOnTheConstraintManifoldToRounding) {
  using S = TypeParam;
  using Sys = SphericalPendulum<S>;
  const auto r0 = Rattle<Sys>::make(Sys{}, paper002_x0<S>());
  ASSERT_TRUE(r0.ok());
  Rattle<Sys> r = *r0;
  const double tol = std::is_same<S, float>::value ? 1e-6 : 4e-15;
  double worst1 = 0, worst2 = 0;
  {
    test::NoAllocGuard guard;
    for (int k = 0; k < 10000; ++k) {
      ASSERT_EQ(r.step(S(1e-3)), Error::none);
      const Vec<double, 6> x = r.state().template cast<double>();
      worst1 = std::max(worst1, std::fabs(x.head<3>().squaredNorm() - 1.0));
      worst2 = std::max(worst2, std::fabs(x.head<3>().dot(x.tail<3>())));
    }
  }
  EXPECT_LT(worst1, tol);
  EXPECT_LT(worst2, tol);
}

// §2.3 experiment (double, 1e5 steps of h = 1e-3): energy error bounded without drift, J to
// rounding. Measured: max |dH| 7.01e-7 in both halves of [0, 100] (ratio 1.00), max |dJ| 5.6e-14.
TEST(Rattle, Paper23EnergyBoundedAndMomentumKept) {
  using Sys = SphericalPendulum<double>;
  Rattle<Sys> r(Sys{}, paper002_x0<double>());
  const Vec<double, 4> F0 = Sys{}.invariants(paper002_x0<double>());
  double dH_first = 0, dH_second = 0, dJ = 0;
  bool all_steps_ok = true;
  {
    test::NoAllocGuard guard;
    for (int k = 1; k <= 100000; ++k) {
      all_steps_ok &= r.step(1e-3) == Error::none;
      if (k % 10 != 0) continue;
      const Vec<double, 4> d = (Sys{}.invariants(r.state()) - F0).cwiseAbs();
      (k <= 50000 ? dH_first : dH_second) = std::max(k <= 50000 ? dH_first : dH_second, d[2]);
      dJ = std::max(dJ, d[3]);
    }
  }
  EXPECT_TRUE(all_steps_ok);
  EXPECT_LT(std::max(dH_first, dH_second), 1.5e-6);
  EXPECT_GT(dH_first, 1e-7);  // a genuine O(h^2) energy oscillation, not a no-op integrator
  EXPECT_LE(dH_second, 1.1 * dH_first);
  EXPECT_LT(dJ, 1e-12);
}

// RATTLE is symmetric: a step of -h undoes a step of h (to rounding). A wrong multiplier or
// half-kick breaks this at O(h^2).
TEST(Rattle, StepBackwardUndoesStepForward) {
  using Sys = SphericalPendulum<double>;
  Rattle<Sys> r(Sys{1.3, 9.81, 1.0}, paper002_x0<double>());
  for (int k = 0; k < 50; ++k) ASSERT_EQ(r.step(1e-2), Error::none);
  const Vec<double, 6> x = r.state();
  ASSERT_EQ(r.step(0.05), Error::none);
  ASSERT_EQ(r.step(-0.05), Error::none);
  EXPECT_LT((r.state() - x).norm(), 1e-14);  // measured 6.8e-16
}

// Global error after one period of the §2.4 planar pendulum (x(T) = x0). Measured:
// n = 256: 8.8904e-4, n = 512: 2.2221e-4 (observed order 2.000), n = 1024: 5.5550e-5.
TEST(Rattle, Paper24ConvergesAtOrderTwo) {
  using Sys = PlanarPendulum<double>;
  const Sys sys{};
  const Vec<double, 4> x0(1, 0, 0, 0);
  const double T = *sys.period(x0);
  auto error = [&](int n) {
    Rattle<Sys> r(sys, x0);
    for (int k = 0; k < n; ++k)
      if (r.step(T / n) != Error::none) return std::numeric_limits<double>::quiet_NaN();
    return (r.state() - x0).norm();
  };
  const double e256 = error(256), e512 = error(512), e1024 = error(1024);
  EXPECT_NEAR(std::log2(e256 / e512), 2.0, 0.05);
  EXPECT_NEAR(std::log2(e512 / e1024), 2.0, 0.05);
  EXPECT_NEAR(e1024, 5.555e-5, 0.05 * 5.555e-5);
}

TEST(Rattle, RefusesAStepWithoutARealSolutionAndKeepsItsState) {
  using Sys = SphericalPendulum<double>;
  Rattle<Sys> r(Sys{}, paper002_x0<double>());
  const Vec<double, 6> x = r.state();
  // h = 10: the unconstrained position lands ~10 away from the unit sphere along the tangent,
  // where no multiple of q_n brings it back (discriminant l^2 - |q~_tangential|^2 < 0).
  EXPECT_EQ(r.step(10.0), Error::singular);
  EXPECT_EQ(r.state(), x);
  EXPECT_EQ(r.step(1e-3), Error::none);
}

TEST(Rattle, MakeRejectsBadInput) {
  using Sys = SphericalPendulum<double>;
  Vec<double, 6> bad = paper002_x0<double>();
  bad[4] = NAN;
  EXPECT_EQ(Rattle<Sys>::make(Sys{}, bad).error(), Error::non_finite);
  EXPECT_EQ(Rattle<Sys>::make(Sys{}, Vec<double, 6>::Zero()).error(), Error::invalid_parameter);
  Sys massless{};
  massless.m = 0;
  EXPECT_EQ(Rattle<Sys>::make(massless, paper002_x0<double>()).error(), Error::invalid_parameter);
}

}  // namespace
