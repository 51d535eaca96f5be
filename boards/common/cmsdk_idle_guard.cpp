// SPDX-License-Identifier: Apache-2.0
// The idle guard (attractor/board/idle_guard.hpp) of the Arm MPS2 images: CMSDK APB TIMER1,
// clocked by the same 25 MHz PCLK as the SysTick tick, its interrupt never enabled (neither
// CTRL.IRQEN nor NVIC IRQ 9). On real MPS2 hardware it is a free-running timer nobody reads.
// References: Arm Cortex-M System Design Kit TRM (DDI 0479C) §4.4 "Timer" (CTRL 0x00: bit0
// enable, bit3 interrupt enable; VALUE 0x04; RELOAD 0x08); Arm AN385 application note §3.3
// (TIMER1 at 0x4000 1000, IRQ 9).
#include <cstdint>

#include "attractor/board/cortex_m.hpp"
#include "attractor/board/idle_guard.hpp"

namespace attractor::board::idle_guard {
namespace {
namespace timer1 {
constexpr std::uint32_t BASE = 0x40001000u;
constexpr std::uint32_t CTRL = BASE + 0x00u;
constexpr std::uint32_t VALUE = BASE + 0x04u;
constexpr std::uint32_t RELOAD = BASE + 0x08u;
constexpr std::uint32_t CTRL_ENABLE = 1u << 0;  // IRQEN (bit 3) deliberately left 0
}  // namespace timer1
using attractor::cortex_m::reg;
}  // namespace

void start(std::uint32_t tick_counts) {
  if (tick_counts < 2u) return;
  reg(timer1::CTRL) = 0u;
  reg(timer1::RELOAD) = tick_counts - 1u;        // the tick's period (SysTick RVR + 1 counts)
  reg(timer1::VALUE) = (tick_counts - 1u) / 2u;  // first expiry half a period from now
  reg(timer1::CTRL) = timer1::CTRL_ENABLE;
}

void stop() { reg(timer1::CTRL) = 0u; }

}  // namespace attractor::board::idle_guard
