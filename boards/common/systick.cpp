// SPDX-License-Identifier: Apache-2.0
// SysTick driver (ARMv7-M ARM B3.3) and the PendSV control interrupt, shared by the boards.
// Tick mode: the SysTick interrupt (priority 0, highest) is the runtime's sampling interrupt;
// PendSV (priority 0xFF, lowest) runs the control step — the sample/control split of
// lib/include/attractor/rt/tick.hpp.
//
// 32-bit time from the 24-bit down-counter, counting reloads in the handler:
//     now = reloads * (RVR + 1) + (RVR - CVR)          (mod 2^32)
// With no tick, SysTick free-runs with RVR = 2^24 - 1 so now() keeps working.
// SysTick clock: the processor clock (CSR.CLKSOURCE = 1). Under QEMU with -icount shift=0
// one count is 1e9 / clock_hz instructions (40 on mps2 at 25 MHz).
#include <cstdint>

#include "attractor/board/cortex_m.hpp"
#include "attractor/board/tick_dispatch.hpp"

namespace attractor::board {

namespace dispatch {
bool (*volatile sample)(void*) = nullptr;
void (*volatile control)(void*) = nullptr;
void* volatile ctx = nullptr;
}  // namespace dispatch

namespace systick {
namespace {

namespace cm = attractor::cortex_m;

volatile std::uint32_t g_reloads = 0;  // wraps since the counter was (re)started
volatile std::uint32_t g_reload = cm::systick::MAX_RELOAD;
volatile bool g_ticking = false;
std::uint32_t g_rate = 0;

void restart(std::uint32_t reload) {
  cm::reg(cm::systick::CSR) = 0u;
  cm::reg(cm::scb::ICSR) = cm::scb::ICSR_PENDSTCLR;
  g_reload = reload;
  g_reloads = 0;
  cm::reg(cm::systick::RVR) = reload;
  cm::reg(cm::systick::CVR) = 0u;  // any write clears the counter (B3.3.5)
  cm::set_systick_priority(0x00);
  cm::set_pendsv_priority(0xFF);
  cm::reg(cm::systick::CSR) = cm::systick::CSR_ENABLE | cm::systick::CSR_TICKINT | cm::systick::CSR_CLKSOURCE;
  // QEMU 7.2 reads CVR = 0 until the first reload (docs/boards.md, "QEMU facts"); silicon
  // reloads on the next clock. Bounded wait: never hangs.
  for (int i = 0; i < 1000 && cm::reg(cm::systick::CVR) == 0u; ++i) {
  }
}

}  // namespace

bool start_tick(std::uint32_t rate, std::uint32_t clock_hz) {
  if (rate == 0u) return false;
  const std::uint32_t counts = (clock_hz + rate / 2u) / rate;
  if (counts < 2u || counts - 1u > cm::systick::MAX_RELOAD) return false;
  g_ticking = false;
  g_rate = clock_hz / counts;
  restart(counts - 1u);
  g_ticking = true;
  return true;
}

void start_free() {
  g_ticking = false;
  g_rate = 0;
  restart(cm::systick::MAX_RELOAD);
}

void stop() {
  g_ticking = false;
  cm::reg(cm::systick::CSR) = 0u;
  cm::reg(cm::scb::ICSR) = cm::scb::ICSR_PENDSTCLR | cm::scb::ICSR_PENDSVCLR;
  start_free();
}

std::uint32_t rate_hz() { return g_rate; }

std::uint32_t tick_counts() { return g_ticking ? g_reload + 1u : 0u; }

std::uint32_t now() {
  if ((cm::reg(cm::systick::CSR) & cm::systick::CSR_ENABLE) == 0u) start_free();
  std::uint32_t n, v;
  do {
    n = g_reloads;
    v = cm::reg(cm::systick::CVR);
  } while (n != g_reloads);
  const std::uint32_t reload = g_reload;
  // The counter runs RVR, ..., 1, 0 and interrupts as it reaches 0; CVR stays 0 for one
  // count before the reload (at 25 MHz under -icount that is 40 instructions, so the handler
  // itself reads 0). Time after n counted wraps: n*P + RVR - CVR for CVR != 0, and n*P - 1
  // for CVR == 0 (the wrap just counted). A wrap pending but not yet counted (caller at
  // SysTick priority or with interrupts masked) belongs to the next period.
  const bool pending = (cm::reg(cm::scb::ICSR) & cm::scb::ICSR_PENDSTSET) != 0u;
  const std::uint32_t period = reload + 1u;
  if (v == 0u) return n * period - 1u + (pending ? period : 0u);
  if (pending && v > reload / 2u) ++n;
  return n * period + (reload - v);
}

}  // namespace systick
}  // namespace attractor::board

// Vector table entries (boards/common/startup.cpp declares them weak).
extern "C" void SysTick_Handler() {
  using namespace attractor::board::systick;
  g_reloads = g_reloads + 1u;
  if (g_ticking) attractor::board::dispatch::on_timer();
}

extern "C" void PendSV_Handler() {
  void (*control)(void*) = attractor::board::dispatch::control;
  if (control != nullptr) control(attractor::board::dispatch::ctx);
}
