// SPDX-License-Identifier: Apache-2.0
// One stepper call shape (integrate/stepper.hpp): explicit tableaux with and without feedback,
// RATTLE and the two splittings all step the spherical pendulum through step(stepper, x, h) ->
// Error, in float and double; a failed step is reported and leaves x unchanged. The System
// contract (integrate/system.hpp) is checked at compile time.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/rattle.hpp"
#include "attractor/integrate/splitting.hpp"
#include "attractor/integrate/stepper.hpp"
#include "attractor/integrate/system.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "no_alloc.hpp"
#include "paper002.hpp"

using namespace attractor;
using attractor::test::paper002_x0;

namespace {

// The contract, checked at compile time (each of these would be a readable static_assert
// failure inside Feedback<> or check_system<>()).
struct NoJacobian {
  using Scalar = double;
  static constexpr int N = 2, M = 1;
  Vec<double, 2> field(const Vec<double, 2>& x) const { return x; }
  Vec<double, 1> invariants(const Vec<double, 2>& x) const { return Vec<double, 1>(x[0]); }
};
static_assert(is_system_v<SphericalPendulum<float>>, "the spherical pendulum is a System");
static_assert(is_system_v<PendulumSkate<double>>, "the reduced skate is a System");
static_assert(is_system_v<PendulumSkateFull<double>>, "the full skate is a System");
static_assert(!is_system_v<NoJacobian>, "a System without invariants_jacobian is refused");
static_assert(!is_system_v<int>, "int is no System");

// The same loop for every method: n steps of h, returns max |f1 − 1| (|q| = l = 1), or NaN when
// a step reports an error.
template <class Stepper, class S>
double max_constraint_drift(Stepper& stepper, Vec<S, 6> x, S h, int n) {
  double worst = 0;
  test::NoAllocGuard guard;
  for (int k = 0; k < n; ++k) {
    if (step(stepper, x, h) != Error::none) return std::numeric_limits<double>::quiet_NaN();
    worst = std::max(worst, std::abs(double(x.template head<3>().squaredNorm()) - 1.0));
  }
  return worst;
}

template <class T>
class StepperTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(StepperTyped, Scalars);

// Every integrator through one call shape. Bounds: RATTLE and the splittings keep |q| = 1 to
// rounding; RK4 with feedback (gains 50) near it; plain RK4 on the extended field drifts more.
TYPED_TEST(StepperTyped, EveryIntegratorStepsThroughOneCallShape) {
  using S = TypeParam;
  using Sys = SphericalPendulum<S>;
  const Sys sys{};
  const Vec<S, 6> x0 = paper002_x0<S>();
  const S h = S(1e-3);
  const int n = 2000;
  const bool f = std::is_same<S, float>::value;
  auto fb = rk4(feedback(sys, x0, Vec<S, 4>::Constant(S(50))));
  auto plain = rk4(sys);
  SchemeStepper<Feedback<Sys>> heun_fb(Scheme::heun, feedback(sys, x0, Vec<S, 4>::Constant(S(50))));
  Rattle<Sys> rattle(sys, x0);
  LieTrotter<Sys> lt{sys};
  Strang<Sys> strang{sys};
  EXPECT_LT(max_constraint_drift(fb, x0, h, n), f ? 1e-5 : 1e-8);  // double measured 4.6e-9
  EXPECT_LT(max_constraint_drift(plain, x0, h, n), f ? 1e-4 : 1e-8);
  EXPECT_LT(max_constraint_drift(heun_fb, x0, h, n), f ? 1e-5 : 5e-6);  // double measured 1.7e-6
  EXPECT_LT(max_constraint_drift(rattle, x0, h, n), f ? 1e-6 : 1e-14);
  EXPECT_LT(max_constraint_drift(lt, x0, h, n), f ? 1e-5 : 1e-12);
  EXPECT_LT(max_constraint_drift(strang, x0, h, n), f ? 1e-5 : 1e-12);
}

// The stepper shape gives the same numbers as the primitives it wraps.
TEST(Stepper, SameNumbersAsThePrimitives) {
  using Sys = SphericalPendulum<double>;
  const Sys sys{};
  const auto fb = feedback(sys, paper002_x0<double>(), Vec<double, 4>::Constant(50.0));
  Vec<double, 6> a = paper002_x0<double>(), b = a, c = a, d = a, e = a;
  auto st = rk4(fb);
  Rattle<Sys> r(sys, c);
  Strang<Sys> sg{sys};
  for (int k = 0; k < 100; ++k) {
    rk4_step(fb, a, 1e-3);
    ASSERT_EQ(step(st, b, 1e-3), Error::none);
    ASSERT_EQ(r.step(1e-3), Error::none);
    strang_step(sys, e, 1e-3);
    ASSERT_EQ(step(sg, d, 1e-3), Error::none);
  }
  EXPECT_EQ(a, b);
  EXPECT_EQ(d, e);
  Rattle<Sys> r2(sys, c);
  for (int k = 0; k < 100; ++k) ASSERT_EQ(step(r2, c, 1e-3), Error::none);
  EXPECT_EQ(c, r.state());
}

// A step that produces NaN/Inf is reported and leaves x as it was.
struct BlowUp {
  using Scalar = double;
  static constexpr int N = 2;
  Vec<double, 2> operator()(const Vec<double, 2>& x) const {
    return Vec<double, 2>(x[0] * std::numeric_limits<double>::infinity(), x[1]);
  }
};

TEST(Stepper, NonFiniteStepIsReportedAndStateKept) {
  auto st = rk4(BlowUp{});
  Vec<double, 2> x(1.0, 2.0);
  const Vec<double, 2> before = x;
  EXPECT_EQ(step(st, x, 0.1), Error::non_finite);
  EXPECT_EQ(x, before);
}

// RATTLE in the stepper shape: a too-large h is Error::singular with x unchanged; a state set by
// the caller restarts the method there.
TEST(Stepper, RattleRefusesAndRestarts) {
  using Sys = SphericalPendulum<double>;
  Rattle<Sys> r(Sys{}, paper002_x0<double>());
  Vec<double, 6> x = paper002_x0<double>();
  EXPECT_EQ(step(r, x, 10.0), Error::singular);
  EXPECT_EQ(x, paper002_x0<double>());
  Vec<double, 6> y = SphericalPendulum<double>::state(Vec3<double>(1, 0, 0), Vec3<double>(0, 0.5, 0));
  ASSERT_EQ(step(r, y, 1e-3), Error::none);
  Rattle<Sys> fresh(Sys{}, SphericalPendulum<double>::state(Vec3<double>(1, 0, 0), Vec3<double>(0, 0.5, 0)));
  ASSERT_EQ(fresh.step(1e-3), Error::none);
  EXPECT_EQ(y, fresh.state());
}

}  // namespace
