// SPDX-License-Identifier: Apache-2.0
// --keep-start: the feedback integrator's own experiment, a start off the constraint set (paper
// 000 §3.6 with p_z + 0.01, §3.4 with Π0 perturbed). The constraint rows are pulled back to
// their exact targets. Along the feedback field x' = X - DFᵀK(F - F*) the invariants' errors
// e = F - F* obey ė = -DF DFᵀ K e exactly (DF X = 0: first integrals of X), so the pull-back
// rate is the one the gains give through the Gram matrix DF DFᵀ; the plain method keeps the
// perturbation (it is a first integral of X).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../sim/heisenberg_entry.hpp"
#include "../sim/rolling_disk_entry.hpp"
#include "feedback_system_driver.hpp"

namespace {

using namespace attractor;
using sim::HeisenbergEntry;
using sim::RollingDiskEntry;

cli::FeedbackInputs heisenberg_off_set(const char* method, double T) {
  cli::FeedbackInputs in = cli::feedback_defaults<HeisenbergEntry>(method);
  in.x0[5] += 0.01;  // p_z + 0.01: J1 = 0.01
  in.kept_off_set = true, in.measure_volume = false;
  in.T = T, in.T_given = true;
  return in;
}

// |J1(t)| by ė = -G(x(t)) K e along the unperturbed motion q0 + p0 t (RK4, fine step).
double predicted_j1(const cli::FeedbackInputs& in, double T) {
  const Heisenberg<double> sys;
  Vec<double, 6> x0;
  for (int i = 0; i < 6; ++i) x0[i] = in.x0[std::size_t(i)];
  const Vec3<double> K(in.gains.gains[0], in.gains.gains[1], in.gains.gains[2]);
  const Vec3<double> target = sys.invariant_targets(sys.invariants(x0));
  Vec3<double> e = sys.invariants(x0) - target;
  const int n = 20000;
  const double dt = T / n;
  auto rate = [&](double t, const Vec3<double>& v) {
    const Mat<double, 3, 6> J = sys.invariants_jacobian(Heisenberg<double>::exact_state(x0, t));
    return Vec3<double>(-(J * J.transpose()) * K.cwiseProduct(v));
  };
  for (int k = 0; k < n; ++k) {
    const double t = k * dt;
    const Vec3<double> k1 = rate(t, e), k2 = rate(t + dt / 2, e + dt / 2 * k1), k3 = rate(t + dt / 2, e + dt / 2 * k2),
                       k4 = rate(t + dt, e + dt * k3);
    e += dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return std::abs(e[0]);
}

TEST(KeptStart, HeisenbergPullsJ1BackAtTheRateTheGainsGive) {
  // Early only: the prediction follows the unperturbed q0 + p0 t, and the pull-back changes p by
  // O(0.01), which moves q (by t = 3 the prediction is 17% off the slow mode's value).
  for (const double T : {0.1, 0.3}) {
    const cli::FeedbackInputs in = heisenberg_off_set("feedback-rk4", T);
    const auto o = cli::feedback_simulate<HeisenbergEntry, double>(in);
    EXPECT_NEAR(o.r.pullback_initial, 0.01, 1e-15);
    const double predicted = predicted_j1(in, T);
    EXPECT_LT(predicted, 0.01 * std::exp(-1.0)) << T;  // a real decay, not a wobble
    EXPECT_NEAR(o.r.pullback_final / predicted, 1, 0.02) << T;
    EXPECT_NEAR(o.mon.final_abs(0), o.r.pullback_final, 1e-18);  // the J1 row is measured from 0
  }
}

TEST(KeptStart, HeisenbergSettlesBelowTheToleranceAndStays) {
  for (const char* method : {"feedback-euler", "feedback-rk4"}) {
    cli::FeedbackInputs in = heisenberg_off_set(method, 5);
    in.pullback_tol = 1e-8;
    const auto o = cli::feedback_simulate<HeisenbergEntry, double>(in);
    EXPECT_EQ(o.mon.stopped(), nullptr) << method;
    EXPECT_LT(o.r.pullback_final, 2e-9) << method;
    ASSERT_TRUE(std::isfinite(o.r.pullback_time)) << method;
    // 0.01 -> 1e-8 along the slow mode of -DF DFᵀ K (measured t = 4.36 with either scheme)
    EXPECT_GT(o.r.pullback_time, 3.5) << method;
    EXPECT_LT(o.r.pullback_time, 5.0) << method;
  }
  // float: pulled back to the float RK4 level (~2e-6 on this motion)
  const auto f = cli::feedback_simulate<HeisenbergEntry, float>(heisenberg_off_set("feedback-rk4", 5));
  EXPECT_LT(f.r.pullback_final, 1e-5);
}

TEST(KeptStart, ThePlainMethodKeepsThePerturbation) {
  const auto o = cli::feedback_simulate<HeisenbergEntry, double>(heisenberg_off_set("rk4", 5));
  EXPECT_NEAR(o.r.pullback_final, 0.01, 1e-12);
  EXPECT_TRUE(std::isnan(o.r.pullback_time));
}

TEST(KeptStart, RollingDiskWithPiPerturbedRollsAgain) {
  for (const char* method : {"feedback-euler", "feedback-rk4"}) {
    cli::FeedbackInputs in = cli::feedback_defaults<RollingDiskEntry>(method);
    in.x0[9] += 0.01;  // Pi_y: the disk slides sideways, J1 = Pi_y / sqrt(m) = 0.01
    in.kept_off_set = true, in.measure_volume = false;
    in.T = 5, in.T_given = true;
    const bool rk4 = std::string(method) == "feedback-rk4";
    in.pullback_tol = rk4 ? 1e-9 : 1e-5;  // feedback Euler holds R^T R - I at 7e-6 (h = 1e-3)
    const auto o = cli::feedback_simulate<RollingDiskEntry, double>(in);
    EXPECT_EQ(o.mon.stopped(), nullptr) << method;
    EXPECT_NEAR(o.r.pullback_initial, 0.01, 1e-12) << method;
    EXPECT_LT(o.mon.final_abs(0), 1e-12) << method;  // J1 itself: gone at the rate 50
    ASSERT_TRUE(std::isfinite(o.r.pullback_time)) << method;
    EXPECT_GT(o.r.pullback_time, 0.1) << method;  // measured 0.14 (Euler, 1e-5), 0.32 (RK4, 1e-9)
    EXPECT_LT(o.r.pullback_time, 1.0) << method;
  }
}

TEST(KeptStart, AStartOnTheSetIsBelowTheToleranceFromTheStart) {
  cli::FeedbackInputs in = cli::feedback_defaults<HeisenbergEntry>("feedback-rk4");
  in.kept_off_set = true, in.measure_volume = false, in.T = 0.1, in.T_given = true;
  const auto o = cli::feedback_simulate<HeisenbergEntry, double>(in);
  EXPECT_EQ(o.r.pullback_time, 0);
}

}  // namespace
