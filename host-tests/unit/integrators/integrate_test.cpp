// SPDX-License-Identifier: Apache-2.0
// Fixed-step schemes and the feedback wrapper, float and double, with allocation forbidden.
#include <gtest/gtest.h>

#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "no_alloc.hpp"
#include "three_eighths.hpp"

using namespace attractor;

namespace {

template <class S>
struct Oscillator {  // (q, v)' = (v, -q); exact solution (cos t, -sin t)
  Vec<S, 2> operator()(const Vec<S, 2>& x) const { return Vec<S, 2>(x[1], -x[0]); }
};

template <class S>
double global_error(Scheme s, int steps, S T) {
  Vec<S, 2> x(S(1), S(0));
  const S h = T / S(steps);
  test::NoAllocGuard guard;
  for (int k = 0; k < steps; ++k) step(s, Oscillator<S>{}, x, h);
  return std::hypot(double(x[0]) - std::cos(double(T)), double(x[1]) + std::sin(double(T)));
}

// A planar rotation written as a "system" with one invariant, |x|^2, for the wrapper:
// the extension X(x) = (x2, -x1) preserves it exactly; Euler alone does not.
template <class S>
struct Circle {
  using Scalar = S;
  static constexpr int N = 2;
  static constexpr int M = 1;
  Vec<S, 2> field(const Vec<S, 2>& x) const { return Vec<S, 2>(x[1], -x[0]); }
  Vec<S, 1> invariants(const Vec<S, 2>& x) const { return Vec<S, 1>(x.squaredNorm()); }
  Mat<S, 1, 2> invariants_jacobian(const Vec<S, 2>& x) const { return S(2) * x.transpose(); }
};

template <class T>
class SchemeTest : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SchemeTest, Scalars);

TYPED_TEST(SchemeTest, ObservedOrderMatchesTableau) {
  using S = TypeParam;
  const int coarse = std::is_same<S, float>::value ? 8 : 32;
  for (Scheme s : {Scheme::euler, Scheme::heun, Scheme::rk4}) {
    const double e1 = global_error<S>(s, coarse, S(2));
    const double e2 = global_error<S>(s, 2 * coarse, S(2));
    EXPECT_NEAR(std::log2(e1 / e2), order(s), 0.3) << to_string(s);
  }
}

TYPED_TEST(SchemeTest, GenericTableauEqualsNamedStep) {
  using S = TypeParam;
  // A user-written tableau (the 3/8 rule) runs through the same generic stepper.
  constexpr ButcherTableau<S, 4> three_eighths = test::three_eighths_tableau<S>();
  Vec<S, 2> a(S(1), S(0)), b(S(1), S(0));
  for (int k = 0; k < 20; ++k) {
    explicit_rk_step(three_eighths, Oscillator<S>{}, a, S(0.1));
    rk4_step(Oscillator<S>{}, b, S(0.1));
  }
  // Both order 4, different error constants: close, not equal.
  EXPECT_NEAR(double(a[0]), double(b[0]), 1e-5);
  EXPECT_NEAR(double(a[0]), std::cos(2.0), 1e-5);
}

TYPED_TEST(SchemeTest, FeedbackKeepsInvariantWhereEulerDrifts) {
  using S = TypeParam;
  const Vec<S, 2> x0(S(1), S(0));
  auto fb = Feedback<Circle<S>>::make(Circle<S>{}, x0, Vec<S, 1>(S(10)));
  ASSERT_TRUE(fb.ok());
  Vec<S, 2> plain = x0, with = x0;
  const S h = S(1e-2);
  {
    test::NoAllocGuard guard;
    for (int k = 0; k < 2000; ++k) {
      euler_step([](const Vec<S, 2>& x) { return Circle<S>{}.field(x); }, plain, h);
      euler_step(*fb, with, h);
    }
  }
  // Plain Euler grows |x|^2 by (1+h^2)^k = e^0.2; the feedback field holds it near 1.
  EXPECT_GT(double(plain.squaredNorm()) - 1.0, 0.2);
  EXPECT_LT(std::fabs(double(with.squaredNorm()) - 1.0), 2e-3);
  EXPECT_LT(double(fb->lyapunov(with)), 1e-5);
}

TEST(Feedback, RejectsBadGainsAndUnstableSteps) {
  using S = double;
  const Vec<S, 2> x0(1, 0);
  EXPECT_EQ(Feedback<Circle<S>>::make(Circle<S>{}, x0, Vec<S, 1>(-1)).error(), Error::invalid_parameter);
  EXPECT_EQ(Feedback<Circle<S>>::make(Circle<S>{}, x0, Vec<S, 1>(NAN)).error(), Error::non_finite);
  auto fb = Feedback<Circle<S>>::make(Circle<S>{}, x0, Vec<S, 1>(100));
  ASSERT_TRUE(fb.ok());
  // stiffness = k |grad|x|^2|^2 = 100 * 4 = 400: Euler needs h < 2/400.
  EXPECT_DOUBLE_EQ(fb->stiffness(x0), 400.0);
  EXPECT_EQ(fb->check_step(Scheme::euler, 4e-3, x0), Error::none);
  EXPECT_EQ(fb->check_step(Scheme::euler, 6e-3, x0), Error::outside_stability_range);
  EXPECT_EQ(fb->check_step(Scheme::rk4, 6e-3, x0), Error::none);
  EXPECT_EQ(fb->check_step(Scheme::rk4, -1.0, x0), Error::invalid_parameter);
  // And the refusal is right: from off the invariant set, Euler at h = 4e-3 is pulled back,
  // at h = 6e-3 it is not (it settles on a period-2 orbit around the set instead).
  Vec<S, 2> good(1.1, 0), bad(1.1, 0);
  for (int k = 0; k < 400; ++k) {
    euler_step(*fb, good, 4e-3);
    euler_step(*fb, bad, 6e-3);
  }
  EXPECT_LT(std::fabs(good.squaredNorm() - 1.0), 1e-3);
  EXPECT_GT(std::fabs(bad.squaredNorm() - 1.0), 0.1);
}

}  // namespace

// A system handed to a step driver is integrated with its own field(): the same step, to the
// last bit, as a lambda that calls it (butcher.hpp detail::evaluate_field).
TEST(Integrate, SystemIsItsOwnField) {
  const Circle<double> sys{};
  for (Scheme s : {Scheme::euler, Scheme::heun, Scheme::rk4}) {
    Vec<double, 2> a(0.6, -0.8), b = a;
    for (int k = 0; k < 10; ++k) {
      step(s, sys, a, 0.1);
      step(
          s, [&sys](const Vec<double, 2>& x) { return sys.field(x); }, b, 0.1);
    }
    EXPECT_EQ(a, b) << to_string(s);
    EXPECT_NE(a[0], 0.6) << to_string(s);
  }
}
