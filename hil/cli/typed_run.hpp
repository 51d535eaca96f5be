// SPDX-License-Identifier: Apache-2.0
// A command of attractor-sim as a typed call (feedback_system_runs.hpp, closed_loop_runs.hpp):
// its command line parsed with its own option table, its outcome as values instead of an exit
// status and printed text. Host-only.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include "feedback_system_runs.hpp"
#include "run_support.hpp"
#include "spec.hpp"

namespace attractor::cli {

// `args` (the words after the command name) parsed with the command's `spec`, then
// `body(args, out)` fills the outcome; a refusal (Failure) is its code and message, any other
// exception exit_io, as the registry's main maps them.
template <class Body>
FeedbackRunResult typed_run(const Spec& spec, const std::vector<std::string>& args, Body body) {
  std::vector<std::string> words{spec.command()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(&w[0]);
  FeedbackRunResult out;
  try {
    Args a(spec);
    if (!parse_args(spec, int(argv.size()), argv.data(), a)) return out;  // --help printed
    body(a, out);
  } catch (const Failure& f) {
    out.code = f.code, out.message = f.what(), out.summary = nullptr;
  } catch (const std::exception& e) {
    out.code = exit_io, out.message = e.what(), out.summary = nullptr;
  }
  return out;
}

}  // namespace attractor::cli
