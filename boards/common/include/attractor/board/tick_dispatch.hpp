// SPDX-License-Identifier: Apache-2.0
// Shared plumbing of the runtime's two interrupts, used by every tick driver (SysTick,
// STM32 TIM2): the timer interrupt calls sample(ctx) and, when it returns true, pends PendSV;
// PendSV (lowest priority, boards/common/systick.cpp) calls control(ctx).
#pragma once

#include "attractor/board/cortex_m.hpp"

namespace attractor::board::dispatch {

extern bool (*volatile sample)(void*);
extern void (*volatile control)(void*);
extern void* volatile ctx;

inline void set(bool (*s)(void*), void (*c)(void*), void* x) {
  sample = s;
  control = c;
  ctx = x;
}
inline void clear() { set(nullptr, nullptr, nullptr); }

// Body of the tick timer's interrupt handler (after acknowledging the timer).
inline void on_timer() {
  bool (*s)(void*) = sample;
  if (s != nullptr && s(ctx)) attractor::cortex_m::pend_pendsv();
}

}  // namespace attractor::board::dispatch

namespace attractor::board::systick {
// The SysTick driver (boards/common/systick.cpp). clock_hz: SysTick input (processor clock).
// Tick mode: interrupt every round(clock_hz / rate_hz) counts, calling dispatch::on_timer().
bool start_tick(std::uint32_t rate_hz, std::uint32_t clock_hz);
// Free-running mode (no tick): only extends the counter to 32 bits for now().
void start_free();
void stop();                  // tick off; SysTick keeps free-running for now()
std::uint32_t now();          // 32-bit count of SysTick input clocks (mod 2^32)
std::uint32_t rate_hz();      // tick rate actually produced, 0 when not ticking
std::uint32_t tick_counts();  // SysTick input clocks per tick period (RVR + 1), 0 when not ticking
}  // namespace attractor::board::systick
