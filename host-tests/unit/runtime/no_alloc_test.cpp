// SPDX-License-Identifier: Apache-2.0
// The guard that the other suites rely on must itself catch allocations.
#include <gtest/gtest.h>

#include <Eigen/Core>

#include "no_alloc.hpp"

using attractor::test::NoAllocGuard;

TEST(NoAllocGuardDeathTest, CatchesOperatorNew) {
  EXPECT_DEATH(
      {
        NoAllocGuard guard;
        int* volatile p = new int(1);
        delete p;
      },
      "NoAllocGuard");
}

TEST(NoAllocGuardDeathTest, CatchesEigenDynamicAllocation) {
  EXPECT_DEATH(
      {
        NoAllocGuard guard;
        Eigen::MatrixXd m(8, 8);
        m.setZero();
      },
      "heap allocation is forbidden");
}

TEST(NoAllocGuard, AllowsFixedSizeWorkAndRestoresAfterwards) {
  const long before = attractor::test::allocation_count();
  {
    NoAllocGuard guard;
    Eigen::Matrix<double, 6, 6> a = Eigen::Matrix<double, 6, 6>::Identity();
    Eigen::Matrix<double, 6, 1> v = a * Eigen::Matrix<double, 6, 1>::Ones();
    EXPECT_EQ(v.sum(), 6.0);
  }
  EXPECT_EQ(attractor::test::allocation_count(), before);
  int* p = new int(2);  // allowed again
  EXPECT_EQ(*p, 2);
  delete p;
}
