// SPDX-License-Identifier: Apache-2.0
// --method nh-verlet-remark5: the nonholonomic Störmer–Verlet method from paper 001 Remark 5's
// start (multiplier 0) beside nh-verlet's consistent start (the continuous multiplier), on
// Example 1's particle (exact solution). Both keep p̃ on the constraint set to rounding (eq.
// (11e)) and are second order; Remark 5's start leaves the constraint force out of the first half
// kick, so its positions differ from the consistent start's by O(h²).
#include <gtest/gtest.h>

#include <cmath>

#include "../sim/nonholonomic_particle_entry.hpp"
#include "feedback_system_driver.hpp"

namespace {

using namespace attractor;
using cli::InvariantKind;
using sim::NonholonomicParticleEntry;

cli::FeedbackOutcome<6> particle(const char* method, double h) {
  cli::FeedbackInputs in = cli::feedback_defaults<NonholonomicParticleEntry>(method);
  in.measure_volume = false, in.h = h, in.T = 1, in.T_given = true;
  return cli::feedback_simulate<NonholonomicParticleEntry, double>(in);
}

TEST(VerletStart, BothStartsKeepTheConstraintAndAreSecondOrder) {
  for (const char* m : {"nh-verlet", "nh-verlet-remark5"}) {
    const auto coarse = particle(m, 0.02), fine = particle(m, 0.01);
    EXPECT_EQ(fine.mon.stopped(), nullptr) << m;
    EXPECT_LT(fine.mon.worst(InvariantKind::constraint), 1e-12) << m;
    const double order = std::log2(coarse.rep.exact_error / fine.rep.exact_error);
    EXPECT_GT(order, 1.7) << m;
    EXPECT_LT(order, 2.3) << m;
  }
}

TEST(VerletStart, RemarkFivesStartMovesThePositionsByOrderHSquared) {
  double gap[2];
  int k = 0;
  for (const double h : {0.02, 0.01}) {
    const auto a = particle("nh-verlet", h), b = particle("nh-verlet-remark5", h);
    gap[k++] = (a.r.last.head<3>() - b.r.last.head<3>()).norm();
  }
  EXPECT_GT(gap[1], 1e-9);  // another start, another run
  EXPECT_NEAR(gap[0] / gap[1], 4, 1);
}

}  // namespace
