// SPDX-License-Identifier: Apache-2.0
// The runtime's configuration: tick rate, run length, cost budget, stack and watchdog limits,
// and the supervisor's rules.
#pragma once

#include <cstdint>

#include "attractor/rt/supervisor.hpp"

namespace attractor::rt {

struct Config {
  std::uint32_t rate_hz = 1000;        // tick rate
  std::uint32_t max_ticks = 0;         // stop after this many ticks and return a Report; 0 = never
  std::uint32_t budget_percent = 100;  // a control step over this share of the period overruns
  // Stack high-water limit checked from the idle loop (about once a second of ticks) in both
  // run modes: above it the supervisor trips with Error::stack. 0 disables the check.
  std::uint32_t stack_limit_percent = 75;
  // Hardware watchdog timeout (board/watchdog.hpp), fed after every completed control step:
  // a step that hangs longer than this ends in the board's watchdog path. 0: not started.
  std::uint32_t watchdog_ms = 0;
  SupervisorConfig supervisor;
};

inline Config rate_hz(std::uint32_t hz) {
  Config c;
  c.rate_hz = hz;
  return c;
}

}  // namespace attractor::rt
