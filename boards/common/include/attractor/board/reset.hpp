// SPDX-License-Identifier: Apache-2.0
// A software-requested system reset and the RAM record that survives it, for every Cortex-M
// board built with cmake/cortex-m.ld.in. The reset is SYSRESETREQ in the SCB's AIRCR (ARMv7-M
// ARM B3.2.6; ARMv6-M the same): it resets the core and, on every board here, the peripherals,
// without a debugger or an emulator monitor, so a host can ask for it over the serial link on a
// real board as in QEMU (which implements it as a guest-requested system reset). The record is
// at `_noinit_start` (top of RAM, outside every section: startup code and loaders leave it).
#pragma once

#include <cstdint>

#include "attractor/board/cortex_m.hpp"
#include "attractor/rt/boot_record.hpp"

extern "C" std::uint32_t _noinit_start[];  // linker script: 64 bytes that survive a reset

namespace attractor::board {

static_assert(sizeof(rt::BootRecord) <= 64, "the boot record fits the reset-surviving words");

inline rt::BootRecord& boot_record() { return *reinterpret_cast<rt::BootRecord*>(_noinit_start); }

// Records the request (the next boot reports BootReason::host_request) and resets the system.
[[noreturn]] inline void system_reset_requested() {
  rt::mark_reset_request(boot_record());
  constexpr std::uint32_t kAircr = 0xE000ED0Cu;      // B3.2.6
  constexpr std::uint32_t kVectKey = 0x05FAu << 16;  // write key
  constexpr std::uint32_t kSysResetReq = 1u << 2;
  constexpr std::uint32_t kPriGroup = 0x7u << 8;  // kept as it is
  __asm__ volatile("dsb" ::: "memory");           // the record is in RAM before the reset
  cortex_m::reg(kAircr) = kVectKey | (cortex_m::reg(kAircr) & kPriGroup) | kSysResetReq;
  __asm__ volatile("dsb" ::: "memory");
  for (;;) {
    __asm__ volatile("nop");  // the reset takes effect within a few cycles
  }
}

}  // namespace attractor::board
