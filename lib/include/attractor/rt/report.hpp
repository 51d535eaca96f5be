// SPDX-License-Identifier: Apache-2.0
// The runtime's report: counts, cost statistics, the supervisor's verdict and the stack mark.
#pragma once

#include <cstdint>

#include "attractor/rt/stats.hpp"
#include "attractor/rt/supervisor.hpp"

namespace attractor::rt {

using Stats = CostStats<32>;

// Everything the runtime knows after (or during) a run. Tick and step counts are 64-bit: at
// 1 kHz a 32-bit count wrapped after 49.7 days.
struct Report {
  std::uint32_t rate_hz = 0;
  std::uint64_t ticks = 0;         // tick interrupts taken
  std::uint64_t steps = 0;         // control steps completed
  std::uint64_t missed_ticks = 0;  // tick interrupts that found the previous step still running
  std::uint64_t overruns = 0;      // control steps whose cost exceeded the budget
  std::uint32_t budget = 0;        // cost budget per step, cost-clock counts
  std::uint32_t cost_hz = 0;       // cost clock frequency
  Stats cost;                      // per-step cost from the tick instant to the end of actuate
  Mode mode = Mode::running;
  Error reason = Error::none;
  std::uint64_t trip_tick = 0;
  FaultCounts faults;
  std::uint32_t stack_used = 0;  // stack high-water mark (painted stack), bytes
  std::uint32_t stack_size = 0;
};

}  // namespace attractor::rt
