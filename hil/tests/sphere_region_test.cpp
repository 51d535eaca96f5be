// SPDX-License-Identifier: Apache-2.0
// The Chaplygin sphere's reachable region (hil/sim/chaplygin_sphere_region.hpp): its samples lie
// on the level set of |Γ|², H, K and |M|² through x0, they cover what a long accurate run meets
// (its largest h * stiffness is within the samples' largest), and check_step over them accepts
// the default gains with feedback RK4 while large gains stay refused (exit 3).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../sim/chaplygin_sphere_entry.hpp"
#include "feedback_system_driver.hpp"

namespace {

using namespace attractor;
using sim::ChaplyginSphereEntry;
using Sphere = ChaplyginSphere<double>;

Vec<double, 6> default_start() {
  Vec<double, 6> x;
  ChaplyginSphereEntry::default_x0(cli::Params(nullptr, nullptr, 0), x.data());
  return x;
}

TEST(SphereRegion, SamplesLieOnTheLevelSetOfAllFourIntegrals) {
  const Sphere sys = *Sphere::make();
  const Vec<double, 6> x0 = default_start();
  const Vec<double, 4> F0 = sys.invariants(x0);
  const auto region = sim::sphere_reachable_samples(sys, x0);
  int distinct = 0;
  for (const auto& x : region) {
    const Vec<double, 4> F = sys.invariants(x);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(F[i], i == 0 ? 1.0 : F0[i], 1e-9 * (1 + std::abs(F0[i]))) << i;
    distinct += (x - x0).norm() > 1e-12;
  }
  EXPECT_GT(distinct, 100);  // a real sampling, not x0 repeated (154 at the defaults)
}

TEST(SphereRegion, CoversTheStiffnessAlongAnAccurateRun) {
  const Sphere sys = *Sphere::make();
  const Vec<double, 6> x0 = default_start();
  const auto fb = *Feedback<Sphere>::make(sys, x0, Vec<double, 4>::Ones());
  double region_max = 0;
  for (const auto& x : sim::sphere_reachable_samples(sys, x0)) region_max = std::max(region_max, fb.stiffness(x));
  // plain RK4 at h = 1e-3 to t = 40 (twice the default T): invariants kept to ~1e-10
  Vec<double, 6> x = x0;
  double run_max = fb.stiffness(x);
  for (int k = 0; k < 40000; ++k) {
    rk4_step([&](const Vec<double, 6>& y) { return sys.field(y); }, x, 1e-3);
    run_max = std::max(run_max, fb.stiffness(x));
  }
  EXPECT_NEAR(sys.invariants(x)[3], sys.invariants(x0)[3], 1e-8);
  EXPECT_LE(run_max, region_max * 1.01);  // the grid's resolution
  EXPECT_GT(run_max, region_max * 0.5);   // and not a box far around it
  EXPECT_LT(1e-3 * region_max, real_stability_limit<double>(Scheme::rk4));
}

TEST(SphereRegion, DefaultGainsRunWithFeedbackRk4LargeGainsAreRefused) {
  cli::FeedbackInputs in = cli::feedback_defaults<ChaplyginSphereEntry>("feedback-rk4");
  in.measure_volume = false, in.T = 2, in.T_given = true;
  const auto o = cli::feedback_simulate<ChaplyginSphereEntry, double>(in);
  EXPECT_EQ(o.mon.stopped(), nullptr);
  EXPECT_LT(o.r.max_hs, 1.0);
  for (const double gain : {100.0, 1e4, 1e5}) {
    cli::FeedbackInputs big = in;
    for (double& k : big.gains.gains) k = gain;
    try {
      (void)cli::feedback_simulate<ChaplyginSphereEntry, double>(big);
      ADD_FAILURE() << "gains " << gain << " ran";
    } catch (const cli::Failure& f) {
      EXPECT_EQ(f.code, cli::exit_unstable) << gain;
    }
  }
}

}  // namespace
