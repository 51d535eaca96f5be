// SPDX-License-Identifier: Apache-2.0
// The optional System hooks of integrate/system.hpp: invariant_targets (the feedback reference
// pinned to exact values, not to F(x0) as rounded) and gain_group (rows that share one gain,
// balanced per group by balanced_gains).
#include <gtest/gtest.h>

#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "conformance.hpp"

namespace {

using namespace attractor;

// A rotation R = [[a, -b], [b, a]] stored as x = (a, b, c, d) in R^4 (the ambient 2x2 entries
// a, b, c, d of R = [[a, c], [b, d]]) turning at the constant rate w: R' = R w J. Invariants:
// the three entries of R^T R - I (one gain group, target 0) and det R = ad - bc (conserved,
// since R' = R A with tr A = 0; its own group, target: its value at x0).
template <class S>
struct Rotation2 {
  using Scalar = S;
  static constexpr int N = 4, M = 4;
  S w = S(1.5);
  Vec<S, 4> field(const Vec<S, 4>& x) const {  // R' = R [[0, -w], [w, 0]]
    return {x[2] * w, x[3] * w, -x[0] * w, -x[1] * w};
  }
  Vec<S, 4> invariants(const Vec<S, 4>& x) const {
    return {x[0] * x[0] + x[1] * x[1] - S(1), x[0] * x[2] + x[1] * x[3], x[2] * x[2] + x[3] * x[3] - S(1),
            x[0] * x[3] - x[1] * x[2]};
  }
  Mat<S, 4, 4> invariants_jacobian(const Vec<S, 4>& x) const {
    Mat<S, 4, 4> J;
    J << S(2) * x[0], S(2) * x[1], S(0), S(0),  //
        x[2], x[3], x[0], x[1],                 //
        S(0), S(0), S(2) * x[2], S(2) * x[3],   //
        x[3], -x[2], -x[1], x[0];
    return J;
  }
  static constexpr int gain_group(int row) { return row < 3 ? 0 : 3; }
  Vec<S, 4> invariant_targets(const Vec<S, 4>& F_at_x0) const { return {S(0), S(0), S(0), F_at_x0[3]}; }
};

template <class S>
struct Rotation2NoHooksView {
  using Scalar = S;
  static constexpr int N = 4, M = 4;
  Rotation2<S> r;
  Vec<S, 4> field(const Vec<S, 4>& x) const { return r.field(x); }
  Vec<S, 4> invariants(const Vec<S, 4>& x) const { return r.invariants(x); }
  Mat<S, 4, 4> invariants_jacobian(const Vec<S, 4>& x) const { return r.invariants_jacobian(x); }
};

static_assert(has_gain_groups_v<Rotation2<float>> && has_invariant_targets_v<Rotation2<float>>);
static_assert(!has_gain_groups_v<Rotation2NoHooksView<float>> && !has_invariant_targets_v<Rotation2NoHooksView<float>>);
static_assert(gain_group_of<Rotation2NoHooksView<double>>(2) == 2 && gain_group_of<Rotation2<double>>(2) == 0);

TEST(FeedbackTargets, ReferenceIsTheTargetNotTheRoundedStart) {
  // A start off SO(2) by 1e-3: the reference must be 0 for the group rows, F(x0) for the rest.
  const Vec<float, 4> x0(1.001f, 0.f, 0.f, 1.f);
  const auto fb = Feedback<Rotation2<float>>::make(Rotation2<float>{}, x0, Vec<float, 4>::Constant(1.f));
  ASSERT_TRUE(fb);
  EXPECT_EQ(fb->reference()[0], 0.f);
  EXPECT_EQ(fb->reference()[1], 0.f);
  EXPECT_EQ(fb->reference()[2], 0.f);
  EXPECT_EQ(fb->reference()[3], 1.001f);
  EXPECT_EQ(feedback(Rotation2<float>{}, x0, Vec<float, 4>::Ones()).reference()[0], 0.f);
  // Without the hook the reference is F(x0).
  const auto plain =
      Feedback<Rotation2NoHooksView<float>>::make(Rotation2NoHooksView<float>{}, x0, Vec<float, 4>::Constant(1.f));
  EXPECT_NEAR(plain->reference()[0], 1.001f * 1.001f - 1.f, 1e-6f);
}

TEST(FeedbackTargets, FeedbackPullsAnOffConstraintStartOntoTheTarget) {
  // With the targets, a start off the group (det R = 1, R^T R = diag(1.01^2, 1.01^-2)) is pulled
  // to R^T R = I, not kept at its offset.
  const Vec<double, 4> x0(1.01, 0., 0., 1. / 1.01);
  const auto fb = *Feedback<Rotation2<double>>::make(Rotation2<double>{}, x0, Vec<double, 4>::Constant(5.));
  Vec<double, 4> x = x0;
  for (int k = 0; k < 2000; ++k) rk4_step(fb, x, 1e-3);
  const Vec<double, 4> F = Rotation2<double>{}.invariants(x);
  EXPECT_LT(std::abs(F[0]) + std::abs(F[1]) + std::abs(F[2]), 1e-6);
  // Without the target the same run keeps the offset of the start.
  Vec<double, 4> y = x0;
  const Rotation2NoHooksView<double> plain{};
  const auto fp = *Feedback<Rotation2NoHooksView<double>>::make(plain, x0, Vec<double, 4>::Constant(5.));
  for (int k = 0; k < 2000; ++k) rk4_step(fp, y, 1e-3);
  EXPECT_GT(std::abs(plain.invariants(y)[0]), 1e-2);
}

TEST(FeedbackTargets, BalancedGainsGiveOneGainPerGroup) {
  const Rotation2<double> sys;
  const Vec<double, 4> samples[2] = {Vec<double, 4>(1, 0, 0, 1), Vec<double, 4>(0.6, 0.8, -0.8, 0.6)};
  const Vec<double, 4> K = balanced_gains(sys, samples, 2.0);
  EXPECT_EQ(K[0], K[1]);
  EXPECT_EQ(K[1], K[2]);
  // Group 0: |grad|^2 sums to 4 + 2 + 4 = 10 on SO(2), three rows: K = 2 * 3 / 10.
  EXPECT_NEAR(K[0], 0.6, 1e-12);
  EXPECT_NEAR(K[3], 1.0, 1e-12);  // its own group, |grad det|^2 = |R|^2 = 2
  // The stiffness bound of the rule: stiffness <= M * rate on the samples.
  const auto fb = feedback(sys, samples[0], K);
  for (const auto& x : samples) EXPECT_LE(fb.stiffness(x), 4 * 2.0 * (1 + 1e-12));
  // Without groups each row is balanced alone: K_i = rate / |grad F_i|^2.
  const Vec<double, 4> Ki = balanced_gains(Rotation2NoHooksView<double>{}, samples, 2.0);
  EXPECT_NEAR(Ki[0], 0.5, 1e-12);
  EXPECT_NEAR(Ki[1], 1.0, 1e-12);
  EXPECT_NEAR(Ki[2], 0.5, 1e-12);
  EXPECT_NEAR(Ki[3], 1.0, 1e-12);
}

// balanced_gains takes each group's largest gradient over the samples wherever it lies (first
// here, the smallest last), so that stiffness <= M rate holds on every sample; a group whose
// gradient vanishes on every sample gets the rate itself.
TEST(FeedbackTargets, BalancedGainsUseTheLargestSampleWhereverItIs) {
  const Rotation2NoHooksView<double> sys{};
  const Vec<double, 4> samples[3] = {Vec<double, 4>(3, 0, 0, 3), Vec<double, 4>(1, 0, 0, 1),
                                     Vec<double, 4>(0.5, 0, 0, 0.5)};
  const Vec<double, 4> K = balanced_gains(sys, samples, 2.0);
  EXPECT_NEAR(K[0], 2.0 / 36, 1e-15);  // |grad (a² + b² − 1)|² = 4 a², largest at a = 3
  EXPECT_NEAR(K[3], 2.0 / 18, 1e-15);  // |grad det|² = |x|², largest at the first sample
  const auto fb = feedback(sys, samples[1], K);
  for (const auto& x : samples) EXPECT_LE(fb.stiffness(x), 4 * 2.0 * (1 + 1e-12));
  const Vec<double, 4> none[1] = {Vec<double, 4>::Zero()};
  EXPECT_EQ(balanced_gains(sys, none, 2.0), (Vec<double, 4>::Constant(2.0)));
}

}  // namespace

// The conformance harness on a system with a gain group: on SO(2) (the group's target set) every
// row's rate vanishes, at any turning rate.
namespace attractor::test {
template <class S>
struct Conformance<Rotation2<S>> : ConformanceDefaults {
  static Rotation2<S> make(std::mt19937& rng) {
    Rotation2<S> r;
    r.w = S(std::uniform_real_distribution<double>(-3.0, 3.0)(rng));
    return r;
  }
  static Vec<double, 4> sample(std::mt19937& rng, const Rotation2<S>&) {
    const double th = std::uniform_real_distribution<double>(-3.2, 3.2)(rng);
    return Vec<double, 4>(std::cos(th), std::sin(th), -std::sin(th), std::cos(th));
  }
};
}  // namespace attractor::test

ATTRACTOR_CONFORMANCE(Rotation2Conformance, Rotation2);
