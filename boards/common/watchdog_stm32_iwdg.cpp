// SPDX-License-Identifier: Apache-2.0
// STM32F405 independent watchdog (RM0090 §19: IWDG at 0x40003000, clocked by the ~32 kHz LSI).
// Key register: 0x5555 unlocks PR/RLR, 0xCCCC starts, 0xAAAA reloads. It resets the core on
// expiry and cannot be stopped. QEMU 7.2's netduinoplus2 does not model it (the writes are
// ignored there), so this is for silicon; docs/runtime.md.
#include <cstdint>

#include "attractor/board/cortex_m.hpp"
#include "attractor/board/watchdog.hpp"

namespace attractor::board {
namespace {
namespace cm = attractor::cortex_m;
constexpr std::uint32_t BASE = 0x40003000u;
constexpr std::uint32_t KR = BASE + 0x0u, PR = BASE + 0x4u, RLR = BASE + 0x8u;
constexpr std::uint32_t kLsiHz = 32000u;
}  // namespace

bool watchdog_start(std::uint32_t timeout_ms) {
  // Prescaler /32 (PR = 3): 1 kHz, so RLR is the timeout in ms (12 bits: up to 4095 ms).
  const std::uint32_t reload = timeout_ms * (kLsiHz / 32u) / 1000u;
  if (reload == 0u || reload > 0xFFFu) return false;
  cm::reg(KR) = 0x5555u;
  cm::reg(PR) = 3u;
  cm::reg(RLR) = reload;
  cm::reg(KR) = 0xAAAAu;
  cm::reg(KR) = 0xCCCCu;
  return true;
}

void watchdog_feed() { cm::reg(KR) = 0xAAAAu; }

void watchdog_stop() {}  // the IWDG cannot be stopped

}  // namespace attractor::board
