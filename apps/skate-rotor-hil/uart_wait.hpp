// SPDX-License-Identifier: Apache-2.0
// mps2 (CMSDK APB UART0) byte wait for the HIL lockstep, as measured deterministic under QEMU
// -icount (TOOLCHAIN facts, "Deterministic lockstep over the UART"): interrupts masked once
// (cpsid i), UART0 RX interrupt enabled in the UART (CTRL = 0xB) and in the NVIC (IRQ 0), then
// WFI until RXFULL; the interrupt is cleared in the UART and the NVIC, then the byte read, so no
// handler ever runs and no timer is armed while waiting. Busy-polling gave ~50 frames/s and a
// host-timing-dependent cost-clock phase. Board-specific: belongs in boards/ as a board API
// capability (uart_wait_read) once the board owners take it; kept here beside its only user.
// Registers: Arm Cortex-M System Design Kit TRM (DDI 0479C) §4.3; ARMv7-M ARM B3.4 (NVIC).
#pragma once

#include <cstdint>

namespace skate_hil {

struct Mps2UartWait {
  static volatile std::uint32_t& reg(std::uint32_t a) {
    return *reinterpret_cast<volatile std::uint32_t*>(static_cast<std::uintptr_t>(a));
  }
  static constexpr std::uint32_t kData = 0x40004000u, kState = 0x40004004u, kCtrl = 0x40004008u,
                                 kIntClear = 0x4000400Cu, kBaudDiv = 0x40004010u;
  static constexpr std::uint32_t kRxFull = 1u << 1, kRxInt = 1u << 1;
  static constexpr std::uint32_t kNvicIser0 = 0xE000E100u, kNvicIcpr0 = 0xE000E280u, kSysTickCsr = 0xE000E010u;
  static constexpr std::uint32_t kWdogLoad = 0x40008000u, kWdogLock = 0x40008C00u, kFpgaCounter = 0x40028018u;

  // Once, before the first read: mask interrupts, stop SysTick (the board's free-running cost
  // clock: any timer armed while waiting expires at once under -icount sleep=off and made the
  // cost clock's phase host-dependent; lockstep measures cost on the FPGA counter instead, which
  // QEMU computes from virtual time on read), enable TX, RX and the RX interrupt.
  static void start() {
    __asm__ volatile("cpsid i" ::: "memory");
    reg(kSysTickCsr) = 0u;
    // QEMU starts the CMSDK watchdog's timer at reset and CTRL = 0 does not stop it; waiting
    // would warp virtual time to its expiry (171.8 s) depending on host timing. Unlocked,
    // LOAD = 1 makes it expire twice within a few counts, after which the model stops its timer
    // (no interrupt, no reset: INTEN and RESEN are 0) — guard-study README, "Watchdog pitfall".
    reg(kWdogLock) = 0x1ACCE551u;
    reg(kWdogLoad) = 1u;
    const std::uint32_t t0 = reg(kFpgaCounter);
    while (reg(kFpgaCounter) - t0 < 16u) {
    }
    reg(kBaudDiv) = 25000000u / 115200u;
    reg(kCtrl) = 0xBu;  // TX enable | RX enable | RX interrupt enable
    reg(kNvicIcpr0) = 1u;
    reg(kNvicIser0) = 1u;  // IRQ 0: UART0 RX (pends, never taken while masked: wakes WFI)
  }

  // One wait: true with a byte, false if the core woke for something else (the caller retries).
  // WFI always, also when the byte is already there (its pending IRQ makes WFI return at once):
  // the instructions executed must not depend on when the host's byte arrived.
  static bool read(std::uint8_t& b) {
    __asm__ volatile("dsb\n wfi" ::: "memory");
    if ((reg(kState) & kRxFull) == 0u) return false;
    // Clear the interrupt before reading DATA: the read frees the one-byte buffer, QEMU may
    // deliver the next byte at once, and its interrupt must stay pending for the next WFI.
    reg(kIntClear) = kRxInt;
    reg(kNvicIcpr0) = 1u;
    __asm__ volatile("dsb" ::: "memory");
    b = static_cast<std::uint8_t>(reg(kData) & 0xFFu);
    return true;
  }
};

}  // namespace skate_hil
