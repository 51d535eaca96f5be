// SPDX-License-Identifier: Apache-2.0
// The rules every feedback-system command of attractor-sim keeps (hil/cli/feedback_system_driver.hpp;
// exit codes hil/cli/exit_codes.hpp), one test per rule over every registered system, on the
// typed outcome of the command's own run (hil/cli/feedback_system_runs.hpp): the systems' objects
// are attractor-sim's (the object library attractor_sim_systems), linked into hil_cli_test, not
// compiled again. The table below has one row per registered system; a new system without a row fails
// EveryRegisteredSystemHasARow. What only a process shows (the exit status, stderr, stdout's
// JSON text) is tested once per rule on the command line (hil/tests/feedback_systems.cmake lists them).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "feedback_system_runs.hpp"

namespace feedback_rules {

using attractor::cli::FeedbackRunResult;
using attractor::cli::FeedbackSystems;
using attractor::cli::Json;
using Words = std::vector<std::string>;

// A case: the arguments after the command name and what the message must contain (one of the
// '|'-separated phrases).
struct Case {
  Words args;
  const char* message;
};

constexpr const char* kBadParameter = "outside its range|refused|not finite";

// One row per system. off_constraint empty: the system has no constraint row (nothing can be off
// it; its summary's constraint_error is null).
struct SystemRules {
  const char* name;
  Words off_constraint;   // an initial state off the constraints, no --project  -> exit 5
  std::vector<Case> bad;  // a parameter outside its range or refused by the system
                          // (a system without parameters: a non-finite initial value) -> exit 5
  Words step_refused;     // a feedback step check_step refuses                    -> exit 3
  Words blowup;           // a run that blows up (non-finite or insane drift)      -> exit 4
  Words json;             // a short run whose summary has the driver's fields
  bool exact;             // the system has an exact solution: exact_error is a number
};

const Words kRefusedGains = {"--gains", "1e5", "--T", "0.01"};
const Words kBlowupGains = {"--gains", "1e7", "--unchecked", "--T", "0.1"};

const std::vector<SystemRules>& table() {
  static const std::vector<SystemRules> t = {
      // paper 000 §3.1: the constraint vector and the inertia are list-valued parameters
      {"suslov",
       {"--Pi0", "0,1,0"},
       {{{"--a", "0,0,0"}, kBadParameter}},
       {"--gains", "1e4", "--T", "0.01"},
       kBlowupGains,
       {"--T", "0.1"},
       true},
      // paper 000 §3.2
      {"knife-edge",
       {"--p0", "0,1,0.5"},
       {{{"--m", "-1"}, kBadParameter}},
       kRefusedGains,
       kBlowupGains,
       {"--T", "0.2"},
       true},
      // paper 000 §3.3, with the pose and reduced
      {"chaplygin-sleigh",
       {"--Pi0", "1,1,0"},
       {{{"--I", "0"}, kBadParameter}},
       kRefusedGains,
       kBlowupGains,
       {"--T", "0.1"},
       false},
      {"chaplygin-sleigh-reduced",
       {"--Pi0", "1,1,0"},
       {{{"--a", "nan"}, kBadParameter}},
       kRefusedGains,
       kBlowupGains,
       {"--T", "0.1"},
       false},
      // paper 000 §3.6, §3.7 (no parameters: a non-finite initial value)
      {"heisenberg",
       {"--p0", "0.4,0.7,0"},
       {{{"--q0", "0,nan,0"}, kBadParameter}},
       {"--gains", "1e4", "--T", "0.01"},
       kBlowupGains,
       {"--T", "0.2"},
       true},
      {"nonholonomic-oscillator",
       {"--p0", "1,0,0"},
       {{{"--p0", "nan,0,0"}, kBadParameter}},
       {"--gains", "1e4", "--T", "0.01"},
       kBlowupGains,
       {"--T", "0.2"},
       true},
      // paper 001 Examples 1 and 2
      {"nonholonomic-particle",
       {"--p0", "1,1,1"},
       {{{"--m", "-1"}, kBadParameter}},
       kRefusedGains,
       kBlowupGains,
       {"--T", "0.2"},
       true},
      {"snakeboard",
       {"--p0", "0,1,0,0,0"},
       {{{"--J1", "0"}, kBadParameter}},
       kRefusedGains,
       kBlowupGains,
       {"--T", "0.2"},
       false},
      // paper 000 §3.4, §3.5 (documented cases)
      {"rolling-disk",
       {"--Pi0", "0.25,2,0.1,1"},
       {{{"--radius", "0"}, kBadParameter}},
       {"--h", "0.1", "--T", "0.5"},
       {"--method", "euler", "--h", "0.5", "--T", "1000"},
       {"--T", "1"},
       true},
      {"roller-racer",
       {"--z0", "1,1,0,0.2"},
       {{{"--d2", "0"}, kBadParameter}},
       {"--h", "0.1", "--T", "0.5"},
       {"--method", "euler", "--h", "0.5", "--T", "1000"},
       {"--T", "0.2"},
       false},
      // paper 004
      {"falling-disk",
       {"--v0", "1,0"},
       {{{"--A", "0"}, kBadParameter}},
       {"--gains", "100"},
       {"--method", "euler", "--h", "0.2", "--T", "100"},
       {"--T", "0.1"},
       false},
      {"chaplygin-sphere",
       {"--gamma0", "0,0,2"},
       {{{"--I2", "0"}, kBadParameter}},
       {"--gains", "100"},
       {"--method", "euler", "--h", "0.5", "--T", "100"},
       {"--T", "0.1"},
       false},
      {"chaplygin-sphere-pose",
       {"--gamma0", "0,0,2"},
       {{{"--I2", "0"}, kBadParameter}},
       {"--gains", "100"},
       {"--method", "euler", "--h", "0.5", "--T", "100"},
       {"--T", "0.1"},
       false},
      // no constraint row: Ω⁶ = 0 is built into the state; the Toda sleigh's state is (v, w)
      {"sleigh-oscillating-mass",
       {},
       {{{"--m", "-1"}, "--m = -1 is outside its range"}},
       {"--gains", "1e5"},
       {"--method", "euler", "--h", "0.5", "--T", "100"},
       {"--T", "0.1"},
       false},
      {"sleigh-toda",
       {},
       {{{"--m", "-1"}, "--m = -1 is outside its range"}, {{"--I", "0", "--a", "0"}, "parameters refused"}},
       {"--method", "feedback-euler", "--gains", "1e4"},
       {"--method", "euler", "--h", "1", "--v0", "3", "--w0", "3", "--T", "100"},
       {"--T", "0.2"},
       true},
      // paper 002 (holonomic): the guide's example and the pendulums
      {"harmonic-oscillator", {}, {{{"--m", "-1"}, kBadParameter}}, kRefusedGains, kBlowupGains, {"--T", "0.2"}, true},
      {"spherical-pendulum",
       {"--q0", "0,2,0"},
       {{{"--m", "nan"}, kBadParameter}},
       {"--method", "feedback-euler", "--h", "0.01", "--T", "0.01"},
       kBlowupGains,
       {"--T", "0.1"},
       false},
      {"planar-pendulum",
       {"--q0", "0,2"},
       {{{"--l", "-1"}, kBadParameter}},
       kRefusedGains,
       kBlowupGains,
       {"--T", "0.1"},
       false},
      // generated at build time from the starter's description (hil/cli/generated_entry.hpp)
      {"double-pendulum",
       {"--x0", "0.5,-0.9,1.3,-1.4,0,0,0,0"},
       {{{"--l2", "0"}, kBadParameter}},
       kRefusedGains,
       kBlowupGains,
       {"--T", "0.1"},
       false},
  };
  return t;
}

FeedbackRunResult run(const SystemRules& s, const Words& args) {
  const attractor::cli::FeedbackSystemCommand* c = FeedbackSystems::find(s.name);
  if (c == nullptr) {
    ADD_FAILURE() << s.name << " is not a registered feedback system";
    return {};
  }
  return c->run(args);
}

std::string shown(const SystemRules& s, const Words& args) {
  std::string t = std::string("attractor-sim ") + s.name;
  for (const std::string& w : args) t += " " + w;
  return t;
}

// Whether text contains one of the '|'-separated phrases (plain text; std::regex would cost this
// unit most of its compile).
bool contains_one_of(const std::string& text, const std::string& phrases) {
  for (std::size_t at = 0;;) {
    const std::size_t bar = phrases.find('|', at);
    if (text.find(phrases.substr(at, bar - at)) != std::string::npos) return true;
    if (bar == std::string::npos) return false;
    at = bar + 1;
  }
}

// A summary field that must be a number (finite: the summary writes a non-finite one as null).
void expect_number(const Json& j, const char* key, const std::string& where) {
  ASSERT_TRUE(j.contains(key)) << where << ": no " << key;
  EXPECT_TRUE(j.at(key).is_number()) << where << ": " << key << " = " << j.at(key).dump();
}
// A summary field that must be an object of numbers, keyed by name, not empty.
void expect_numbers_by_name(const Json& j, const char* key, const std::string& where) {
  ASSERT_TRUE(j.contains(key) && j.at(key).is_object() && !j.at(key).empty()) << where << ": " << key;
  for (const auto& kv : j.at(key).items())
    EXPECT_TRUE(kv.value().is_number()) << where << ": " << key << "." << kv.key() << " = " << kv.value().dump();
}

TEST(FeedbackRules, EveryRegisteredSystemHasARow) {
  EXPECT_EQ(FeedbackSystems::size(), int(table().size()));
  for (int i = 0; i < FeedbackSystems::size(); ++i) {
    bool found = false;
    for (const SystemRules& s : table()) found = found || FeedbackSystems::at(i).name == std::string(s.name);
    EXPECT_TRUE(found) << FeedbackSystems::at(i).name << " has no row in the rules table";
  }
}

TEST(FeedbackRules, OffConstraintStateIsRefusedWithoutProject) {
  for (const SystemRules& s : table()) {
    if (s.off_constraint.empty()) continue;
    const FeedbackRunResult r = run(s, s.off_constraint);
    EXPECT_EQ(r.code, attractor::cli::exit_invalid) << shown(s, s.off_constraint) << ": " << r.message;
    EXPECT_TRUE(contains_one_of(r.message, "use --project")) << shown(s, s.off_constraint) << ": " << r.message;
    EXPECT_TRUE(r.summary.is_null()) << shown(s, s.off_constraint) << ": ran";
  }
}

// What the refusal above suggests works: --project moves the same start onto the constraints and the
// run starts there.
TEST(FeedbackRules, OffConstraintStateRunsWithProject) {
  for (const SystemRules& s : table()) {
    if (s.off_constraint.empty()) continue;
    Words args = s.off_constraint;
    args.insert(args.end(), {"--project", "--T", "0.01"});
    const FeedbackRunResult r = run(s, args);
    ASSERT_EQ(r.code, attractor::cli::exit_ok) << shown(s, args) << ": " << r.message;
    EXPECT_EQ(r.summary.at("projected"), true) << shown(s, args);
    expect_number(r.summary, "constraint_error", shown(s, args));
  }
  // The generated model's projection (hil/cli/generated_entry.hpp): its start is on both rods (l1 = l2 = 1).
  const FeedbackRunResult r =
      FeedbackSystems::find("double-pendulum")->run({"--x0", "0.5,-0.9,1.3,-1.4,0,0,0,0", "--project", "--T", "0.01"});
  ASSERT_EQ(r.code, attractor::cli::exit_ok) << r.message;
  for (const char* rod : {"rod1", "rod2"})
    EXPECT_NEAR(r.summary.at("invariants0").at(rod).get<double>(), 1.0, 1e-12) << rod;
}

TEST(FeedbackRules, BadParameterIsRefused) {
  for (const SystemRules& s : table())
    for (const Case& c : s.bad) {
      const FeedbackRunResult r = run(s, c.args);
      EXPECT_EQ(r.code, attractor::cli::exit_invalid) << shown(s, c.args) << ": " << r.message;
      EXPECT_TRUE(contains_one_of(r.message, c.message)) << shown(s, c.args) << ": " << r.message;
      EXPECT_TRUE(r.summary.is_null()) << shown(s, c.args) << ": ran";
    }
}

TEST(FeedbackRules, StepThatCheckStepRefusesExits3) {
  for (const SystemRules& s : table()) {
    const FeedbackRunResult r = run(s, s.step_refused);
    EXPECT_EQ(r.code, attractor::cli::exit_unstable) << shown(s, s.step_refused) << ": " << r.message;
    EXPECT_TRUE(contains_one_of(r.message, "step refused by check_step"))
        << shown(s, s.step_refused) << ": " << r.message;
    EXPECT_TRUE(r.summary.is_null()) << shown(s, s.step_refused) << ": ran";
  }
}

TEST(FeedbackRules, BlowUpStopsTheRunWithExit4) {
  for (const SystemRules& s : table()) {
    const FeedbackRunResult r = run(s, s.blowup);
    const std::string where = shown(s, s.blowup);
    EXPECT_EQ(r.code, attractor::cli::exit_blowup) << where << ": " << r.message;
    EXPECT_TRUE((r.message == "non_finite_state" || r.message == "invariant_drift_beyond_sanity"))
        << where << ": " << r.message;
    ASSERT_TRUE(r.summary.is_object()) << where;
    EXPECT_EQ(r.summary.at("stopped"), r.message) << where;
    EXPECT_FALSE(contains_one_of(r.summary.dump(), "nan|inf")) << where << ": " << r.summary.dump();
  }
}

TEST(FeedbackRules, SummaryHasTheDriversFields) {
  for (const SystemRules& s : table()) {
    const FeedbackRunResult r = run(s, s.json);
    const std::string where = shown(s, s.json) + " --json";
    ASSERT_EQ(r.code, attractor::cli::exit_ok) << where << ": " << r.message;
    const Json& j = r.summary;
    ASSERT_TRUE(j.is_object() && !j.empty()) << where;
    EXPECT_EQ(j.begin().key(), "system") << where;
    EXPECT_EQ(j.at("system"), s.name) << where;
    ASSERT_TRUE(j.at("gains").is_array() && !j.at("gains").empty()) << where << ": gains " << j.at("gains").dump();
    for (const Json& k : j.at("gains")) EXPECT_TRUE(k.is_number() && k.get<double>() >= 0) << where << ": gains";
    expect_numbers_by_name(j, "invariants0", where);
    expect_numbers_by_name(j, "max_abs_dev", where);
    EXPECT_EQ(j.at("max_abs_dev").size(), j.at("invariants0").size()) << where;
    if (s.off_constraint.empty())
      EXPECT_TRUE(j.at("constraint_error").is_null()) << where << ": constraint_error without a constraint row";
    else
      expect_number(j, "constraint_error", where);
    expect_number(j, "energy_error", where);
    if (s.exact)
      expect_number(j, "exact_error", where);
    else
      EXPECT_TRUE(j.at("exact_error").is_null()) << where << ": exact_error " << j.at("exact_error").dump();
    expect_numbers_by_name(j, "final_state", where);
    EXPECT_TRUE(j.contains("stopped") && j.at("stopped").is_null()) << where << ": stopped " << j.at("stopped").dump();
    EXPECT_FALSE(contains_one_of(j.dump(), "nan|inf")) << where << ": " << j.dump();
  }
}

// The systems with paper 001's discrete methods, and the length of their --q1 (the configuration).
struct DiscreteSystem {
  const char* name;
  int q;
};
const DiscreteSystem kDiscrete[] = {{"knife-edge", 3},
                                    {"chaplygin-sleigh", 3},
                                    {"nonholonomic-oscillator", 3},
                                    {"nonholonomic-particle", 3},
                                    {"snakeboard", 5}};

TEST(FeedbackRules, DiscreteStartOptionsFollowTheirRules) {
  for (const DiscreteSystem& d : kDiscrete) {
    const SystemRules* s = nullptr;
    for (const SystemRules& r : table()) s = r.name == std::string(d.name) ? &r : s;
    ASSERT_NE(s, nullptr) << d.name;
    std::string q1 = "0";
    for (int i = 1; i < d.q; ++i) q1 += ",0";
    const std::vector<Case> usage = {
        {{"--method", "rk4", "--start", "remark5"}, "does not apply to --method rk4"},
        {{"--method", "feedback-rk4", "--q1", q1}, "does not apply to --method feedback-rk4"},
        {{"--method", "nh-verlet", "--q1", q1}, "--q1 does not apply without --start pair"},
        {{"--method", "dla", "--start", "pair"}, "--start pair requires --q1"},
        {{"--method", "dla", "--start", "remark5"}, "--start remark5 does not apply to --method dla"},
        {{"--method", "nh-verlet-remark5", "--start", "pair", "--q1", q1}, "--start does not apply"},
    };
    for (const Case& c : usage) {
      const FeedbackRunResult r = run(*s, c.args);
      EXPECT_EQ(r.code, attractor::cli::exit_usage) << shown(*s, c.args) << ": " << r.message;
      EXPECT_TRUE(contains_one_of(r.message, c.message)) << shown(*s, c.args) << ": " << r.message;
      EXPECT_TRUE(r.summary.is_null()) << shown(*s, c.args) << ": ran";
    }
    for (const char* start : {"consistent", "remark5"}) {
      const Words args = {"--method", "nh-verlet", "--start", start, "--T", "0.05", "--h", "0.01"};
      const FeedbackRunResult r = run(*s, args);
      ASSERT_EQ(r.code, attractor::cli::exit_ok) << shown(*s, args) << ": " << r.message;
      EXPECT_EQ(r.summary.at("start"), start) << shown(*s, args);
    }
    const Words alias = {"--method", "nh-verlet-remark5", "--T", "0.05", "--h", "0.01"};
    EXPECT_EQ(run(*s, alias).summary.at("start"), "remark5") << shown(*s, alias);
    const Words other = {"--method", "rk4", "--T", "0.05", "--h", "0.01"};
    EXPECT_FALSE(run(*s, other).summary.contains("start")) << shown(*s, other);
  }
}

}  // namespace feedback_rules
