// SPDX-License-Identifier: Apache-2.0
// The runtime's report as text lines, and cost-clock counts in nanoseconds.
#pragma once

#include <cstdint>

#include "attractor/core/text.hpp"
#include "attractor/rt/report.hpp"
#include "attractor/rt/supervisor.hpp"

namespace attractor::rt {

// Cost in nanoseconds of the cost clock; under QEMU with -icount shift=0 one nanosecond of
// virtual time is one guest instruction (docs/runtime.md).
inline double counts_to_ns(double counts, std::uint32_t cost_hz) {
  return cost_hz ? counts * 1e9 / static_cast<double>(cost_hz) : 0.0;
}

// Print a report line by line through write(const char*) (e.g. Board::write).
template <class Write>
void write_report(const Report& r, Write&& write) {
  Text<160> t;
  t << "rt: " << r.ticks << " ticks at " << r.rate_hz << " Hz, " << r.steps << " steps, " << r.missed_ticks
    << " missed, " << r.overruns << " overruns\n";
  write(t.c_str());
  t.clear();
  t << "rt: mode " << to_string(r.mode) << ", reason " << to_string(r.reason) << " at tick " << r.trip_tick << "\n";
  write(t.c_str());
  t.clear();
  t << "rt: faults non_finite " << r.faults.non_finite << " out_of_range " << r.faults.out_of_range << " stale "
    << r.faults.stale << " overrun " << r.faults.overrun << " envelope " << r.faults.envelope << " saturated "
    << r.faults.saturated << "\n";
  write(t.c_str());
  t.clear();
  t << "rt: cost counts min " << r.cost.min() << " median~ " << r.cost.median_estimate() << " max " << r.cost.max()
    << " mean ";
  t.fixed(r.cost.mean(), 2);
  t << " budget " << r.budget << " @ " << r.cost_hz << " Hz\n";
  write(t.c_str());
  t.clear();
  t << "rt: cost ns min ";
  t.fixed(counts_to_ns(r.cost.min(), r.cost_hz), 0);
  t << " mean ";
  t.fixed(counts_to_ns(r.cost.mean(), r.cost_hz), 1);
  t << " max ";
  t.fixed(counts_to_ns(r.cost.max(), r.cost_hz), 0);
  t << " (= instructions under QEMU -icount shift=0)\n";
  write(t.c_str());
  t.clear();
  t << "rt: histogram (bucket " << r.cost.bin_width() << " counts):";
  for (int i = 0; i < Stats::bins; ++i) {
    if (r.cost.bin(i) != 0u) t << " [" << r.cost.bin_low(i) << "]=" << r.cost.bin(i);
  }
  t << "\n";
  write(t.c_str());
  t.clear();
  t << "rt: stack " << r.stack_used << " of " << r.stack_size << " bytes\n";
  write(t.c_str());
}

}  // namespace attractor::rt
