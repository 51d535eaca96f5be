// SPDX-License-Identifier: Apache-2.0
// Chaplygin sleigh (paper 000 §3.3), reduced and with SE(2) embedded as (R ∈ R^{2×2}, x, y): the
// paper's reduced field (53) against the Lie-group adapter, first integrals and Jacobian, and a
// documented case (§3.3 has no experiment): m = I = 1, a = 0.5, Π0 = (1, 1, ma/(I + ma²)), Euler
// and RK4, h = 1e-3, all gains 50, t ∈ [0, 20], against RK4 at h = 1e-4 of the plain field.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "attractor/core/documented.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/chaplygin_sleigh.hpp"
#include "no_alloc.hpp"
#include "nonholonomic_checks.hpp"

using namespace attractor;
using namespace attractor::test;

namespace {

template <class S>
Vec3<S> sleigh_on_constraint(const ChaplyginSleighParams<S>& p, Vec3<S> Pi) {
  Pi[2] = p.mass * p.offset * Pi[0] / (p.inertia + p.mass * p.offset * p.offset);  // maΠθ = (I + ma²)Πy
  return Pi;
}

TEST(ChaplyginSleigh, PapersReducedFieldMatchesTheAdapter) {
  ChaplyginSleighParams<double> prm;
  prm.mass = 1.3;
  prm.inertia = 0.8;
  prm.offset = 0.4;
  const auto red = *ChaplyginSleigh<double, false>::make(prm);
  const auto emb = *ChaplyginSleigh<double, true>::make(prm);
  const double m = prm.mass, a = prm.offset, Ia = prm.inertia + m * a * a;
  std::mt19937 rng(29);
  double worst_off = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3<double> Pi = sleigh_on_constraint(prm, random_vector<double, 3>(rng));
    EXPECT_NEAR(red.invariants(Pi)[0], 0, 1e-15);
    const Vec3<double> paper(-Pi[1] * Pi[2] / m, Pi[0] * Pi[2] / Ia, -a * Pi[1] * Pi[2] / Ia);  // (53b)
    EXPECT_NEAR((red.field(Pi) - paper).norm(), 0, 1e-14);
    EXPECT_NEAR(red.extended_energy(Pi), Pi[0] * Pi[0] / (2 * Ia) + Pi[1] * Pi[1] / (2 * m), 1e-14);  // (50)
    // Embedded: the same Π̇, and (53a) for the pose.
    const double th = 0.3 * trial;
    const auto x = ChaplyginSleigh<double, true>::state(th, 0.1, -0.2, Pi);
    const auto dx = emb.field(x);
    EXPECT_NEAR((dx.tail<3>() - paper).norm(), 0, 1e-14);
    EXPECT_NEAR(dx[4], Pi[1] * std::cos(th) / m, 1e-14);
    EXPECT_NEAR(dx[5], Pi[1] * std::sin(th) / m, 1e-14);
    EXPECT_NEAR(dx[1], Pi[0] / Ia * std::cos(th), 1e-14);  // d/dt sin θ = θ̇ cos θ
    // (53b) is the extension (52b) off the constraint set too.
    const Vec3<double> off = random_vector<double, 3>(rng);
    const Vec3<double> paper_off(-off[1] * off[2] / m, off[0] * off[2] / Ia, -a * off[1] * off[2] / Ia);
    worst_off = std::max(worst_off, (red.field(off) - paper_off).norm());
  }
  EXPECT_LT(worst_off, 1e-14);
}

template <class T>
class SleighTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SleighTyped, Scalars);

TYPED_TEST(SleighTyped, ExtendedFieldConservesItsInvariants) {
  using S = TypeParam;
  ChaplyginSleighParams<S> prm;
  prm.mass = S(1.3);
  prm.inertia = S(0.8);
  prm.offset = S(-0.4);
  const auto emb = *ChaplyginSleigh<S, true>::make(prm);
  const auto embH = *ChaplyginSleigh<S, true, EnergyRow::original>::make(prm);
  std::mt19937 rng(31);
  const double tol = std::is_same<S, float>::value ? 2e-6 : 1e-14;
  for (int trial = 0; trial < 30; ++trial) {
    const Vec3<S> Pi = sleigh_on_constraint(prm, random_vector<S, 3>(rng));
    const auto x = ChaplyginSleigh<S, true>::state(S(0.2) * S(trial), S(1), S(2), Pi);
    EXPECT_LT(first_integral_residual(emb, x), tol);
    EXPECT_LT(first_integral_residual(embH, x), tol);
    auto y = x;
    y.template tail<3>() = random_vector<S, 3>(rng);  // off the constraint: J, h̃, h (Theorem 2.6)
    EXPECT_LT(first_integral_residual(emb, y, 0, 2), tol);
    EXPECT_LT(first_integral_residual(embH, y, 0, 2), tol);
  }
}

