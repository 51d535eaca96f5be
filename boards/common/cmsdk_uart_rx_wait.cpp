// SPDX-License-Identifier: Apache-2.0
// Capability uart_rx_wait on the Arm MPS2 images (CMSDK APB UART0): the HIL lockstep's byte
// wait, measured deterministic under QEMU -icount (TOOLCHAIN facts, "Deterministic lockstep over
// the UART"; docs/hil.md "Determinism under QEMU"): interrupts masked once (cpsid i), UART0 RX
// interrupt enabled in the UART (CTRL = 0xB) and in the NVIC (IRQ 0), then WFI until RXFULL; the
// interrupt is cleared in the UART and the NVIC, then the byte read, so no handler ever runs and
// no timer is armed while waiting. Busy-polling gave ~50 frames/s and a host-timing-dependent
// cost-clock phase; reading in an interrupt handler was host-timing dependent too.
// Registers: Arm Cortex-M System Design Kit TRM (DDI 0479C) §4.3 (UART), §4.6 (APB watchdog);
// ARMv7-M ARM B3.4 (NVIC), B3.3 (SysTick); AN385 §3.7 (FPGA I/O COUNTER at 0x4002 8018).
#include <cstdint>

#include "attractor/board/board.hpp"

namespace attractor::board {
namespace {

inline volatile std::uint32_t& reg(std::uint32_t a) {
  return *reinterpret_cast<volatile std::uint32_t*>(static_cast<std::uintptr_t>(a));
}

constexpr std::uint32_t kData = 0x40004000u, kState = 0x40004004u, kCtrl = 0x40004008u, kIntClear = 0x4000400Cu,
                        kBaudDiv = 0x40004010u;
constexpr std::uint32_t kRxFull = 1u << 1, kRxInt = 1u << 1;
constexpr std::uint32_t kCtrlTxRxRxInt = 0xBu;  // TX enable | RX enable | RX interrupt enable
constexpr std::uint32_t kNvicIser0 = 0xE000E100u, kNvicIcpr0 = 0xE000E280u, kUart0RxIrqBit = 1u << 0;
constexpr std::uint32_t kSysTickCsr = 0xE000E010u;
constexpr std::uint32_t kWdogLoad = 0x40008000u, kWdogLock = 0x40008C00u, kWdogUnlock = 0x1ACCE551u;
constexpr std::uint32_t kFpgaCounter = 0x40028018u;
constexpr std::uint32_t kPclkHz = 25000000u, kBaud = 115200u;

}  // namespace

// Stops SysTick (the board's free-running cost clock: any timer armed while waiting expires at
// once under -icount sleep=off and made the cost clock's phase host-dependent; the lockstep
// measures cost on reference_now(), the FPGA counter QEMU computes from virtual time on read).
void uart_rx_wait_start() {
  __asm__ volatile("cpsid i" ::: "memory");
  reg(kSysTickCsr) = 0u;
  // QEMU starts the CMSDK watchdog's timer at reset and CTRL = 0 does not stop it; waiting
  // would warp virtual time to its expiry (171.8 s) depending on host timing. Unlocked,
  // LOAD = 1 makes it expire twice within a few counts, after which the model stops its timer
  // (no interrupt, no reset: INTEN and RESEN are 0) (docs/runtime.md, "Watchdog").
  reg(kWdogLock) = kWdogUnlock;
  reg(kWdogLoad) = 1u;
  const std::uint32_t t0 = reg(kFpgaCounter);
  while (reg(kFpgaCounter) - t0 < 16u) {
  }
  reg(kBaudDiv) = kPclkHz / kBaud;
  reg(kCtrl) = kCtrlTxRxRxInt;
  reg(kNvicIcpr0) = kUart0RxIrqBit;
  reg(kNvicIser0) = kUart0RxIrqBit;  // UART0 RX: pends, never taken while masked; wakes WFI
}

// WFI always, also when the byte is already there (its pending IRQ makes WFI return at once):
// the instructions executed must not depend on when the host's byte arrived.
bool uart_rx_wait_read(unsigned char& byte) {
  __asm__ volatile("dsb\n wfi" ::: "memory");
  if ((reg(kState) & kRxFull) == 0u) return false;
  // Clear the interrupt before reading DATA: the read frees the one-byte buffer, QEMU may
  // deliver the next byte at once, and its interrupt must stay pending for the next WFI.
  reg(kIntClear) = kRxInt;
  reg(kNvicIcpr0) = kUart0RxIrqBit;
  __asm__ volatile("dsb" ::: "memory");
  byte = static_cast<unsigned char>(reg(kData) & 0xFFu);
  return true;
}

}  // namespace attractor::board
