// SPDX-License-Identifier: Apache-2.0
// The idle guard: lets a board idle with WFI under QEMU's -icount without bending time.
//
// With -icount shift=0,sleep=off, QEMU 7.2 jumps virtual time to the next timer deadline when
// the core executes WFI. A periodic SysTick or CMSDK timer re-arms itself *before* it raises
// its interrupt; seen while the core is still halted, that re-arm jumps time by a second whole
// period, so a WFI-idled tick arrives every two periods. A second periodic timer with its
// interrupt disabled, period <= the tick's and expiring between ticks, is always the earlier
// deadline: the tick's re-arm never triggers the second jump, the tick arrives on time, and an
// idle millisecond costs the host almost nothing. docs/boards.md ("Idle under QEMU") has the
// measurements. On silicon WFI simply sleeps until the tick and no guard is needed.
#pragma once

#include <cstdint>

namespace attractor::board::idle_guard {

// Start the guard beside a tick just started, whose period is `tick_counts` counts of the
// guard timer's clock: period <= the tick's, first expiry about half a period from now.
void start(std::uint32_t tick_counts);
// Stop it (with the tick): no timer is left armed for whatever waits next.
void stop();

}  // namespace attractor::board::idle_guard
