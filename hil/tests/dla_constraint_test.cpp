// SPDX-License-Identifier: Apache-2.0
// --method dla-one-sided: the discrete Lagrange–d'Alembert method with its discrete constraint at
// q_k instead of the midpoint (paper 001's remark after Example 3), through attractor-sim's
// driver on Example 1's particle: it runs to the end, and its positions are first order where the
// midpoint constraint's are second order (against a fine nh-verlet run; the momenta of both are
// post-momenta, O(h) off the constraint, so the configuration is compared).
#include <gtest/gtest.h>

#include <cmath>

#include "../sim/nonholonomic_particle_entry.hpp"
#include "feedback_system_driver.hpp"

namespace {

using namespace attractor;
using sim::NonholonomicParticleEntry;

cli::FeedbackOutcome<6> particle_run(const char* method, double h) {
  cli::FeedbackInputs in = cli::feedback_defaults<NonholonomicParticleEntry>(method);
  in.measure_volume = false, in.h = h, in.T = 1, in.T_given = true;
  return cli::feedback_simulate<NonholonomicParticleEntry, double>(in);
}

TEST(DlaConstraint, OneSidedPositionsAreFirstOrderTheMidpointsSecond) {
  const Vec<double, 3> ref = particle_run("nh-verlet", 1e-4).r.last.head<3>();
  double err[2][2];  // [midpoint, one-sided][h = 0.02, 0.01]
  const char* methods[2] = {"dla", "dla-one-sided"};
  for (int m = 0; m < 2; ++m)
    for (int k = 0; k < 2; ++k) {
      const auto o = particle_run(methods[m], k == 0 ? 0.02 : 0.01);
      ASSERT_EQ(o.mon.stopped(), nullptr) << methods[m];
      err[m][k] = (o.r.last.head<3>() - ref).norm();
    }
  // Measured at h = 0.02, 0.01: midpoint 1.21e-5, 3.04e-6; one-sided 4.13e-3, 2.07e-3.
  const double mid_order = std::log2(err[0][0] / err[0][1]), one_order = std::log2(err[1][0] / err[1][1]);
  EXPECT_NEAR(mid_order, 2, 0.3);
  EXPECT_NEAR(one_order, 1, 0.3);
  EXPECT_GT(err[1][1], 10 * err[0][1]);
}

}  // namespace
