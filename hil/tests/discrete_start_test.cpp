// SPDX-License-Identifier: Apache-2.0
// --start consistent|remark5|pair and --q1 of the discrete methods (nonholonomic_baselines.hpp):
// each start runs; a pair start from the configuration a run itself reaches at t = h reproduces
// that run's later steps to rounding (the pair determines the method's momentum and, for
// nh-verlet, its multiplier); a dla pair off the method's own discrete constraint is refused
// (exit 5) with the rule and the residual. The option rules (exit 2) are in feedback_rules_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../sim/chaplygin_sleigh_entry.hpp"
#include "../sim/nonholonomic_particle_entry.hpp"
#include "../sim/snakeboard_entry.hpp"
#include "feedback_system_driver.hpp"

namespace {

using namespace attractor;

template <class Entry>
auto discrete_run(const char* method, const std::string& start, int steps, std::vector<double> q1 = {}) {
  cli::FeedbackInputs in = cli::feedback_defaults<Entry>(method);
  in.measure_volume = false, in.h = 0.01, in.T = steps * in.h, in.T_given = true;
  in.start = start, in.q1 = std::move(q1);
  return cli::feedback_simulate<Entry, double>(in);
}

// The discrete configuration q of an entry's state: the particle's and the snakeboard's leading
// entries; the sleigh's (x, y, theta) from (R, x, y, Pi).
template <class Entry, int N>
std::vector<double> configuration(const Vec<double, N>& x) {
  if constexpr (std::is_same_v<Entry, sim::SleighEntry>) return {x[4], x[5], std::atan2(x[1], x[0])};
  constexpr int Q = cli::discrete_q<Entry>();
  return std::vector<double>(x.data(), x.data() + Q);
}

template <class Entry>
void expect_pair_reproduces(const char* method, const std::string& start) {
  const auto one = discrete_run<Entry>(method, start, 1);
  const auto ref = discrete_run<Entry>(method, start, 200);
  const auto pair = discrete_run<Entry>(method, "pair", 200, configuration<Entry>(one.r.last));
  const std::string where = std::string(Entry::name) + " " + method + " from " + start;
  ASSERT_EQ(ref.mon.stopped(), nullptr) << where;
  ASSERT_EQ(pair.mon.stopped(), nullptr) << where;
  const double scale = 1 + ref.r.last.template lpNorm<Eigen::Infinity>();
  EXPECT_LT((pair.r.last - ref.r.last).template lpNorm<Eigen::Infinity>(), 1e-12 * scale) << where;
}

TEST(DiscreteStart, EachStartRuns) {
  for (const char* m : {"nh-verlet", "dla", "dla-one-sided"})
    for (const char* start : {"consistent", "remark5", "pair"}) {
      const bool dla = std::string(m) != "nh-verlet";
      if (dla && std::string(start) == "remark5") continue;  // Remark 5's start is nh-verlet's
      const auto one = discrete_run<sim::NonholonomicParticleEntry>(m, "consistent", 1);
      const std::vector<double> q1 = std::string(start) == "pair"
                                         ? configuration<sim::NonholonomicParticleEntry>(one.r.last)
                                         : std::vector<double>{};
      const auto o = discrete_run<sim::NonholonomicParticleEntry>(m, start, 100, q1);
      EXPECT_EQ(o.mon.stopped(), nullptr) << m << " " << start;
      EXPECT_EQ(o.r.done, 100) << m << " " << start;
      if (!dla) EXPECT_LT(o.mon.worst(cli::InvariantKind::constraint), 1e-12) << m << " " << start;
    }
}

TEST(DiscreteStart, RemarkFiveIsTheAliasesStart) {
  const auto a = discrete_run<sim::NonholonomicParticleEntry>("nh-verlet", "remark5", 50);
  const auto b = discrete_run<sim::NonholonomicParticleEntry>("nh-verlet-remark5", "remark5", 50);
  const auto c = discrete_run<sim::NonholonomicParticleEntry>("nh-verlet", "consistent", 50);
  EXPECT_EQ(a.r.last, b.r.last);
  EXPECT_GT((a.r.last - c.r.last).norm(), 1e-9);  // another start, another run
}

TEST(DiscreteStart, PairFromTheFirstStepReproducesTheRun) {
  for (const char* m : {"nh-verlet", "dla", "dla-one-sided"}) {
    expect_pair_reproduces<sim::NonholonomicParticleEntry>(m, "consistent");
    expect_pair_reproduces<sim::SleighEntry>(m, "consistent");
    expect_pair_reproduces<sim::SnakeboardEntry>(m, "consistent");
  }
  // Remark 5's multiplier 0 is recovered from its own pair too.
  expect_pair_reproduces<sim::NonholonomicParticleEntry>("nh-verlet", "remark5");
  expect_pair_reproduces<sim::SleighEntry>("nh-verlet", "remark5");
}

TEST(DiscreteStart, DlaPairOffItsDiscreteConstraintIsRefusedWithTheResidual) {
  for (const char* m : {"dla", "dla-one-sided"}) {
    std::vector<double> q1 = configuration<sim::NonholonomicParticleEntry>(
        discrete_run<sim::NonholonomicParticleEntry>(m, "consistent", 1).r.last);
    EXPECT_EQ(discrete_run<sim::NonholonomicParticleEntry>(m, "pair", 5, q1).mon.stopped(), nullptr) << m;
    q1[2] += 1e-6;  // z moves without the x motion the constraint z' = y x' asks for
    try {
      (void)discrete_run<sim::NonholonomicParticleEntry>(m, "pair", 5, q1);
      ADD_FAILURE() << m << ": a pair off the discrete constraint ran";
    } catch (const cli::Failure& f) {
      EXPECT_EQ(f.code, cli::exit_invalid) << m;
      const std::string what = f.what();
      EXPECT_NE(what.find("discrete constraint"), std::string::npos) << what;
      EXPECT_NE(what.find("residual "), std::string::npos) << what;
    }
  }
  // The midpoint pair of a run is off the one-sided constraint (and the reverse) by O(h^2).
  const std::vector<double> mid =
      configuration<sim::SleighEntry>(discrete_run<sim::SleighEntry>("dla", "consistent", 1).r.last);
  EXPECT_THROW((void)discrete_run<sim::SleighEntry>("dla-one-sided", "pair", 5, mid), cli::Failure);
}

}  // namespace
