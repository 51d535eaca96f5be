// SPDX-License-Identifier: Apache-2.0
// The measure of the system's own field (--measure, integrate/measure.hpp) is the only thing in
// a run that differentiates the field: a run without it evaluates the field exactly the scheme's
// stages times the steps; with it, a system without an analytic divergence pays 2N evaluations
// per recorded state (x0 and every step) for the central differences.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>

#include "attractor/systems/harmonic_oscillator.hpp"
#include "feedback_system_driver.hpp"

// Named, not anonymous: the entry's --help strings are read only through the driver's templates.
namespace measure_cost_test {

using namespace attractor;

int64_t g_field_calls = 0;

// The harmonic oscillator, counting its field evaluations (no divergence hook).
template <class S>
struct CountingOscillator : HarmonicOscillator<S> {
  using State = typename HarmonicOscillator<S>::State;
  State field(const State& x) const {
    ++g_field_calls;
    return HarmonicOscillator<S>::field(x);
  }
};

struct CountingEntry {
  template <class S>
  using System = CountingOscillator<S>;
  static constexpr const char* name = "counting-oscillator";
  static constexpr const char* summary = "test";
  static constexpr const char* about = "test";
  static constexpr const char* states[] = {"q", "p"};
  static constexpr cli::InvariantInfo invariants[] = {{"H", cli::InvariantKind::energy}};
  static constexpr cli::StateOption initial[] = {{"x0", 2, "q,p", "start"}};
  static constexpr double default_gain = 1;
  static constexpr const char* T_default = "default 1";
  template <class S>
  static Result<System<S>> make(const cli::Params&) {
    System<S> s;
    static_cast<HarmonicOscillator<S>&>(s) = *HarmonicOscillator<S>::make(S(1), S(1));
    return s;
  }
  static void default_x0(const cli::Params&, double* x) { x[0] = 1, x[1] = 0; }
  static double default_T(const System<double>&, const Vec<double, 2>&) { return 1; }
  static std::string off_constraint(const cli::Params&, const double*) { return ""; }
  static std::string project(const cli::Params&, double*) { return ""; }
  static std::array<Vec<double, 2>, 1> region(const System<double>&, const Vec<double, 2>& x0) { return {x0}; }
};

}  // namespace measure_cost_test

namespace {

using namespace attractor;
using measure_cost_test::CountingEntry;
using measure_cost_test::g_field_calls;

int64_t field_calls(const char* method, bool measure, int64_t* steps) {
  cli::FeedbackInputs in = cli::feedback_defaults<CountingEntry>(method);
  in.measure_volume = measure;
  g_field_calls = 0;
  const auto o = cli::feedback_simulate<CountingEntry, double>(in);
  *steps = o.r.done;
  EXPECT_EQ(std::isnan(o.r.divergence_integral), !measure);
  return g_field_calls;
}

TEST(MeasureCost, ARunWithoutTheMeasureEvaluatesOnlyTheSchemesStages) {
  int64_t steps = 0;
  EXPECT_EQ(field_calls("feedback-rk4", false, &steps), 4 * steps);
  EXPECT_EQ(steps, 1000);
  EXPECT_EQ(field_calls("rk4", false, &steps), 4 * steps);
  EXPECT_EQ(field_calls("feedback-euler", false, &steps), steps);
}

TEST(MeasureCost, TheMeasureCostsTwoNEvaluationsPerRecordedState) {
  int64_t steps = 0;
  EXPECT_EQ(field_calls("feedback-rk4", true, &steps), 4 * steps + 2 * 2 * (steps + 1));
}

TEST(MeasureCost, TheCommandLineMeasuresOnlyWithTheOption) {
  const cli::Spec spec = cli::feedback_spec<CountingEntry>();
  for (const bool with : {false, true}) {
    cli::Args a(spec);
    std::vector<std::string> w = {"counting-oscillator"};
    if (with) w.push_back("--measure");
    std::vector<char*> argv;
    for (auto& s : w) argv.push_back(&s[0]);
    cli::parse_args(spec, int(argv.size()), argv.data(), a);
    EXPECT_EQ(cli::feedback_inputs<CountingEntry>(a).measure_volume, with);
  }
}

}  // namespace