TEST(ChaplyginSleigh, JacobianAndValidate) {
  const auto emb = *ChaplyginSleigh<double, true>::make();
  const auto red = *ChaplyginSleigh<double, false, EnergyRow::original>::make();
  std::mt19937 rng(37);
  for (int trial = 0; trial < 20; ++trial) {
    EXPECT_LT(jacobian_error(emb, random_vector<double, 9>(rng)), 1e-8);
    EXPECT_LT(jacobian_error(red, random_vector<double, 3>(rng)), 1e-8);
  }
  static_assert(ChaplyginSleigh<double>::gain_group(4) == 2 && ChaplyginSleigh<double>::M == 5, "one group");
  ChaplyginSleighParams<double> prm;
  prm.mass = -1;
  EXPECT_EQ(ChaplyginSleigh<double>::make(prm).error(), Error::invalid_parameter);
  prm = {};
  prm.offset = NAN;
  EXPECT_EQ(ChaplyginSleigh<double>::make(prm).error(), Error::non_finite);
}

TYPED_TEST(SleighTyped, DocumentedCaseKeepsItsInvariants) {
  using S = TypeParam;
  const ChaplyginSleighParams<S> prm;
  const auto sys = *ChaplyginSleigh<S, true>::make(prm);
  const Vec3<S> Pi0 = sleigh_on_constraint(prm, Vec3<S>(1, 1, 0));
  const auto x0 = ChaplyginSleigh<S, true>::state(S(0), S(0), S(0), Pi0);
  EXPECT_NEAR((x0.template cast<double>() - documented_x0<double, ChaplyginSleighFacts>()).norm(), 0, 1e-6);
  const auto fb = *Feedback<ChaplyginSleigh<S, true>>::make(sys, x0, documented_gains<S, ChaplyginSleighFacts>());
  const auto ref_sys = *ChaplyginSleigh<double, true>::make();
  Vec<double, 9> ref = x0.template cast<double>();
  for (int k = 0; k < 200000; ++k) rk4_step(ref_sys, ref, 1e-4);
  const bool is_float = std::is_same<S, float>::value;
  for (int scheme = 0; scheme < 2; ++scheme) {
    auto x = x0;
    RunRecord<5> rec;
    {
      NoAllocGuard guard;
      rec = scheme == 0 ? run_feedback(fb, x, S(1e-3), 20000, EulerStep{}, NoEach{})
                        : run_feedback(fb, x, S(1e-3), 20000, Rk4Step{}, NoEach{});
    }
    ASSERT_TRUE(rec.finite);
    const double err = (x.template cast<double>() - ref).norm();
    // Measured |x(20) − ref|, J, h̃, RᵀR − I — double Euler 8.3e-4, 3.3e-7, 1.4e-6, 4.4e-6; double
    // RK4 7.0e-12, 6.9e-12, 1.7e-11, 9.5e-11; float Euler 2.1e-3, 4.2e-7, 1.7e-6, 4.5e-6; float RK4
    // 4.1e-3, 2.8e-7, 2.9e-6, 1.4e-6 (float: rounding of the pose, not the scheme). Bounds ~3x.
    const bool euler = scheme == 0;
    EXPECT_LT(err, is_float ? (euler ? 8e-3 : 1.5e-2) : (euler ? 3e-3 : 3e-11));
    EXPECT_LT(rec.max_dev[0], is_float ? 2e-6 : (euler ? 1.5e-6 : 3e-11));
    EXPECT_LT(rec.max_dev[1], is_float ? 1e-5 : (euler ? 5e-6 : 6e-11));
    EXPECT_LT(rec.max_dev.template tail<3>().maxCoeff(), is_float ? 1.5e-5 : (euler ? 1.5e-5 : 4e-10));
  }
}

}  // namespace
