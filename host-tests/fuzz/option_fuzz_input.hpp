// SPDX-License-Identifier: Apache-2.0
// The option fuzzers' input format (fuzz_options, fuzz_hil_options): split at '\n' into
// command-line words up to a line "--CONFIG--", the rest is a config file; both are parsed into
// `args` by the shared option layer (hil/cli/spec.hpp), which throws Failure on bad input.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "spec.hpp"

namespace attractor::cli {

inline void parse_fuzz_input(const Spec& spec, const std::string& in, const char* tool, Args& args) {
  const std::size_t split = in.find("--CONFIG--\n");
  const std::string words_text = in.substr(0, split);
  const std::string config = split == std::string::npos ? std::string() : in.substr(split + 11);
  std::vector<std::string> words{tool};
  std::size_t pos = 0;
  while (pos <= words_text.size() && words.size() < 64) {
    std::size_t nl = words_text.find('\n', pos);
    if (nl == std::string::npos) nl = words_text.size();
    std::string w = words_text.substr(pos, nl - pos);
    if (w == "--help" || w == "-h" || w == "--config") w = "--x";  // no stdout flood, no file access
    words.push_back(w);
    pos = nl + 1;
  }
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(&w[0]);
  parse_args(spec, int(argv.size()), argv.data(), args);
  std::map<std::string, bool> given;
  for (const auto& o : spec.options())
    if (args.given(o.name)) given[o.name] = true;
  if (!config.empty()) parse_config_text(spec, config, "fuzz", args, given);
}

}  // namespace attractor::cli
