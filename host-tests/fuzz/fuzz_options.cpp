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
#include "option_fuzz_input.hpp"
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
  Args args(spec());
  try {
    parse_fuzz_input(spec(), in, "fuzz", args);
    use(args);
  } catch (const Failure& f) {
    if (f.code < exit_usage || f.code > exit_io) std::abort();
  }
  return 0;
}
