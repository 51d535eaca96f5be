// SPDX-License-Identifier: Apache-2.0
// Every feedback-system command of attractor-sim as a typed call: the same option table,
// validation and run as the command (feedback_system_driver.hpp), with its outcome as values —
// the exit code the command returns, a refusal's message, the --json summary as a JSON value —
// instead of a process's exit status and printed text. ATTRACTOR_REGISTER_FEEDBACK_SYSTEM adds
// each system to FeedbackSystems beside its command (feedback_run_typed, in the driver), so a test
// linking the systems' objects (hil/tests/feedback_rules_test.cpp) runs every registered system
// with this header only, compiling none. Host-only.
#pragma once

#include <string>
#include <vector>

#include "commands.hpp"
#include "run_support.hpp"

namespace attractor::cli {

// What a command's run gives, as values.
struct FeedbackRunResult {
  int code = exit_ok;   // the exit code the command returns (exit_codes.hpp)
  std::string message;  // a refusal's message (the tool prints it after "attractor-sim <command>: "),
                        // or why the run stopped (exit 4)
  Json summary;         // the --json summary of a run; null when the run was refused
};

// One registered system: its command name and its typed run (args as on the command line, after
// the command name).
struct FeedbackSystemCommand {
  const char* name;
  const char* summary;
  FeedbackRunResult (*run)(const std::vector<std::string>& args);
};
struct FeedbackTag {};
using FeedbackSystems = Registry<FeedbackTag, FeedbackSystemCommand>;

}  // namespace attractor::cli
