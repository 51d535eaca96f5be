// SPDX-License-Identifier: Apache-2.0
// CMSDK APB watchdog of the mps2 images (Arm Cortex-M System Design Kit TRM, DDI 0479C,
// 4.11; QEMU hw/watchdog/cmsdk-apb-watchdog.c): a 32-bit down-counter at WDOGCLK (the 25 MHz
// system clock). At zero it raises WDOGINT (INTEN; QEMU connects it to NMI) and reloads; if the
// interrupt is still set at the next zero it asserts reset (RESEN).
#include <cstdint>

#include "attractor/board/cortex_m.hpp"
#include "attractor/board/watchdog.hpp"

namespace attractor::board {
namespace {
namespace cm = attractor::cortex_m;
constexpr std::uint32_t BASE = 0x40008000u;
constexpr std::uint32_t LOAD = BASE + 0x000u, CTRL = BASE + 0x008u, INTCLR = BASE + 0x00Cu, LOCK = BASE + 0xC00u;
constexpr std::uint32_t UNLOCK_KEY = 0x1ACCE551u;
constexpr std::uint32_t CTRL_INTEN = 1u << 0, CTRL_RESEN = 1u << 1;
constexpr std::uint32_t kWdogClockHz = 25000000u;
std::uint32_t g_load = 0;
}  // namespace

bool watchdog_start(std::uint32_t timeout_ms) {
  const std::uint64_t load = static_cast<std::uint64_t>(kWdogClockHz / 1000u) * timeout_ms;
  if (timeout_ms == 0u || load > 0xFFFFFFFFull) return false;
  g_load = static_cast<std::uint32_t>(load);
  cm::reg(LOCK) = UNLOCK_KEY;
  cm::reg(INTCLR) = 1u;
  cm::reg(LOAD) = g_load;  // a write to LOAD reloads the counter
  cm::reg(CTRL) = CTRL_INTEN | CTRL_RESEN;
  return true;
}

// Not started (g_load 0): no write — a LOAD of 0 would be a zero-period reload (QEMU prints
// "Timer with delta zero, disabling" every tick).
void watchdog_feed() {
  if (g_load != 0u) cm::reg(LOAD) = g_load;
}

void watchdog_stop() {
  cm::reg(LOCK) = UNLOCK_KEY;
  cm::reg(CTRL) = 0u;
  cm::reg(INTCLR) = 1u;
}

}  // namespace attractor::board
