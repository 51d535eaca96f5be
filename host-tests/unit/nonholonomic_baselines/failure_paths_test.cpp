// SPDX-License-Identifier: Apache-2.0
// The discrete nonholonomic integrators' failure paths: an unconverged solve, bad input at make,
// dependent constraints, an exactly singular constraint matrix, and a step from a state other
// than the last one returned.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "baselines_support.hpp"

using namespace attractor;
using namespace baselines_support;

namespace {

// The failure paths: a sweep count too small for a varying mass at a large h is Error::singular
// with the state kept; bad input at make; dependent constraints (the snakeboard at φ = π/2).
TEST(DiscreteIntegrators, UnconvergedSolveAndBadInputAreErrors) {
  const Vec<double, 6> x0 = sleigh_x0();
  {
    auto d = *DiscreteLagrangeDAlembert<SleighModel>::make(sleigh_model(), x0, 0, 2);
    Vec<double, 6> x = x0;
    EXPECT_EQ(step(d, x, 0.1), Error::singular);
    EXPECT_EQ(x, x0);
    auto ok = *DiscreteLagrangeDAlembert<SleighModel>::make(sleigh_model(), x0);
    EXPECT_EQ(step(ok, x, 0.1), Error::none);
  }
  {
    auto v = *NonholonomicVerlet<SleighModel>::make(sleigh_model(), x0,
                                                    NonholonomicVerlet<SleighModel>::Start::consistent, 0, 2);
    Vec<double, 6> x = x0;
    const Vec<double, 6> held = v.state();
    EXPECT_EQ(step(v, x, 0.1), Error::singular);
    EXPECT_EQ(x, held);
  }
  Vec<double, 6> bad = x0;
  bad[4] = std::nan("");
  EXPECT_EQ(NonholonomicVerlet<SleighModel>::make(sleigh_model(), bad).error(), Error::non_finite);
  EXPECT_EQ(DiscreteLagrangeDAlembert<SleighModel>::make(sleigh_model(), bad).error(), Error::non_finite);
  EXPECT_EQ(DiscreteLagrangeDAlembert<SleighModel>::make(sleigh_model(), x0, 0, 0).error(), Error::invalid_parameter);
  EXPECT_EQ(
      NonholonomicVerlet<SleighModel>::make(sleigh_model(), x0, NonholonomicVerlet<SleighModel>::Start::remark5, 0, 0)
          .error(),
      Error::invalid_parameter);
  Vec<double, 10> folded = Vec<double, 10>::Zero();
  folded[4] = 1.5707963267948966;
  EXPECT_EQ(NonholonomicVerlet<SnakeboardModel<double>>::make(SnakeboardModel<double>{}, folded).error(),
            Error::singular);
  auto d = *DiscreteLagrangeDAlembert<SnakeboardModel<double>>::make(SnakeboardModel<double>{}, folded);
  EXPECT_EQ(step(d, folded, 0.01), Error::singular);
  EXPECT_EQ(Snakeboard<double>::make(SnakeboardParams<double>{1, 1, 1, -1}).error(), Error::invalid_parameter);
}

// An exactly singular E(q̄)ᵀ mE_k: a test-local model on R² whose one constraint field turns from
// (1, 1) to (1, −1) at q₁ = 1/4, with m = [[2, −1], [−1, 2]] (so mE = m(1, 1) = (1, 1) and
// E(q̄)ᵀ mE_k = 0 exactly once the first sweep's midpoint crosses). Only the DLA solve is run on
// it (the field's jump makes it no physical system).
struct TurningConstraintModel {
  using Scalar = double;
  static constexpr int Q = 2, K = 1;
  static constexpr bool constant_mass = true;
  Mat<double, 2, 2> mass(const Vec<double, 2>&) const { return (Mat<double, 2, 2>() << 2, -1, -1, 2).finished(); }
  Mat<double, 2, 2> inverse_mass(const Vec<double, 2>&) const {
    return (Mat<double, 2, 2>() << 2, 1, 1, 2).finished() / 3;
  }
  Vec<double, 2> kinetic_gradient(const Vec<double, 2>&, const Vec<double, 2>&) const { return Vec<double, 2>::Zero(); }
  double potential(const Vec<double, 2>&) const { return 0; }
  Vec<double, 2> potential_gradient(const Vec<double, 2>&) const { return Vec<double, 2>::Zero(); }
  Mat<double, 2, 1> constraint_fields(const Vec<double, 2>& q) const { return Vec<double, 2>(1, q[0] < 0.25 ? 1 : -1); }
  Mat<double, 2, 2> constraint_derivative(const Vec<double, 2>&, int) const { return Mat<double, 2, 2>::Zero(); }
};

// An exactly singular K×K matrix in a sweep is Error::singular with the state kept. Without the
// check its infinite multiplier sends the next sweep's midpoint to −∞, where the field is (1, 1)
// again, and the later sweeps converge to a step the first sweep never justified.
TEST(DiscreteIntegrators, ExactlySingularConstraintMatrixIsSingular) {
  const Vec<double, 4> x0(0, 0, 1, 0);  // v = m⁻¹p = (2/3, 1/3): q̄₁ = h/3 ≥ 1/4 for h = 1
  auto d = *DiscreteLagrangeDAlembert<TurningConstraintModel>::make(TurningConstraintModel{}, x0);
  Vec<double, 4> x = x0;
  EXPECT_EQ(step(d, x, 1.0), Error::singular);
  EXPECT_EQ(x, x0);
  EXPECT_EQ(d.state(), x0);
  EXPECT_EQ(d.time(), 0.0);
  // A step whose midpoint stays before the turn is an ordinary one (the model itself is valid).
  EXPECT_EQ(step(d, x, 0.5), Error::none);
  EXPECT_NEAR(x[0] + x[1], 0, 1e-15);  // the discrete constraint (1, 1)·Δq = 0
}

// A step from a state other than the one the last step returned (the caller moved it, e.g. back
// to the start) restarts there: it gives what a fresh integrator made at that state gives.
template <class Integrator, class... Extra>
void expect_restart_on_another_state(Extra... extra) {
  const Vec<double, 6> x0 = sleigh_x0();
  auto moved = *Integrator::make(sleigh_model(), x0, extra...);
  Vec<double, 6> x = x0;
  ASSERT_EQ(step(moved, x, 0.05), Error::none);
  x = x0;
  ASSERT_EQ(step(moved, x, 0.05), Error::none);
  auto fresh = *Integrator::make(sleigh_model(), x0, extra...);
  Vec<double, 6> y = x0;
  ASSERT_EQ(step(fresh, y, 0.05), Error::none);
  EXPECT_LT((x - y).norm(), 1e-12);
}

TEST(DiscreteIntegrators, AStepFromAnotherStateRestartsThere) {
  expect_restart_on_another_state<NonholonomicVerlet<SleighModel>>();
  expect_restart_on_another_state<NonholonomicVerlet<SleighModel>>(NonholonomicVerlet<SleighModel>::Start::remark5);
  expect_restart_on_another_state<DiscreteLagrangeDAlembert<SleighModel>>();
}

}  // namespace
