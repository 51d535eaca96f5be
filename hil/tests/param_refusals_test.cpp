// SPDX-License-Identifier: Apache-2.0
// The simulator's parameter refusals name the option and the rule the system's facts state
// (attractor/core/facts.hpp, hil/cli/feedback_entry.hpp's check_params): a range, "nonzero", or a
// rule across parameters (positive-definite inertia, I + m a^2 > 0), exit 5; and the falling
// disk's tilt rule, the same in --help and in the check. Runs the registered commands in process
// (hil/cli/feedback_system_runs.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../sim/falling_disk_entry.hpp"
#include "feedback_system_driver.hpp"
#include "feedback_system_runs.hpp"

namespace param_refusals {

using attractor::cli::FeedbackRunResult;
using attractor::cli::FeedbackSystems;
using Words = std::vector<std::string>;

FeedbackRunResult run(const char* system, const Words& args) {
  const attractor::cli::FeedbackSystemCommand* c = FeedbackSystems::find(system);
  if (c == nullptr) {
    ADD_FAILURE() << system << " is not registered";
    return {};
  }
  Words a = args;
  a.push_back("--T"), a.push_back("0.01");
  return c->run(a);
}

struct Refusal {
  const char* system;
  Words args;
  const char* message;  // the whole refusal, as printed after "attractor-sim <system>: "
};

TEST(ParamRefusals, NameTheOptionAndTheRule) {
  const Refusal cases[] = {
      // a range of one parameter (the command line's check, from the facts' range)
      {"knife-edge", {"--m", "0"}, "--m = 0 is outside its range: need 0 < m [kg]"},
      // "nonzero" (a facts range rule)
      {"roller-racer", {"--d2", "0"}, "--d2 = 0 is outside its range: need d2 != 0 [m]"},
      // rules across parameters: the facts' cross rules, with the option they concern
      {"suslov", {"--inertia", "1,2,0,1,0,1"}, "--inertia: must be positive definite (parameters refused)"},
      {"suslov", {"--a", "0,0,0", "--project"}, "--a: must be nonzero (parameters refused)"},
      {"sleigh-toda", {"--I", "0", "--a", "0"}, "I + m a^2 > 0 is violated (parameters refused)"},
  };
  for (const Refusal& c : cases) {
    const FeedbackRunResult r = run(c.system, c.args);
    EXPECT_EQ(r.code, 5) << c.system;
    EXPECT_EQ(r.message, c.message) << c.system;
  }
}

TEST(ParamRefusals, TheSameValuesPassWhereTheRuleHolds) {
  EXPECT_EQ(run("suslov", {"--inertia", "2,0.5,0,1,0,3"}).code, 0);
  EXPECT_EQ(run("sleigh-toda", {"--I", "0", "--a", "0.1"}).code, 0);
  EXPECT_EQ(run("roller-racer", {"--d2", "-0.5", "--project"}).code, 0);
}

// --help states the tilt rule the check applies (FallingDiskFacts): a tilt just inside the bound is
// accepted, one at it refused.
TEST(ParamRefusals, FallingDiskTiltRuleIsTheHelpsRule) {
  using attractor::FallingDiskFacts;
  const std::string help = attractor::cli::feedback_spec<attractor::sim::FallingDiskEntry>().help();
  EXPECT_NE(help.find(std::string("tilt from the vertical, ") + FallingDiskFacts::tilt_rule), std::string::npos);
  EXPECT_TRUE(FallingDiskFacts::tilt.contains(1.55));
  EXPECT_FALSE(FallingDiskFacts::tilt.contains(1.5707963267948966));
  // At rest 0.02 rad from flat: the plain flow runs (the feedback's step check refuses h = 1e-3
  // there, exit 3: the gradients grow as 1/cos r).
  const FeedbackRunResult near =
      run("falling-disk", {"--tilt0", "1.55,0", "--p0", "0,0", "--project", "--method", "rk4"});
  EXPECT_EQ(near.code, 0) << near.message;
  const FeedbackRunResult flat = run("falling-disk", {"--tilt0", "1.5707963267948966,0", "--project"});
  EXPECT_EQ(flat.code, 5);
  EXPECT_EQ(flat.message, "--tilt0: the tilt must satisfy |r| < pi/2 (the disk must not lie flat)");
}

}  // namespace param_refusals
