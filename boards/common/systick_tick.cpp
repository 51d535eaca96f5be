// Tick and cost clock on the Cortex-M SysTick (ARMv7-M ARM B3.3), for any board: the tick is
// the SysTick interrupt (priority 0, highest), the control step runs in PendSV (priority
// 0xFF, lowest) — the sampling/control split of lib/include/attractor/rt/tick.hpp.
//
// Cost clock: DWT CYCCNT when the core has one that counts (real silicon), otherwise the
// SysTick itself extended to 32 bits by counting reloads in the handler:
//     now = reloads * (RVR + 1) + (RVR - CVR)          (mod 2^32)
// With no tick running, SysTick free-runs with RVR = 2^24 - 1 for the cost clock alone.
//
// SysTick clock: the processor clock (CSR.CLKSOURCE = 1), ATTRACTOR_SYSTICK_HZ from the
// board's board.cmake (BOARD_SYSTICK_HZ). Under QEMU with -icount shift=0 one count is
// 1e9 / ATTRACTOR_SYSTICK_HZ instructions (40 on mps2 at 25 MHz).
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/cortex_m.hpp"

#ifndef ATTRACTOR_SYSTICK_HZ
#error "ATTRACTOR_SYSTICK_HZ must come from the board's board.cmake (BOARD_SYSTICK_HZ)"
#endif

namespace attractor::board {
namespace {

namespace cm = attractor::cortex_m;

bool (*volatile g_sample)(void*) = nullptr;
void (*volatile g_control)(void*) = nullptr;
void* volatile g_ctx = nullptr;
volatile std::uint32_t g_reloads = 0;   // SysTick wraps since the counter was (re)started
volatile std::uint32_t g_reload = cm::systick::MAX_RELOAD;
volatile std::uint32_t g_rate = 0;
bool g_dwt_checked = false;
bool g_dwt = false;

// (Re)start SysTick with the given reload, interrupt on, processor clock.
void systick_start(std::uint32_t reload) {
  cm::reg(cm::systick::CSR) = 0u;
  cm::reg(cm::scb::ICSR) = cm::scb::ICSR_PENDSTCLR;
  g_reload = reload;
  g_reloads = 0;
  cm::reg(cm::systick::RVR) = reload;
  cm::reg(cm::systick::CVR) = 0u;  // any write clears the counter (B3.3.5)
  cm::set_systick_priority(0x00);
  cm::set_pendsv_priority(0xFF);
  cm::reg(cm::systick::CSR) =
      cm::systick::CSR_ENABLE | cm::systick::CSR_TICKINT | cm::systick::CSR_CLKSOURCE;
  // QEMU 7.2 reads CVR = 0 until the first reload (../shared/TOOLCHAIN-FACTS.md); silicon
  // reloads on the next clock. Bounded wait: never hangs.
  for (int i = 0; i < 1000 && cm::reg(cm::systick::CVR) == 0u; ++i) {
  }
}

void ensure_cost_clock() {
  if (!g_dwt_checked) {
    g_dwt_checked = true;
    g_dwt = cm::dwt_cycle_counter_start();
  }
  if (!g_dwt && (cm::reg(cm::systick::CSR) & cm::systick::CSR_ENABLE) == 0u) {
    systick_start(cm::systick::MAX_RELOAD);
  }
}

}  // namespace

bool tick_start(std::uint32_t rate_hz, bool (*sample)(void*), void (*control)(void*), void* ctx) {
  if (rate_hz == 0u || sample == nullptr || control == nullptr) return false;
  const std::uint32_t counts = (ATTRACTOR_SYSTICK_HZ + rate_hz / 2u) / rate_hz;
  if (counts < 2u || counts - 1u > cm::systick::MAX_RELOAD) return false;
  if (!g_dwt_checked) {
    g_dwt_checked = true;
    g_dwt = cm::dwt_cycle_counter_start();
  }
  cm::reg(cm::systick::CSR) = 0u;
  g_sample = sample;
  g_control = control;
  g_ctx = ctx;
  g_rate = ATTRACTOR_SYSTICK_HZ / counts;
  systick_start(counts - 1u);
  return true;
}

void tick_stop() {
  cm::reg(cm::systick::CSR) = 0u;
  cm::reg(cm::scb::ICSR) = cm::scb::ICSR_PENDSTCLR | cm::scb::ICSR_PENDSVCLR;
  g_sample = nullptr;
  g_control = nullptr;
  g_ctx = nullptr;
  g_rate = 0;
  if (!g_dwt) systick_start(cm::systick::MAX_RELOAD);  // keep a cost clock running
}

std::uint32_t tick_rate_hz() { return g_rate; }

std::uint32_t cost_now() {
  if (g_dwt) return cm::reg(cm::dwt::CYCCNT);
  ensure_cost_clock();
  std::uint32_t n, v;
  do {
    n = g_reloads;
    v = cm::reg(cm::systick::CVR);
  } while (n != g_reloads);
  const std::uint32_t reload = g_reload;
  // The counter runs RVR, ..., 1, 0 and interrupts as it reaches 0; CVR stays 0 for one
  // count before the reload (QEMU and silicon alike: at 25 MHz under -icount that is 40
  // instructions, so the handler itself reads 0). Time within the period after n counted
  // wraps: n*P + RVR - CVR for CVR != 0, and n*P - 1 for CVR == 0 (the wrap just counted).
  // If the wrap is pending but not yet counted (caller at SysTick priority or masked),
  // it belongs to the next period.
  const bool pending = (cm::reg(cm::scb::ICSR) & cm::scb::ICSR_PENDSTSET) != 0u;
  const std::uint32_t period = reload + 1u;
  if (v == 0u) return n * period - 1u + (pending ? period : 0u);
  if (pending && v > reload / 2u) ++n;
  return n * period + (reload - v);
}

std::uint32_t cost_hz() { return ATTRACTOR_SYSTICK_HZ; }
std::uint32_t cost_mask() { return 0xFFFFFFFFu; }
const char* cost_unit() {
  ensure_cost_clock();
  return g_dwt ? "cycles" : "systick counts";
}

void wait_for_interrupt() { cm::wfi(); }

}  // namespace attractor::board

// Vector table entries (boards/common/startup.cpp declares them weak).
extern "C" void SysTick_Handler() {
  using namespace attractor::board;
  g_reloads = g_reloads + 1u;
  bool (*sample)(void*) = g_sample;
  if (sample != nullptr && sample(g_ctx)) attractor::cortex_m::pend_pendsv();
}

extern "C" void PendSV_Handler() {
  using namespace attractor::board;
  void (*control)(void*) = g_control;
  if (control != nullptr) control(g_ctx);
}
