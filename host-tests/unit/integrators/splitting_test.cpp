// SPDX-License-Identifier: Apache-2.0
// Lie–Trotter and Strang baselines (paper 002 §2.3; Hairer–Lubich–Wanner pp. 253-254): the
// sub-flows are the exact flows of the Dirac-extended H1 and H2 fields, the methods have
// orders 1 and 2, keep f1, f2, J to rounding, and show the §2.3 energy behaviour.
#include <gtest/gtest.h>

#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/splitting.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "no_alloc.hpp"
#include "paper002.hpp"

using namespace attractor;
using attractor::test::paper002_x0;

namespace {

using Sph = SphericalPendulum<double>;
using X6 = Vec<double, 6>;

// Dirac-extended field of H1 = |p|^2/(2m) (paper 002 eq. (1) with f1 = |q|^2, f2 = q.p).
X6 kinetic_field(const X6& x, double m) {
  const Vec3<double> q = x.head<3>(), p = x.tail<3>();
  const double f1 = q.squaredNorm(), f2 = q.dot(p);
  X6 d;
  d << p / m - f2 / (m * f1) * q, f2 / (m * f1) * p - p.squaredNorm() / (m * f1) * q;
  return d;
}

// Off T*S^2 (|q| != 1, q.p != 0) the closed-form flow equals RK4 on the extended H1 field.
TEST(Splitting, KineticFlowIsTheExactFlowOfTheExtendedField) {
  const double m = 1.3, t = 0.7;
  const X6 x0(0.3, 1.2, -0.4, 0.9, -0.2, 1.1);
  X6 ref = x0;
  auto f = [m](const X6& x) { return kinetic_field(x, m); };
  for (int k = 0; k < 7000; ++k) rk4_step(f, ref, t / 7000);
  Vec3<double> q = x0.head<3>(), p = x0.tail<3>();
  kinetic_flow(q, p, m, t);
  EXPECT_LT((q - ref.head<3>()).norm(), 1e-12);  // measured 1.3e-14 (q), 2.1e-15 (p)
  EXPECT_LT((p - ref.tail<3>()).norm(), 1e-12);
  // Zero tangential momentum: no motion, no division by zero.
  Vec3<double> q0(0, 0, 2), p0(0, 0, 0.5);
  kinetic_flow(q0, p0, m, t);
  EXPECT_EQ(q0, Vec3<double>(0, 0, 2));
  EXPECT_EQ(p0, Vec3<double>(0, 0, 0.5));
}

TEST(Splitting, PotentialFlowIsTheExactFlowOfTheExtendedField) {
  const Sph sys{1.3, 9.81, 1};
  const X6 x0(0.3, 1.2, -0.4, 0.9, -0.2, 1.1);
  X6 x = x0;
  potential_flow(sys, x, 0.25);
  // q' = 0, p' = -grad U + (grad U.q/f1) q with grad U = (0, 0, m g): constant along the flow.
  const Vec3<double> q = x0.head<3>(), gU(0, 0, 1.3 * 9.81);
  const Vec3<double> pdot = -gU + gU.dot(q) / q.squaredNorm() * q;
  EXPECT_EQ(x.head<3>(), x0.head<3>());
  EXPECT_LT((x.tail<3>() - (x0.tail<3>() + 0.25 * pdot)).norm(), 1e-15);
}

// §2.3 experiment, double, 1e5 steps. Measured (attractor-paper holonomic):
//   Lie–Trotter max |df1| 2.2e-14, |df2| 2.0e-14, |dJ| 2.6e-14, |dH| 1.085e-3 (first order)
//   Strang      max |df1| 7.0e-14, |df2| 3.9e-14, |dJ| 4.5e-14, |dH| 1.93e-7, same in both halves
template <class Step>
Vec<double, 4> paper23_max_deviation(Step&& step_fn, double* dH_first, double* dH_second) {
  X6 x = paper002_x0<double>();
  const Vec<double, 4> F0 = Sph{}.invariants(x);
  Vec<double, 4> worst = Vec<double, 4>::Zero();
  *dH_first = *dH_second = 0;
  test::NoAllocGuard guard;
  for (int k = 1; k <= 100000; ++k) {
    step_fn(x);
    if (k % 10 != 0) continue;
    const Vec<double, 4> d = (Sph{}.invariants(x) - F0).cwiseAbs();
    worst = worst.cwiseMax(d);
    double& half = k <= 50000 ? *dH_first : *dH_second;
    half = std::max(half, d[2]);
  }
  return worst;
}

TEST(Splitting, Paper23LieTrotterKeepsConstraintsAndMomentumEnergyFirstOrder) {
  const Sph sys{};
  double a, b;
  const Vec<double, 4> d = paper23_max_deviation([&](X6& x) { lie_trotter_step(sys, x, 1e-3); }, &a, &b);
  EXPECT_LT(d[0], 1e-12);
  EXPECT_LT(d[1], 1e-12);
  EXPECT_LT(d[3], 1e-12);
  EXPECT_GT(d[2], 5e-4);  // O(h) energy error...
  EXPECT_LT(d[2], 2e-3);  // ...bounded (symplectic): 1.085e-3 in both halves
  EXPECT_LE(b, 1.1 * a);
}

TEST(Splitting, Paper23StrangKeepsConstraintsAndMomentumEnergySecondOrder) {
  const Sph sys{};
  double a, b;
  const Vec<double, 4> d = paper23_max_deviation([&](X6& x) { strang_step(sys, x, 1e-3); }, &a, &b);
  EXPECT_LT(d[0], 1e-12);
  EXPECT_LT(d[1], 1e-12);
  EXPECT_LT(d[3], 1e-12);
  EXPECT_GT(d[2], 5e-8);
  EXPECT_LT(d[2], 5e-7);
  EXPECT_LE(b, 1.1 * a);
}

// Float: the increment form of the kinetic flow avoids the biased rounding of cos(theta) ~ 1.
// Measured max |df1| over 1e5 Strang steps: 2.4e-5 (the rotation-matrix form: 3.3e-3).
TEST(Splitting, Paper23StrangInFloatDoesNotDriftOffTheSphere) {
  using S = float;
  const SphericalPendulum<S> sys{};
  Vec<S, 6> x(0.f, 1.f, 0.f, 1.f, 0.f, 1.f);
  double worst = 0;
  {
    test::NoAllocGuard guard;
    for (int k = 0; k < 100000; ++k) {
      strang_step(sys, x, 1e-3f);
      if (k % 10 == 0) worst = std::max(worst, std::fabs(x.head<3>().cast<double>().squaredNorm() - 1.0));
    }
  }
  EXPECT_LT(worst, 1e-4);
}

// Orders on the §2.3 spherical pendulum over t in [0, 2], against RK4 at h = 1e-4 (error
// ~1e-14). Measured |x_n - x(2)|: n = 100: LT 2.1778e-2, Strang 4.8368e-5; n = 200: LT
// 1.0893e-2, Strang 1.2091e-5 -> observed orders 1.00 and 2.00.
// (Not measured on the §2.4 set-up: there both splittings look fourth order, 7.2e-10 at 512
// steps per period. Likely cause, not investigated further: the pendulum starts and ends at
// rest at a turning point, where the kinetic sub-flow is the identity, so Lie–Trotter^n and
// Strang^n nearly coincide, and the leading error of this method, which is Stormer–Verlet in
// the angle, cancels over one full symmetric period. RATTLE shows its order 2 there.)
TEST(Splitting, ObservedOrdersOneAndTwo) {
  const Sph sys{};
  auto X = [&sys](const X6& x) { return sys.field(x); };
  X6 ref = paper002_x0<double>();
  for (int k = 0; k < 20000; ++k) rk4_step(X, ref, 1e-4);
  auto error = [&](bool strang, int n) {
    X6 x = paper002_x0<double>();
    for (int k = 0; k < n; ++k) strang ? strang_step(sys, x, 2.0 / n) : lie_trotter_step(sys, x, 2.0 / n);
    return (x - ref).norm();
  };
  const double lt1 = error(false, 100), lt2 = error(false, 200);
  const double st1 = error(true, 100), st2 = error(true, 200);
  EXPECT_NEAR(std::log2(lt1 / lt2), 1.0, 0.1);
  EXPECT_NEAR(std::log2(st1 / st2), 2.0, 0.1);
  EXPECT_NEAR(st2, 1.2091e-5, 0.05 * 1.2091e-5);
}

}  // namespace
