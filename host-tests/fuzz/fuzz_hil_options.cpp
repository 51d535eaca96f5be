// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: attractor-hil's option parsing (hil/hil-run/options.hpp on the shared option
// layer), everything the runner decides before it starts QEMU from the words alone. The input is
// split at '\n' into command-line words up to a line "--CONFIG--", the rest is a config file.
// Every input must end in options that keep the runner's rules (one of --elf and --serial, ticks
// 1..1e9, faults 0 or >= 5 apart, a termios baud rate, mismatch factors > -1, ...) or in a
// Failure with an input code of the exit table (2, 5, 6); anything else is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "option_fuzz_input.hpp"
#include "options.hpp"

namespace {

using namespace attractor::cli;

void check(const hil_run::Options& o) {
  if (o.elf.empty() == o.serial.empty()) std::abort();
  if (!(o.ticks >= 1 && o.ticks <= 1000000000)) std::abort();
  if (o.fault_every != 0 && o.fault_every < 5) std::abort();
  if (o.reset_down < 1 || (o.fault_every != 0 && o.reset_down >= o.fault_every)) std::abort();
  if (o.csv_every < 1 || o.progress < 0) std::abort();
  if (!(o.timeout_s > 0 && o.timeout_s < 1e6)) std::abort();
  if (!(std::isfinite(o.loop.noise) && o.loop.noise >= 0)) std::abort();
  for (const auto& kv : o.loop.mismatch)
    if (!(std::isfinite(kv.second) && kv.second > -1)) std::abort();
  if (o.faults.empty()) std::abort();
  bool registered = false;
  for (const auto& p : hil_run::registered_plants()) registered = registered || o.plant == p.name;
  if (!registered) std::abort();
  if (o.link != "uart" && o.link != "semihost") std::abort();
  if (!o.qemu_mode()) {
    bool known = false;
    for (const auto& b : hil_run::kBauds) known = known || std::to_string(o.baud) == b;
    if (!known || o.link != "uart") std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  static const Spec spec = hil_run::hil_spec();
  const std::string in(reinterpret_cast<const char*>(data), size);
  Args args(spec);
  try {
    parse_fuzz_input(spec, in, "attractor-hil", args);
    check(hil_run::read_options(args));
  } catch (const Failure& f) {
    if (f.code != exit_usage && f.code != exit_invalid && f.code != exit_io) std::abort();
  }
  return 0;
}
