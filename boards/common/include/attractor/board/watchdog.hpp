// SPDX-License-Identifier: Apache-2.0
// Hardware watchdog (docs/runtime.md "Watchdog"). rt::run starts it when Config::watchdog_ms
// is non-zero and feeds it after every completed control step, so a hung step (or a runaway
// loop at control priority or above) is caught by hardware:
//   mps2 (CMSDK APB watchdog, 0x40008000, boards/common/watchdog_cmsdk.cpp): the first expiry
//     raises NMI (QEMU wires WDOGINT to NMI) -> the fault path: safe outputs, report, exit; a
//     second expiry with RESEN resets the core (silicon; QEMU resets the machine).
//   STM32F405 (IWDG, boards/common/watchdog_stm32_iwdg.cpp): resets the core on expiry (there
//     is no early interrupt); QEMU 7.2's netduinoplus2 does not model the IWDG, so there it
//     does nothing and the watchdog test runs on the mps2 boards only.
#pragma once

#include <cstdint>

namespace attractor::board {

// Start (or restart) with a timeout in milliseconds. false: no watchdog / timeout not reachable.
bool watchdog_start(std::uint32_t timeout_ms);
// Reload the counter (the "feed").
void watchdog_feed();
// Stop it where the hardware allows (CMSDK: yes; IWDG: cannot be stopped once started).
void watchdog_stop();

}  // namespace attractor::board
