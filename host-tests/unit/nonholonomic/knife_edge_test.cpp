// SPDX-License-Identifier: Apache-2.0
// Knife edge on an inclined plane (paper 000 §3.2): the cotangent extension's first integrals and
// Jacobian, the closed-form solution verified against an accurate integration (the paper's
// printed one has misprints, knife_edge.hpp), and the paper's experiment (Euler, h = 1e-3,
// k = 1000, t ∈ [0, 200]) against it, in float and double.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "attractor/core/documented.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/knife_edge.hpp"
#include "no_alloc.hpp"
#include "nonholonomic_checks.hpp"

using namespace attractor;
using namespace attractor::test;

namespace {

template <class S>
Vec<S, 6> knife_paper_x0() {
  return documented_x0<S, KnifeEdgeFacts>();
}

TEST(KnifeEdge, ClosedFormSolvesTheEquations) {
  // The closed form against RK4 at h = 1e-4 of the plain extended field, for the paper's start and
  // for a general one (other parameters, moving start, turned blade).
  KnifeEdgeParams<double> other;
  other.mass = 2.5;
  other.inertia = 0.7;
  other.gravity = 9.81;
  other.inclination = 0.3;
  Vec<double, 6> xg;
  xg << 0.2, -0.4, 0.9, 1.3 * std::cos(0.9), 1.3 * std::sin(0.9), -0.6;  // on the constraint
  const std::pair<KnifeEdgeParams<double>, Vec<double, 6>> cases[] = {
      {KnifeEdgeParams<double>{}, knife_paper_x0<double>()}, {other, xg}};
  for (const auto& c : cases) {
    const auto sys = *KnifeEdge<double>::make(c.first);
    Vec<double, 6> x = c.second;
    for (int k = 1; k <= 50000; ++k) {
      rk4_step(sys, x, 1e-4);
      if (k % 10000 == 0) {
        EXPECT_LT((x - knife_edge_exact_state(sys, c.second, k * 1e-4)).norm(), 1e-9) << k;
      }
    }
  }
  // The paper's case: φ = t/2 and x = (1 − cos t)/2, y = (t − sin t)/2 (§3.2 prints φ = t and
  // x = 1 − cos t).
  const auto sys = *KnifeEdge<double>::make();
  for (double t : {0.7, 3.0, 11.0}) {
    const auto x = knife_edge_exact_state(sys, knife_paper_x0<double>(), t);
    EXPECT_NEAR(x[0], 0.5 * (1 - std::cos(t)), 1e-14);
    EXPECT_NEAR(x[1], 0.5 * (t - std::sin(t)), 1e-13);
    EXPECT_NEAR(x[2], 0.5 * t, 1e-15);
  }
  const auto F0 = sys.invariants(knife_paper_x0<double>());
  EXPECT_EQ(F0[0], 0.0);
  EXPECT_EQ(F0[1], 0.125);  // H̃(0) = H(0) = 0.125 as printed
  EXPECT_EQ(F0[2], 0.5);
}

template <class T>
class KnifeEdgeTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(KnifeEdgeTyped, Scalars);

TYPED_TEST(KnifeEdgeTyped, ExtendedFieldConservesItsInvariants) {
  using S = TypeParam;
  KnifeEdgeParams<S> prm;
  prm.mass = S(1.7);
  prm.inertia = S(0.6);
  prm.gravity = S(9.81);
  const auto sys = *KnifeEdge<S>::make(prm);
  const auto sysH = *KnifeEdge<S, EnergyRow::original>::make(prm);
  std::mt19937 rng(11);
  const double tol = std::is_same<S, float>::value ? 2e-6 : 1e-14;
  for (int trial = 0; trial < 50; ++trial) {
    const auto x = cotangent_on_constraint(sys, rng);
    EXPECT_LT(std::abs(double(sys.invariants(x)[0])), tol * 10);
    EXPECT_LT(first_integral_residual(sys, x), tol);
    EXPECT_LT(first_integral_residual(sysH, x), tol);
    // Off the constraint set J1 and H̃ (and H) stay first integrals (Theorem 2.2, Corollary 2.3);
    // J2 = pφ does not (knife_edge.hpp): ṗφ = u J1/√m there.
    const auto y = random_vector<S, 6>(rng);
    EXPECT_LT(first_integral_residual(sys, y, 0, 2), tol);
    EXPECT_LT(first_integral_residual(sysH, y, 0, 2), tol);
    const auto t = sys.terms(y);
    EXPECT_NEAR(double(sys.field(y)[5]),
                double(t.dHp[0] * std::cos(y[2]) + t.dHp[1] * std::sin(y[2])) * double(prm.mass) * double(t.c[0]) /
                    std::sqrt(double(prm.mass)),
                1e-5 * (1 + std::abs(double(sys.field(y)[5]))));
  }
}

TEST(KnifeEdge, JacobianAndPapersGradientsMatch) {
  KnifeEdgeParams<double> prm;
  prm.mass = 1.7;
  prm.inertia = 0.6;
  const auto sys = *KnifeEdge<double>::make(prm);
  const auto sysH = *KnifeEdge<double, EnergyRow::original>::make(prm);
  std::mt19937 rng(13);
  for (int trial = 0; trial < 20; ++trial) {
    const auto x = random_vector<double, 6>(rng);
    EXPECT_LT(jacobian_error(sys, x), 1e-8);
    EXPECT_LT(jacobian_error(sysH, x), 1e-8);
    // The paper's closed forms (§3.2, after eq. (44)): ∇_pH̃, λ̃ and H̃.
    const double m = prm.mass, J = prm.inertia, sa = std::sin(prm.inclination), c = std::cos(x[2]), s = std::sin(x[2]),
                 u = x[3] * c + x[4] * s;
    const auto t = sys.terms(x);
    EXPECT_NEAR((t.dHp - Vec3<double>(u * c / m, u * s / m, x[5] / J)).norm(), 0, 1e-14);
    EXPECT_NEAR(sys.multipliers(t, x)[0], (-m * prm.gravity * sa * s - x[5] * u / J) / std::sqrt(m), 1e-13);
    EXPECT_NEAR(t.H_ext, u * u / (2 * m) + x[5] * x[5] / (2 * J) - m * prm.gravity * x[0] * sa, 1e-13);
  }
  // The feedback's targets: the constraint row pulled to 0 (whatever the start), the energy and
  // the extra integral held at their start values.
  static_assert(KnifeEdge<double>::M == 3, "constraint, energy, extra integral");
  EXPECT_EQ(sys.invariant_targets(Vec3<double>(1, 2, 3)), Vec3<double>(0, 2, 3));
}

TEST(KnifeEdge, ValidateRejectsBadParameters) {
  KnifeEdgeParams<double> prm;
  prm.mass = 0;
  EXPECT_EQ(KnifeEdge<double>::make(prm).error(), Error::invalid_parameter);
  prm = {};
  prm.inertia = -1;
  EXPECT_EQ(KnifeEdge<double>::make(prm).error(), Error::invalid_parameter);
  prm = {};
  prm.inclination = INFINITY;
  EXPECT_EQ(KnifeEdge<double>::make(prm).error(), Error::non_finite);
}

// The facts name the parameter and the rule that refuse values; their defaults and the paper's
// case are accepted.
TEST(KnifeEdge, FactsNameTheRefusedParameterAndRule) {
  double v[] = {1, 1, 1, 0.5};
  EXPECT_FALSE(facts::check<KnifeEdgeFacts>(v));
  v[1] = 0;  // J
  facts::Refusal r = facts::check<KnifeEdgeFacts>(v);
  ASSERT_TRUE(r);
  EXPECT_EQ(r.param, 1);
  EXPECT_STREQ(KnifeEdgeFacts::params[r.param].name, "J");
  EXPECT_STREQ(r.rule, "must be positive");
  v[1] = 1, v[2] = -1;  // g
  EXPECT_STREQ(facts::check<KnifeEdgeFacts>(v).rule, "must not be negative");
  v[2] = 1;
  v[1] = 1, v[0] = -1, v[3] = NAN;  // a NaN is reported first, whatever its place
  r = facts::check<KnifeEdgeFacts>(v);
  EXPECT_EQ(r.param, 3);
  EXPECT_STREQ(r.rule, "must be finite");
  EXPECT_TRUE(r.non_finite);
  static_assert(KnifeEdgeFacts::documented.gain_of(2) == 1000 && KnifeEdgeFacts::documented.x0[5] == 0.5,
                "the paper's case (000 §3.2)");
}

// The paper's experiment: Euler, h = 1e-3, k1 = k2 = k3 = 1000, t ∈ [0, 200]; RK4 alongside over
// t ∈ [0, 50] (the suite's run time under ASan).
TYPED_TEST(KnifeEdgeTyped, PaperExperimentTracksTheExactSolution) {
  using S = TypeParam;
  const auto sys = *KnifeEdge<S>::make();
  const auto sysd = *KnifeEdge<double>::make();
  const auto x0 = knife_paper_x0<S>();
  constexpr facts::Case paper = KnifeEdgeFacts::documented;
  const auto fb = *Feedback<KnifeEdge<S>>::make(sys, x0, documented_gains<S, KnifeEdgeFacts>());
  const bool is_float = std::is_same<S, float>::value;
  for (int scheme = 0; scheme < 2; ++scheme) {
    auto x = x0;
    double worst_pos = 0, worst_H = 0;
    const auto each = [&](long k, const Vec<S, 6>& xs) {
      if (k % 100) return;
      const Vec<double, 6> ex = knife_edge_exact_state(sysd, knife_paper_x0<double>(), double(k) * paper.h);
      worst_pos = std::max(worst_pos, (xs.template head<3>().template cast<double>() - ex.head<3>()).norm());
      worst_H = std::max(worst_H, std::abs(sysd.energy(xs.template cast<double>()) - 0.125));
    };
    RunRecord<3> rec;
    {
      NoAllocGuard guard;
      rec = scheme == 0 ? run_feedback(fb, x, S(paper.h), long(paper.T / paper.h + 0.5), EulerStep{}, each)
                        : run_feedback(fb, x, S(paper.h), 50000, Rk4Step{}, each);
    }
    ASSERT_TRUE(rec.finite);
    // Measured |Δ(x, y, φ)|, J1, H, J2 — double Euler 1.2e-3, 2.5e-7, 5.0e-7, 2.5e-7; double RK4
    // 1.0e-8, 1.9e-8, 1.6e-8, 8.9e-9; float Euler 6.2e-2, 4.1e-6, 5.1e-7, 2.7e-7; float RK4
    // (t ≤ 50) 1.8e-2, 7.8e-7, 1.4e-7, 8.9e-8. The float position error is the rounding of φ (≈ 100 at t = 200,
    // ulp 7.6e-6, against increments of 5e-4 per step), not the scheme; its invariants hold.
    const bool euler = scheme == 0;
    EXPECT_LT(worst_pos, is_float ? (euler ? 0.2 : 6e-2) : (euler ? 4e-3 : 4e-8));
    EXPECT_LT(rec.max_dev[0], is_float ? (euler ? 1.5e-5 : 3e-6) : (euler ? 1e-6 : 8e-8));
    EXPECT_LT(worst_H, is_float ? (euler ? 2e-6 : 1e-6) : (euler ? 2e-6 : 6e-8));
    EXPECT_LT(rec.max_dev[2], is_float ? (euler ? 1e-6 : 4e-7) : (euler ? 1e-6 : 4e-8));
  }
}

}  // namespace
