// SPDX-License-Identifier: Apache-2.0
// Fault containment (boards/common/fault.cpp, docs/runtime.md "Faults"):
//   - an MPU no-access guard region below the main stack (every board here has a PMSAv7 MPU,
//     QEMU 7.2 enforces it), so a stack overflow faults instead of writing below RAM;
//   - MemManage, BusFault and UsageFault enabled (with CCR.DIV_0_TRP: an integer division by
//     zero traps instead of returning 0);
//   - every fault handler first moves SP to a reserved fault stack (the main stack may be
//     exhausted), then calls the registered safe-output hook (actuators to their safe values),
//     then prints the report ("FAULT <kind> CFSR=... [stack overflow]") and ends the image
//     through board::exit(3): QEMU exits with code 3; silicon parks with outputs safe.
#pragma once

#include <cstdint>

namespace attractor::board {

// Called once by the reset handler before main(): MPU stack guard, fault enables, DIV_0_TRP.
void fault_protection_start();

// The hook every fault handler calls first (before printing anything). It must only write
// actuator registers: no stack-hungry work, no waiting. nullptr removes it. rt::run registers
// one that writes the app's zero command.
void set_safe_output(void (*hook)(void* ctx), void* ctx);

// Address range [begin, end) of the MPU guard region (0, 0 when there is no MPU).
std::uintptr_t stack_guard_begin();
std::uintptr_t stack_guard_end();

}  // namespace attractor::board
