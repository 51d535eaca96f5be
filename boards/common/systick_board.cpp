// SPDX-License-Identifier: Apache-2.0
// board:: tick and cost clock for boards whose tick is the SysTick (the mps2 images): tick
// from boards/common/systick.cpp; cost clock DWT CYCCNT when the core has one that counts
// (real silicon), otherwise the SysTick's own 32-bit extended count (QEMU: CYCCNT reads 0).
// Idle is WFI, with the board's idle guard (idle_guard.hpp) running beside the tick.
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/cortex_m.hpp"
#include "attractor/board/idle_guard.hpp"
#include "attractor/board/tick_dispatch.hpp"

#ifndef ATTRACTOR_SYSTICK_HZ
#error "ATTRACTOR_SYSTICK_HZ must come from the board's board.cmake (BOARD_SYSTICK_HZ)"
#endif

namespace attractor::board {
namespace {
bool g_dwt_checked = false;
bool g_dwt = false;
bool dwt() {
  if (!g_dwt_checked) {
    g_dwt_checked = true;
    g_dwt = attractor::cortex_m::dwt_cycle_counter_start();
  }
  return g_dwt;
}
}  // namespace

bool tick_start(std::uint32_t rate_hz, bool (*sample)(void*), void (*control)(void*), void* ctx) {
  if (sample == nullptr || control == nullptr) return false;
  dwt();
  dispatch::set(sample, control, ctx);
  if (!systick::start_tick(rate_hz, ATTRACTOR_SYSTICK_HZ)) {
    dispatch::clear();
    return false;
  }
  idle_guard::start(systick::tick_counts());
  return true;
}

void tick_stop() {
  idle_guard::stop();
  systick::stop();
  dispatch::clear();
}

std::uint32_t tick_rate_hz() { return systick::rate_hz(); }
std::uint32_t cost_now() { return dwt() ? attractor::cortex_m::reg(attractor::cortex_m::dwt::CYCCNT) : systick::now(); }
std::uint32_t cost_hz() { return ATTRACTOR_SYSTICK_HZ; }
std::uint32_t cost_mask() { return 0xFFFFFFFFu; }
const char* cost_unit() { return dwt() ? "cycles" : "systick counts"; }
void wait_for_interrupt() { attractor::cortex_m::wfi(); }

}  // namespace attractor::board
