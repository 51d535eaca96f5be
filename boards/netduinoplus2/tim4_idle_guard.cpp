// SPDX-License-Identifier: Apache-2.0
// The idle guard (attractor/board/idle_guard.hpp) of QEMU's netduinoplus2, started by board.cpp
// only under the emulator (on silicon WFI sleeps until the TIM2 tick): TIM4 counting QEMU's
// fixed 1 GHz timer clock, update interrupt enabled in the timer (QEMU's STM32 timer model
// re-arms only then) but never in the NVIC (IRQ 30 stays disabled, so it wakes nothing).
// Period: half the tick's, so it stays below the SysTick tick's (QEMU makes 168000 SysTick
// counts 999 999 ns). PSC, CNT and EGR are never written: QEMU's model adds the virtual time
// of such a write to every period. Registers: RM0090 §18.4 (stm32f405.hpp).
#include <cstdint>

#include "attractor/board/cortex_m.hpp"
#include "attractor/board/idle_guard.hpp"
#include "stm32f405.hpp"

namespace attractor::board::idle_guard {
namespace {
namespace st = attractor::stm32f405;
}  // namespace

void start(std::uint32_t tick_counts) {
  if (tick_counts < 4u) return;
  const std::uint32_t t = st::tim::TIM4;
  st::reg(st::rcc::APB1ENR) |= st::rcc::APB1ENR_TIM4EN;
  attractor::cortex_m::nvic::disable(st::tim::TIM4_IRQ);
  st::reg(t + st::tim::CR1) = 0u;
  st::reg(t + st::tim::DIER) = st::tim::DIER_UIE;
  st::reg(t + st::tim::CR1) = st::tim::CR1_CEN;
  st::reg(t + st::tim::ARR) = tick_counts / 2u;  // the write arms QEMU's alarm
}

void stop() {
  const std::uint32_t t = st::tim::TIM4;
  st::reg(t + st::tim::CR1) = 0u;
  st::reg(t + st::tim::DIER) = 0u;
  attractor::cortex_m::nvic::clear_pending(st::tim::TIM4_IRQ);
}

}  // namespace attractor::board::idle_guard
