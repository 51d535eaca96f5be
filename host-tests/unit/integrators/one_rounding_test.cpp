// SPDX-License-Identifier: Apache-2.0
// Every explicit scheme rounds the state once per step: the stages are summed at the size of the
// increments and the sum added to x once (stage_weights, integrate/butcher.hpp). On a constant
// field whose stage increments (h b_i) v are each below half a unit in the last place of x but
// whose sum is not, the step moves x; added to x stage by stage, each would be lost.
#include <gtest/gtest.h>

#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/stepper.hpp"
#include "no_alloc.hpp"
#include "three_eighths.hpp"

using namespace attractor;

namespace {

template <class S>
struct Drift {  // x' = v, constant
  using Scalar = S;
  static constexpr int N = 1;
  S v;
  Vec<S, 1> operator()(const Vec<S, 1>&) const { return Vec<S, 1>(v); }
};

// x = 1 and h v = 0.9 ulp(1): every built-in scheme's stage increments (at most h v / 2) are below
// half an ulp, the whole step is above it, so one rounding gives x = 1 + ulp(1).
template <class S>
void expect_one_ulp_per_step(Scheme s) {
  const S ulp = std::nextafter(S(1), S(2)) - S(1);
  const S h = S(1e-3);
  const Drift<S> f{S(0.9) * ulp / h};
  Vec<S, 1> x(S(1));
  {
    test::NoAllocGuard guard;
    for (int k = 0; k < 10; ++k) step(s, f, x, h);
  }
  EXPECT_EQ(x[0], S(1) + S(10) * ulp) << to_string(s);
}

template <class T>
class OneRounding : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(OneRounding, Scalars);

TYPED_TEST(OneRounding, IncrementsBelowHalfAnUlpAddUpInEveryScheme) {
  for (Scheme s : {Scheme::euler, Scheme::heun, Scheme::rk4}) expect_one_ulp_per_step<TypeParam>(s);
}

TYPED_TEST(OneRounding, UserTableauAndStepperToo) {
  using S = TypeParam;
  // The 3/8 rule: b = (1, 3, 3, 1)/8, each stage's share at most 3/8 of the step.
  constexpr ButcherTableau<S, 4> three_eighths = test::three_eighths_tableau<S>();
  constexpr StageWeights<S, 4> c = stage_weights(three_eighths);
  EXPECT_EQ(c.scale, S(1) / S(8));
  EXPECT_EQ(c.w[1], S(3));
  const S ulp = std::nextafter(S(1), S(2)) - S(1);
  const S h = S(1e-3);
  const Drift<S> f{S(0.9) * ulp / h};
  Vec<S, 1> a(S(1)), b(S(1));
  auto stepper = explicit_stepper(three_eighths, f);
  for (int k = 0; k < 10; ++k) {
    explicit_rk_step(three_eighths, f, a, h);
    ASSERT_EQ(step(stepper, b, h), Error::none);
  }
  EXPECT_EQ(a[0], S(1) + S(10) * ulp);
  EXPECT_EQ(b[0], a[0]);
}

// Weights that do not give b back exactly fall back to the b_i themselves (scale 1); a tableau
// with no weight leaves x alone.
TEST(OneRounding, StageWeightsOfAwkwardTableaux) {
  constexpr ButcherTableau<float, 2> uneven{{{0.f, 0.f}, {0.7f, 0.f}}, {0.3f, 0.7f}, 2, 2.f};
  constexpr StageWeights<float, 2> c = stage_weights(uneven);
  const bool exact = (0.7f / 0.3f) * 0.3f == 0.7f;
  EXPECT_EQ(c.first, 0);
  EXPECT_EQ(c.scale, exact ? 0.3f : 1.f);
  EXPECT_EQ(c.w[1] * c.scale, 0.7f);
  // b = (1/3, 0.1): 0.1 / (1/3) * (1/3) is not 0.1 in float, so this one must take the fallback.
  constexpr ButcherTableau<float, 2> inexact{{{0.f, 0.f}, {1.f, 0.f}}, {1.f / 3.f, 0.1f}, 1, 2.f};
  ASSERT_NE((0.1f / (1.f / 3.f)) * (1.f / 3.f), 0.1f);
  constexpr StageWeights<float, 2> e = stage_weights(inexact);
  EXPECT_EQ(e.scale, 1.f);
  EXPECT_EQ(e.w[0], 1.f / 3.f);
  EXPECT_EQ(e.w[1], 0.1f);
  constexpr ButcherTableau<float, 2> late{{{0.f, 0.f}, {1.f, 0.f}}, {0.f, 0.5f}, 1, 2.f};
  constexpr StageWeights<float, 2> d = stage_weights(late);
  EXPECT_EQ(d.first, 1);
  EXPECT_EQ(d.w[1], 1.f);
  EXPECT_EQ(d.scale, 0.5f);
  constexpr ButcherTableau<float, 1> none{{{0.f}}, {0.f}, 0, 0.f};
  EXPECT_EQ(stage_weights(none).first, -1);
  Vec<float, 1> x(2.f);
  explicit_rk_step(none, Drift<float>{1.f}, x, 0.1f);
  EXPECT_EQ(x[0], 2.f);
  Vec<float, 1> y(1.f);
  explicit_rk_step(late, Drift<float>{2.f}, y, 0.25f);
  EXPECT_EQ(y[0], 1.25f);
}

}  // namespace
