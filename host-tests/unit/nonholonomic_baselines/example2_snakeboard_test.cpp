// SPDX-License-Identifier: Apache-2.0
// Paper 001 Example 2, the snakeboard under sinusoidal torques: both discrete methods against
// the continuous flow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "baselines_support.hpp"

using namespace attractor;
using namespace baselines_support;

namespace {

// Example 2: the snakeboard from rest under the sinusoidal torques (snakeboard.hpp's defaults):
// both methods against the continuous flow (second order), each keeps its constraint to
// rounding, the axle angle stays in its predicted band and the board moves off.
TEST(Example2Snakeboard, SinusoidalTorquesBothMethods) {
  using Model = SnakeboardModel<double>;
  const Model model{};
  const Vec<double, 10> x0 = Vec<double, 10>::Zero();
  const double T = 10;
  const Vec<double, 10> ref = reference_flow(model, x0, T, 10000);
  EXPECT_GT(ref.head<2>().norm(), 0.1);  // the board moved
  for (Method m : {Method::verlet, Method::dla}) {
    double prev = 0;
    for (int n : {500, 1000}) {
      Vec<double, 10> x = x0;
      double con = 0, phi_max = 0;
      auto go = [&](auto stepper) {
        for (int k = 0; k < n; ++k) {
          const Vec<double, 10> before = x;
          ASSERT_EQ(step(stepper, x, T / n), Error::none);
          phi_max = std::max(phi_max, std::abs(x[4]));
          if (m == Method::verlet) {
            con = std::max(con, (model.constraint_fields(x.head<5>()).transpose() * x.tail<5>()).norm());
          } else {  // μ(q̄)Δq = 0
            const Vec<double, 5> qb = 0.5 * (x.head<5>() + before.head<5>());
            const Mat<double, 5, 2> mu_t = model.mass(qb) * model.constraint_fields(qb);
            con = std::max(con, (mu_t.transpose() * (x.head<5>() - before.head<5>())).norm());
          }
        }
      };
      if (m == Method::dla)
        go(*DiscreteLagrangeDAlembert<Model>::make(model, x0));
      else
        go(*NonholonomicVerlet<Model>::make(model, x0));
      const double err = (x - ref).head<5>().norm();
      if (prev > 0) {
        EXPECT_NEAR(std::log2(prev / err), 2, 0.15) << int(m);
      }
      prev = err;
      EXPECT_LT(con, 1e-12) << int(m);
      EXPECT_LT(phi_max, 0.25 / (0.05 * 3.14159265358979 * 3.14159265358979) + 1e-3) << int(m);
    }
  }
}

}  // namespace
