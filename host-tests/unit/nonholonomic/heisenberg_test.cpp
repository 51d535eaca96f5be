// SPDX-License-Identifier: Apache-2.0
// Heisenberg system (paper 000 §3.6): the closed form (67) against the cotangent adapter with the
// non-normalised constraint e = (−y, x, 1) (Remark 2.4), first integrals and Jacobian, and a
// documented case (§3.6 leaves the simulation to the reader): Euler and RK4, h = 1e-3, gains
// (10, 10, 50), t ∈ [0, 5], against the exact solution q0 + p0 t, in float and double. The level
// set is not compact: |∇J1|² ≈ |q|² grows with t, so a fixed gain turns the feedback term
// unstable once h K |q|² passes the scheme's limit (asserted through check_step).
#include <gtest/gtest.h>

#include <random>

#include "attractor/core/documented.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/nonholonomic/cotangent_extension.hpp"
#include "attractor/systems/heisenberg.hpp"
#include "no_alloc.hpp"
#include "nonholonomic_checks.hpp"

using namespace attractor;
using namespace attractor::test;

namespace {

// The same system as a cotangent model: m = I, V = 0, e = (−y, x, 1).
struct HeisenbergModel {
  using Scalar = double;
  static constexpr int Q = 3, K = 1;
  Mat3<double> mass(const Vec3<double>&) const { return Mat3<double>::Identity(); }
  Mat3<double> inverse_mass(const Vec3<double>&) const { return Mat3<double>::Identity(); }
  Vec3<double> kinetic_gradient(const Vec3<double>&, const Vec3<double>&) const { return Vec3<double>::Zero(); }
  double potential(const Vec3<double>&) const { return 0; }
  Vec3<double> potential_gradient(const Vec3<double>&) const { return Vec3<double>::Zero(); }
  Mat<double, 3, 1> constraint_fields(const Vec3<double>& q) const { return Vec3<double>(-q[1], q[0], 1); }
  Mat3<double> constraint_derivative(const Vec3<double>&, int) const {
    Mat3<double> De = Mat3<double>::Zero();
    De(0, 1) = -1;
    De(1, 0) = 1;
    return De;
  }
};

TEST(Heisenberg, ClosedFormMatchesTheAdapterOnTheConstraintSet) {
  const CotangentExtension<HeisenbergModel> ext;
  const Heisenberg<double> sys;
  std::mt19937 rng(41);
  for (int trial = 0; trial < 20; ++trial) {
    const auto x = cotangent_on_constraint(ext, rng);
    EXPECT_NEAR(sys.invariants(x)[0], 0, 1e-14);
    EXPECT_NEAR((ext.field(x) - sys.field(x)).norm(), 0, 1e-14);
    EXPECT_NEAR(ext.multipliers(ext.terms(x), x)[0], 0, 1e-14);  // λ = 0 (§3.6)
    const auto y = random_vector<double, 6>(rng);
    EXPECT_NEAR(ext.invariants(y)[0], sys.invariants(y)[0], 1e-14);
    EXPECT_LT(jacobian_error(sys, y), 1e-8);
    EXPECT_LT(jacobian_error(ext, y), 1e-8);
    EXPECT_LT(first_integral_residual(sys, y), 1e-14);  // everywhere, (67)
  }
}

template <class T>
class HeisenbergTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HeisenbergTyped, Scalars);

TYPED_TEST(HeisenbergTyped, DocumentedCaseTracksTheExactSolution) {
  using S = TypeParam;
  Vec<S, 6> x0 = documented_x0<S, HeisenbergFacts>();
  x0[5] = -(x0[0] * x0[4] - x0[1] * x0[3]);  // J1 = 0 in S
  const Heisenberg<S> sys;
  const auto fb = *Feedback<Heisenberg<S>>::make(sys, x0, documented_gains<S, HeisenbergFacts>());
  const bool is_float = std::is_same<S, float>::value;
  // At t = 20 gains of 50 on J1 and J2 are past Euler's limit (h·stiffness ≥ 2); at t = 5 not.
  const auto far = Heisenberg<S>::exact_state(x0, S(20));
  const auto fb50 = *Feedback<Heisenberg<S>>::make(sys, x0, Vec<S, 3>::Constant(S(50)));
  EXPECT_EQ(fb50.check_step(Scheme::euler, S(1e-3), far), Error::outside_stability_range);
  EXPECT_EQ(fb.check_step(Scheme::euler, S(1e-3), Heisenberg<S>::exact_state(x0, S(5))), Error::none);
  for (int scheme = 0; scheme < 2; ++scheme) {
    auto x = x0;
    RunRecord<3> rec;
    {
      NoAllocGuard guard;
      rec = scheme == 0 ? run_feedback(fb, x, S(1e-3), 5000, EulerStep{}, NoEach{})
                        : run_feedback(fb, x, S(1e-3), 5000, Rk4Step{}, NoEach{});
    }
    ASSERT_TRUE(rec.finite);
    const double err =
        (x.template cast<double>() - Heisenberg<double>::exact_state(x0.template cast<double>(), 5.0)).norm();
    // Measured |x(5) − exact|, J1, J2, H — double Euler 2.5e-13, 2.6e-15, 2.6e-15, 6.7e-16; RK4
    // 4.1e-13, 7.3e-15, 7.3e-15, 2.0e-15; float Euler 8.2e-5, 1.5e-6, 1.5e-6, 3.6e-7; RK4 2.1e-4,
    // 1.6e-6, 1.6e-6, 1.1e-6 (Euler and RK4 are exact for this linear field: only rounding).
    EXPECT_LT(err, is_float ? 1e-3 : 2e-12);
    EXPECT_LT(rec.max_dev[0], is_float ? 6e-6 : 3e-14);
    EXPECT_LT(rec.max_dev[1], is_float ? 6e-6 : 3e-14);
    EXPECT_LT(rec.max_dev[2], is_float ? 4e-6 : 1e-14);
  }
}

}  // namespace
