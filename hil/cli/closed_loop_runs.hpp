// SPDX-License-Identifier: Apache-2.0
// Every closed-loop command of attractor-sim (skate, spherical-robot, wheel-pendulum) as a typed
// call, as feedback_system_runs.hpp does for the feedback systems: the same option table,
// validation and run as the command, its outcome as values (the exit code, a refusal's message,
// the --json summary as a JSON value) instead of an exit status and printed text. A command
// registers both faces with one line, ATTRACTOR_REGISTER_CLOSED_LOOP, from its run function
// `int run(const Args&, Json* summary)`: summary null, the run prints what the command prints;
// otherwise it prints nothing and stores its summary there. Host-only.
#pragma once

#include <string>
#include <vector>

#include "commands.hpp"
#include "feedback_system_runs.hpp"
#include "run_support.hpp"
#include "spec.hpp"
#include "typed_run.hpp"

namespace attractor::cli {

// One registered closed loop: its command name, summary line and typed run (args as on the
// command line, after the command name). The outcome is a FeedbackRunResult (code, message, summary).
struct ClosedLoopCommand {
  const char* name;
  const char* summary;
  FeedbackRunResult (*run)(const std::vector<std::string>& args);
};
struct ClosedLoopTag {};
using ClosedLoops = Registry<ClosedLoopTag, ClosedLoopCommand>;

using ClosedLoopRunFn = int (*)(const Args&, Json* summary);

// The command as the tool runs it: printed summary, exit code.
template <ClosedLoopRunFn Run>
int closed_loop_printed(const Args& a) {
  return Run(a, nullptr);
}

// The command as a typed call: its option parsing and run, the outcome as values.
template <Spec (*MakeSpec)(), ClosedLoopRunFn Run>
FeedbackRunResult closed_loop_run_typed(const std::vector<std::string>& args) {
  static const Spec spec = MakeSpec();
  return typed_run(spec, args, [](const Args& a, FeedbackRunResult& out) {
    out.code = Run(a, &out.summary);
    if (out.code == exit_blowup && out.summary.contains("stopped") && out.summary["stopped"].is_string())
      out.message = out.summary["stopped"].get<std::string>();
  });
}

}  // namespace attractor::cli

// ATTRACTOR_REGISTER_CLOSED_LOOP("wheel-pendulum", "summary", wheel_spec, wheel_run): the command
// of attractor-sim and the typed call of ClosedLoops, from the one run function.
#define ATTRACTOR_REGISTER_CLOSED_LOOP(name, summary, spec_fn, run_fn)           \
  ATTRACTOR_REGISTER_COMMAND(attractor::cli::SimSystems, name, summary, spec_fn, \
                             attractor::cli::closed_loop_printed<run_fn>);       \
  ATTRACTOR_REGISTER(attractor::cli::ClosedLoops, name, summary,                 \
                     (attractor::cli::closed_loop_run_typed<spec_fn, run_fn>))
