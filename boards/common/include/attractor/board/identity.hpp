// SPDX-License-Identifier: Apache-2.0
// Board identity (boards/common/identity.cpp): the reset handler checks, before main(), that
// the image runs on the board it was built for, and stops with a clear message if not (an image
// for one board runs on another board's QEMU model and would report costs several times wrong).
#pragma once

#include <cstdint>

namespace attractor::board {

// What the image expects and what it found (CPUID part number, board ID register).
struct Identity {
  std::uint32_t cpuid;     // SCB CPUID (ARMv7-M ARM B3.2.3)
  std::uint32_t board_id;  // mps2: SCC ID (0x4002FFFC); STM32F405: DBGMCU IDCODE (0xE0042000)
  std::uint32_t ictr;      // NVIC ICTR: number of interrupt lines (tells STM32 from mps2 models)
};

// Read the identity registers of the running machine (for this board's register layout).
Identity read_identity();
// True when the running machine is the board this image was built for.
bool identity_matches(const Identity& found);
// Called by the reset handler: on a mismatch, prints "BOARD MISMATCH: ..." and exits (code 3).
void check_board_identity();

// The address read for the board ID; a bus fault there means "not this board family".
std::uintptr_t identity_probe_address();

}  // namespace attractor::board
