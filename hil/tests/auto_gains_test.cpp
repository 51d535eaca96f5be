// SPDX-License-Identifier: Apache-2.0
// --gains auto (hil/cli/auto_gains.hpp): h * stiffness stays within the safety fraction of the
// stability interval along the run, and the invariant error in double is never worse than plain
// RK4's by more than kAutoGainDriftMargin * (1 + |F_i(x0)|) on the papers' experiments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/harmonic_oscillator.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "auto_gains.hpp"
#include "commands.hpp"
#include "invariant_monitor.hpp"
#include "method_table.hpp"
#include "run_support.hpp"

namespace {

using namespace attractor;

// Max |F_i(x) - F_i(x0)| over `steps` steps of plain RK4 and of feedback RK4 with auto gains.
template <class Sys, int Count>
void compare(const Sys& sys, const Vec<double, Sys::N>& x0, const Vec<double, Sys::N> (&region)[Count], double h,
             long steps, double* worst_hs) {
  const Vec<double, Sys::M> K = cli::auto_gains(sys, region, Scheme::rk4, h);
  const auto fb = *Feedback<Sys>::make(sys, x0, K);
  const Vec<double, Sys::M> F0 = sys.invariants(x0);
  cli::InvariantInfo info[Sys::M];
  for (auto& i : info) i = {"F", cli::InvariantKind::constraint};
  cli::InvariantMonitor plain(info, Sys::M, F0.data()), fed(info, Sys::M, F0.data());  // the sim's loop
  Vec<double, Sys::N> xp = x0, xf = x0;
  *worst_hs = 0;
  for (long k = 0; k < steps; ++k) {
    rk4_step([&](const Vec<double, Sys::N>& y) { return sys.field(y); }, xp, h);
    rk4_step(fb, xf, h);
    plain.record(sys.invariants(xp).data(), all_finite(xp));
    ASSERT_TRUE(fed.record(sys.invariants(xf).data(), all_finite(xf))) << fed.stopped();
    *worst_hs = std::max(*worst_hs, h * fb.stiffness(xf));
  }
  for (int i = 0; i < Sys::M; ++i)
    EXPECT_LE(fed.max_abs(i), plain.max_abs(i) + cli::kAutoGainDriftMargin * (1 + std::abs(F0[i])))
        << "invariant " << i;
}

TEST(AutoGains, SphericalPendulumPaper002Section23) {
  const SphericalPendulum<double> sys{};
  const Vec<double, 6> x0(0, 1, 0, 1, 0, 1);
  // Bound state of the energy level (pendulum_cli.hpp): q = l e1, p = p_max e2.
  const double pmax = std::sqrt(2 * (sys.invariants(x0)[2] + 1));
  const Vec<double, 6> region[2] = {x0, Vec<double, 6>(1, 0, 0, 0, pmax, 0)};
  double hs = 0;
  compare(sys, x0, region, 1e-3, 20000, &hs);  // t in [0, 20] of §2.3
  EXPECT_LE(hs, cli::kAutoGainSafety * real_stability_limit<double>(Scheme::rk4) * (1 + 1e-9));
  EXPECT_GT(hs, 0.5 * cli::kAutoGainSafety * real_stability_limit<double>(Scheme::rk4));  // largest, not tiny
}

TEST(AutoGains, PlanarPendulumPaper002Section24) {
  const PlanarPendulum<double> sys{};
  const Vec<double, 4> x0(1, 0, 0, 0);
  const Vec<double, 4> region[2] = {x0, Vec<double, 4>(1, 0, 0, std::sqrt(2.0))};
  double hs = 0;
  compare(sys, x0, region, 1e-3, 7416, &hs);
  EXPECT_LE(hs, cli::kAutoGainSafety * real_stability_limit<double>(Scheme::rk4) * (1 + 1e-9));
}

TEST(AutoGains, SkatePaper003Section72UntilTheFall) {
  const PendulumSkate<double> sys{PendulumSkateParams<double>{}};
  const Vec<double, 5> x0 = skate_zeta(skate_initial_condition_59(0.1));
  Vec<double, 5> tilted = x0;  // the sample region attractor-sim skate uses
  tilted[3] = 1, tilted[4] = 0, tilted[1] *= 3;
  const Vec<double, 5> region[2] = {x0, tilted};
  double hs = 0;
  compare(sys, x0, region, 1e-3, 1020, &hs);  // the skate falls at t = 1.025
}

TEST(AutoGains, ChosenRateScalesWithTheStep) {
  const PlanarPendulum<double> sys{};
  const Vec<double, 4> region[1] = {Vec<double, 4>(1, 0, 0, 0)};
  const auto K1 = cli::auto_gains(sys, region, Scheme::rk4, 1e-3);
  const auto K2 = cli::auto_gains(sys, region, Scheme::rk4, 2e-3);
  EXPECT_NEAR(K1[0], 2 * K2[0], 1e-9 * K1[0]);
  const auto Ke = cli::auto_gains(sys, region, Scheme::euler, 1e-3);
  EXPECT_LT(Ke[0], K1[0]);  // Euler's stability interval (2) is shorter than RK4's (2.785)
}

// The measuring loop's stop rules, and the run's last quarter without int64 overflow near 9.2e18.
TEST(InvariantMonitor, StopsOnNonFiniteStateAndDriftBeyondSanity) {
  const cli::InvariantInfo info[2] = {{"f", cli::InvariantKind::constraint}, {"H", cli::InvariantKind::energy}};
  const double F0[2] = {1, 2};
  cli::InvariantMonitor m(info, 2, F0);
  const double a[2] = {1.5, 2.25}, b[2] = {1, 5.5}, c[2] = {NAN, 2};
  EXPECT_TRUE(m.record(a));
  EXPECT_EQ(m.worst(cli::InvariantKind::constraint), 0.5);
  EXPECT_EQ(m.worst(cli::InvariantKind::energy), 0.25);
  EXPECT_FALSE(m.record(b));  // |5.5 - 2| > 1 + |2|
  EXPECT_STREQ(m.stopped(), "invariant_drift_beyond_sanity");
  EXPECT_EQ(m.final_abs(1), 3.5);
  cli::InvariantMonitor n(info, 2, F0);
  n.unwatch(1);
  EXPECT_TRUE(n.record(b));  // an unwatched row reports, never stops
  EXPECT_FALSE(n.record(c));
  EXPECT_STREQ(n.stopped(), "non_finite_state");
  EXPECT_EQ(n.records(), 1);  // the non-finite state is not recorded
  EXPECT_EQ(n.max_abs(1), 3.5);
  // mark() starts a window for max_since_mark() (attractor-paper's second-half maxima); max_abs()
  // keeps the whole run.
  const double d[2] = {1.25, 2.125};
  cli::InvariantMonitor w(info, 2, F0);
  EXPECT_TRUE(w.record(a));
  EXPECT_EQ(w.max_since_mark(0), 0.5);  // never marked: the whole run
  w.mark();
  EXPECT_EQ(w.max_since_mark(0), 0.0);
  EXPECT_TRUE(w.record(d));
  EXPECT_EQ(w.max_since_mark(0), 0.25);
  EXPECT_EQ(w.max_since_mark(1), 0.125);
  EXPECT_EQ(w.max_abs(0), 0.5);
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(cli::last_quarter_from(big), big - big / 4 - 1);
  EXPECT_EQ(cli::last_quarter_from(4), 2);  // steps 3 and 4 (k = 2, 3) are the last quarter
}

// The driver's run-time scheme table steps exactly as the library's euler/heun/rk4_step.
template <class Field, class S, int N>
void expect_same_steps(const Field& f, const Vec<S, N>& x0, S h) {
  for (Scheme sc : {Scheme::euler, Scheme::heun, Scheme::rk4}) {
    Vec<S, N> a = x0, b = x0;
    for (int k = 0; k < 50; ++k) step(sc, f, a, h), cli::scheme_step(cli::runtime_tableau<S>(sc), f, b, h);
    for (int i = 0; i < N; ++i) EXPECT_EQ(a[i], b[i]) << to_string(sc) << " component " << i;
  }
}
TEST(MethodTable, RuntimeSchemeIsTheLibrarysStepBitForBit) {
  const SphericalPendulum<float> sys{};
  const Vec<float, 6> x0(0, 1, 0, 1, 0, 1);
  expect_same_steps(feedback(sys, x0, Vec<float, 4>::Constant(50)), x0, 1e-3f);
  expect_same_steps(sys, x0, 1e-3f);
  expect_same_steps(HarmonicOscillator<double>{}, Vec<double, 2>(1, 0.5), 0.01);
}

// The worked example of docs/adding-a-feedback-system.md: its exact flow solves the field and
// keeps the energy; the pendulums' invariant targets pin a float run's constraint to l^2.
TEST(HarmonicOscillator, ExactFlowSolvesTheFieldAndKeepsTheEnergy) {
  const HarmonicOscillator<double> sys = *HarmonicOscillator<double>::make(2, 8);  // w = 2
  const Vec<double, 2> x0(0.3, -1);
  for (double t : {0.0, 0.7, 3.1}) {
    const Vec<double, 2> x = sys.exact(x0, t), dx = (sys.exact(x0, t + 1e-6) - sys.exact(x0, t - 1e-6)) / 2e-6;
    EXPECT_NEAR((dx - sys.field(x)).norm(), 0, 1e-8) << t;
    EXPECT_NEAR(sys.invariants(x)[0], sys.invariants(x0)[0], 1e-14) << t;
  }
  EXPECT_FALSE(HarmonicOscillator<float>::make(0, 1));
  EXPECT_FALSE(HarmonicOscillator<float>::make(1, NAN));
}
TEST(PendulumTargets, FloatReferenceIsTheConstraintNotTheRoundedStart) {
  const PlanarPendulum<float> sys = *PlanarPendulum<float>::make(1, 1, 3);
  const Vec<float, 4> x0(3 * std::cos(0.3f), 3 * std::sin(0.3f), -0.1f * std::sin(0.3f), 0.1f * std::cos(0.3f));
  const auto fb = *Feedback<PlanarPendulum<float>>::make(sys, x0, Vec<float, 3>::Constant(1));
  EXPECT_EQ(fb.reference()[0], 9.0f);
  EXPECT_EQ(fb.reference()[1], 0.0f);
  EXPECT_EQ(fb.reference()[2], sys.invariants(x0)[2]);
}

// A command registry refuses, loudly at start-up, to drop a command or to take a name twice.
struct TestRegistryTag {};
TEST(RegistryDeathTest, FullTableOrRepeatedNameStopsTheTool) {
  using R = cli::Registry<TestRegistryTag>;
  static const char* const names[] = {"c0",  "c1",  "c2",  "c3",  "c4",  "c5",  "c6",  "c7",  "c8",  "c9",  "c10",
                                      "c11", "c12", "c13", "c14", "c15", "c16", "c17", "c18", "c19", "c20", "c21",
                                      "c22", "c23", "c24", "c25", "c26", "c27", "c28", "c29", "c30", "c31", "c32"};
  EXPECT_DEATH((R::add({"a", "", nullptr}), R::add({"a", "", nullptr})), "cannot register 'a': the name is taken");
  EXPECT_DEATH(
      {
        for (const char* n : names) R::add({n, "", nullptr});
      },
      "cannot register 'c32': the table is full");
}

}  // namespace
