// SPDX-License-Identifier: Apache-2.0
// Capability uart_rx_wait on the STM32F405 (USART1): the HIL lockstep's byte wait, the same
// scheme as the mps2 one (boards/common/cmsdk_uart_rx_wait.cpp; docs/hil.md "Determinism under
// QEMU"): interrupts masked once (cpsid i), USART1's RXNE interrupt enabled in the USART
// (CR1.RXNEIE) and in the NVIC (IRQ 37), then WFI until RXNE; no handler ever runs and no timer
// is armed by the wait. The board runs no tick while the lockstep runs (nothing calls
// tick_start) and its watchdog (IWDG) only once watchdog_start() is called.
// Registers: RM0090 §30.6 (USART), §12.2 Table 62 (IRQ 37); ARMv7-M ARM B3.4 (NVIC), B3.3
// (SysTick), B1.5.19 (WFI wakes on a pending interrupt also while PRIMASK masks it).
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/cortex_m.hpp"
#include "stm32f405.hpp"

namespace attractor::board {

namespace {
namespace st = attractor::stm32f405;
namespace cm = attractor::cortex_m;
constexpr std::uint32_t kSysTickCsr = 0xE000E010u;
}  // namespace

void uart_rx_wait_start() {
  initialize();  // USART1 on, 115200 8N1 (idempotent)
  __asm__ volatile("cpsid i" ::: "memory");
  st::reg(kSysTickCsr) = 0u;  // no SysTick while waiting: under -icount it would expire at once
  // Clear first, then enable: a host byte already received (RXNE) raises the line when RXNEIE
  // is set, and that pending bit must survive (cleared after, the first WFI slept for ever).
  cm::nvic::clear_pending(st::usart1::IRQ);
  st::reg(st::usart1::CR1) |= st::usart1::CR1_RXNEIE;
  cm::nvic::enable(st::usart1::IRQ);  // pends, never taken while masked; wakes WFI
}

// WFI always, also when the byte is already there (its pending IRQ makes WFI return at once),
// so the instructions executed do not depend on when the host's byte arrived. The pending bit
// is cleared before DR is read: while RXNE is set the USART holds the next byte back, and
// reading DR (which clears RXNE) lets it in, pending again for the next WFI. A wake without
// RXNE clears the pending bit too, so a stale one cannot keep WFI from sleeping.
bool uart_rx_wait_read(unsigned char& byte) {
  __asm__ volatile("dsb\n wfi" ::: "memory");
  cm::nvic::clear_pending(st::usart1::IRQ);
  __asm__ volatile("dsb" ::: "memory");
  if ((st::reg(st::usart1::SR) & st::usart1::SR_RXNE) == 0u) return false;
  byte = static_cast<unsigned char>(st::reg(st::usart1::DR) & 0xFFu);
  return true;
}

}  // namespace attractor::board
