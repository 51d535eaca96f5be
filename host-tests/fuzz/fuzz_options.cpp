// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the host tools' option layer (hil/cli/spec.hpp). The input is split at
// '\n' into command-line words up to a line "--CONFIG--", the rest is a config file. Every
// input must end in either validated values or a Failure with a code from the exit table;
// anything else (a crash, a sanitizer report, another exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "exit_codes.hpp"
#include "run_support.hpp"
#include "spec.hpp"

namespace {

using namespace attractor::cli;

const Spec& spec() {
  static const Spec s = [] {
    Spec t("fuzz", "usage: fuzz", "fuzz target");
    t.number("m", "kg", 1, positive(), "mass")
        .number("phi0", "rad", 0.1, between(-1.5, 1.5, true), "tilt")
        .number("every", "", 1, between(1, 1e15), "every")
        .list("q0", 3, "a,b,c", "position")
        .choice("method", {"rk4", "euler"}, "rk4", "method")
        .flag("json", "json")
        .text("csv", "FILE", "csv");
    return t;
  }();
  return s;
}

void use(const Args& a) {
  // Every accessor either returns a checked value or throws Failure.
  const double m = a.num("m");
  if (!(m > 0) || !std::isfinite(m)) std::abort();
  const double phi = a.num("phi0");
  if (!(phi > -1.5 && phi < 1.5)) std::abort();
  const double every = a.num("every");
  if (!(every >= 1 && every <= 1e15)) std::abort();
  const auto q = a.list("q0", {0, 1, 0});
  if (q.size() != 3) std::abort();
  for (double v : q)
    if (!std::isfinite(v)) std::abort();
  (void)a.choice("method");
  (void)a.flag("json");
  (void)a.text("csv");
  (void)step_count(a.num("every"), 1e-3, false);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string in(reinterpret_cast<const char*>(data), size);
  const std::size_t split = in.find("--CONFIG--\n");
  const std::string words_text = in.substr(0, split);
  const std::string config = split == std::string::npos ? std::string() : in.substr(split + 11);
  std::vector<std::string> words{"fuzz"};
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
  Args args(spec());
  try {
    parse_args(spec(), int(argv.size()), argv.data(), args);
    std::map<std::string, bool> given;
    for (const auto& o : spec().options())
      if (args.given(o.name)) given[o.name] = true;
    if (!config.empty()) parse_config_text(spec(), config, "fuzz", args, given);
    use(args);
  } catch (const Failure& f) {
    if (f.code < exit_usage || f.code > exit_io) std::abort();
  }
  return 0;
}
