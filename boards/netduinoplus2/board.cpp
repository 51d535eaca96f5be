// SPDX-License-Identifier: Apache-2.0
// STM32F405RG (Cortex-M4F, 168 MHz), run in QEMU as 'netduinoplus2' and flashed to real
// STM32F405/F407 boards (docs/boards.md). Register-level: RCC/PLL, GPIO, USART1, TIM2 tick,
// TIM3 PWM, DWT cycle counter; registers in stm32f405.hpp (RM0090 sections cited there).
//
// Silicon vs. QEMU 7.2 (checked with 'info mtree -f' and '-d unimp', docs/boards.md):
//   QEMU models TIM2-5 (counting at a fixed 1 GHz whatever PSC/RCC say, i.e. one count per
//   instruction under -icount shift=0), USART1-6, SYSCFG, EXTI; RCC, GPIO, PWR, FLASH, TIM1/
//   6-14 are "unimplemented": reads 0, writes ignored. RCC_CR reads 0 there, while on silicon
//   HSIRDY is 1 out of reset (the core runs from HSI): that tells the two apart.
//   - silicon: HSE (ATTRACTOR_HSE_HZ, default 8 MHz) -> PLL 168 MHz, APB1 42 MHz (timers
//     84 MHz), APB2 84 MHz; HSE not ready within a bounded wait -> PLL from HSI; PLL not
//     locked within a bounded wait -> stay on HSI 16 MHz (core_clock_hz() says so).
//     Cost clock: DWT CYCCNT (cycles). Console: USART1 115200 8N1; exit parks the core.
//   - QEMU: core clock is the machine's fixed 168 MHz, timers 1 GHz. Cost clock: TIM5
//     free-running at 1 GHz = exact instruction count. Console: semihosting.
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/cortex_m.hpp"
#include "attractor/board/idle_guard.hpp"
#include "attractor/board/semihosting.hpp"
#include "attractor/board/tick_dispatch.hpp"
#include "stm32f405.hpp"

#ifndef ATTRACTOR_HSE_HZ
#define ATTRACTOR_HSE_HZ 8000000u  // STM32F4-Discovery; the Feather STM32F405 has 12 MHz
#endif

// The exit code of a program parked on silicon, for a debugger (`mdw &attractor_exit_code`).
extern "C" {
__attribute__((used)) volatile int attractor_exit_code = 0;
}

namespace attractor::board {

const char* const name = "netduinoplus2";

namespace {

namespace st = attractor::stm32f405;
namespace cm = attractor::cortex_m;
using st::reg;

constexpr std::uint32_t kQemuTimerHz = 1000000000u;  // QEMU stm32f2xx_timer fixed clock
constexpr std::uint32_t kPllHz = 168000000u;
constexpr std::uint32_t kHsiHz = 16000000u;
constexpr int kReadyWait = 200000;  // bounded polls (~25-50 ms at 16 MHz HSI)

bool g_emulated = false;
bool g_dwt = false;
std::uint32_t g_core_hz = kHsiHz;
std::uint32_t g_apb1_timer_hz = kHsiHz;
std::uint32_t g_apb2_hz = kHsiHz;
std::uint32_t g_pwm_arr = 0;

bool wait_set(std::uint32_t address, std::uint32_t mask, std::uint32_t value) {
  for (int i = 0; i < kReadyWait; ++i) {
    if ((reg(address) & mask) == value) return true;
  }
  return false;
}

// RM0090 §6.2 (clock tree) / §7.3: PLL = src / M * N / P, VCO input 2 MHz, VCO 336 MHz.
void clock_init() {
  if ((reg(st::rcc::CR) & st::rcc::CR_HSIRDY) == 0u) {
    // No RCC model (QEMU netduinoplus2): the machine runs at its fixed 168 MHz.
    g_emulated = true;
    g_core_hz = kPllHz;
    g_apb1_timer_hz = kQemuTimerHz;
    g_apb2_hz = kPllHz / 2u;
    return;
  }
  reg(st::rcc::APB1ENR) |= st::rcc::APB1ENR_PWREN;
  reg(st::pwr::CR) |= st::pwr::CR_VOS;
  reg(st::flash::ACR) = st::flash::ACR_LATENCY_5WS | st::flash::ACR_PRFTEN | st::flash::ACR_ICEN | st::flash::ACR_DCEN;
  reg(st::rcc::CR) |= st::rcc::CR_HSEON;
  const bool hse = wait_set(st::rcc::CR, st::rcc::CR_HSERDY, st::rcc::CR_HSERDY);
  const std::uint32_t src_hz = hse ? ATTRACTOR_HSE_HZ : kHsiHz;
  const std::uint32_t m = src_hz / 2000000u;                   // 2 MHz VCO input
  const std::uint32_t n = 168u, p_bits = 0u /* /2 */, q = 7u;  // 48 MHz USB clock
  reg(st::rcc::PLLCFGR) = m | (n << 6) | (p_bits << 16) | (q << 24) | (hse ? st::rcc::PLLCFGR_PLLSRC_HSE : 0u);
  reg(st::rcc::CR) |= st::rcc::CR_PLLON;
  if (!wait_set(st::rcc::CR, st::rcc::CR_PLLRDY, st::rcc::CR_PLLRDY)) {
    // Documented fallback: stay on HSI 16 MHz, all buses undivided.
    g_core_hz = kHsiHz;
    g_apb1_timer_hz = kHsiHz;
    g_apb2_hz = kHsiHz;
    return;
  }
  reg(st::rcc::CFGR) = st::rcc::CFGR_PPRE1_DIV4 | st::rcc::CFGR_PPRE2_DIV2;  // AHB /1
  reg(st::rcc::CFGR) |= st::rcc::CFGR_SW_PLL;
  if (!wait_set(st::rcc::CFGR, st::rcc::CFGR_SWS_MASK, st::rcc::CFGR_SWS_PLL)) {
    reg(st::rcc::CFGR) = 0u;  // back to HSI
    g_core_hz = g_apb1_timer_hz = g_apb2_hz = kHsiHz;
    return;
  }
  g_core_hz = kPllHz;
  g_apb1_timer_hz = kPllHz / 2u;  // APB1 = 42 MHz, timers x2 (RM0090 §6.2)
  g_apb2_hz = kPllHz / 2u;
}

void gpio_mode(unsigned port, unsigned pin, unsigned mode, unsigned af) {
  const std::uint32_t b = st::gpio::base(port);
  reg(b + st::gpio::MODER) = (reg(b + st::gpio::MODER) & ~(3u << (2 * pin))) | (mode << (2 * pin));
  reg(b + st::gpio::OSPEEDR) |= 2u << (2 * pin);  // fast
  const std::uint32_t afr = b + (pin < 8 ? st::gpio::AFRL : st::gpio::AFRH);
  const unsigned s = 4u * (pin & 7u);
  reg(afr) = (reg(afr) & ~(0xFu << s)) | (af << s);
}

void usart1_init() {
  reg(st::rcc::AHB1ENR) |= st::rcc::AHB1ENR_GPIOAEN;
  reg(st::rcc::APB2ENR) |= st::rcc::APB2ENR_USART1EN;
  gpio_mode(st::gpio::PORT_A, 9, 2u, 7u);   // PA9 USART1_TX, AF7 (STM32F405 datasheet Table 9)
  gpio_mode(st::gpio::PORT_A, 10, 2u, 7u);  // PA10 USART1_RX, AF7
  // BRR = f_APB2 / baud in 12.4 fixed point (oversampling 16, RM0090 §30.3.4), rounded.
  reg(st::usart1::BRR) = (g_apb2_hz + 115200u / 2u) / 115200u;
  reg(st::usart1::CR1) = st::usart1::CR1_UE | st::usart1::CR1_TE | st::usart1::CR1_RE;
}

// TIM3 CH1 on PA6 (AF2): PWM mode 1 at 20 kHz, the actuator output.
void pwm_init() {
  reg(st::rcc::APB1ENR) |= st::rcc::APB1ENR_TIM3EN;
  gpio_mode(st::gpio::PORT_A, 6, 2u, 2u);
  const std::uint32_t t = st::tim::TIM3;
  g_pwm_arr = g_apb1_timer_hz / 20000u - 1u;
  if (g_pwm_arr > 0xFFFFu) g_pwm_arr = 0xFFFFu;  // TIM3 is 16-bit
  reg(t + st::tim::PSC) = 0u;
  reg(t + st::tim::ARR) = g_pwm_arr;
  reg(t + st::tim::CCR1) = (g_pwm_arr + 1u) / 2u;   // value 0 = 50 %
  reg(t + st::tim::CCMR1) = (6u << 4) | (1u << 3);  // OC1M = PWM mode 1, OC1PE
  reg(t + st::tim::CCER) = 1u;                      // CC1E
  reg(t + st::tim::CR1) = st::tim::CR1_ARPE;
  reg(t + st::tim::EGR) = st::tim::EGR_UG;
  reg(t + st::tim::CR1) = st::tim::CR1_ARPE | st::tim::CR1_CEN;
}

void cost_clock_init() {
  g_dwt = !g_emulated && cm::dwt_cycle_counter_start();
  if (!g_dwt) {  // TIM5, 32-bit free-running
    reg(st::rcc::APB1ENR) |= st::rcc::APB1ENR_TIM5EN;
    const std::uint32_t t = st::tim::TIM5;
    reg(t + st::tim::CR1) = 0u;
    reg(t + st::tim::PSC) = 0u;
    reg(t + st::tim::ARR) = 0xFFFFFFFFu;
    reg(t + st::tim::EGR) = st::tim::EGR_UG;
    reg(t + st::tim::CR1) = st::tim::CR1_CEN;
  }
}

bool g_initialized = false;

std::uint32_t g_rate = 0;
bool g_systick_tick = false;

// volatile: a plain flag set inside the byte loop let GCC 12's store motion write the loop's last
// data-register store a second time after the loop (each frame's closing 0x00 went out twice).
volatile bool g_uart_sent = false;

void put(unsigned char c) {
  g_uart_sent = true;
  for (int i = 0; i < kReadyWait && (reg(st::usart1::SR) & st::usart1::SR_TXE) == 0u; ++i) {
  }
  reg(st::usart1::DR) = c;
}

}  // namespace

void initialize() {
  if (g_initialized) return;
  g_initialized = true;
  clock_init();
  reg(st::rcc::AHB1ENR) |= st::rcc::AHB1ENR_GPIODEN;
  gpio_mode(st::gpio::PORT_D, 12, 1u, 0u);  // PD12 LED output
  usart1_init();
  pwm_init();
  cost_clock_init();
}

std::uint32_t core_clock_hz() { return g_core_hz; }

// ---- console ----
void write(const char* s) {
  if (g_emulated || !g_initialized) {
    semihosting::write0(s);
    return;
  }
  for (; *s; ++s) {
    if (*s == '\n') put('\r');
    put(static_cast<unsigned char>(*s));
  }
}

void exit(int code) {
  if (g_emulated || !g_initialized) semihosting::exit(code);
  // Real hardware: actuators to the safe value, interrupts off, park with the code visible
  // to a debugger (attractor_exit_code) and on the LED (on = failure).
  tick_stop();
  actuator_write(0, 0.0f);
  attractor_exit_code = code;
  led_set(code != 0);
  cm::disable_irq();
  for (;;) cm::wfi();
}

// ---- UART (USART1) ----
void uart_write(const char* s) {
  while (*s) put(static_cast<unsigned char>(*s++));
}
void uart_write(const unsigned char* data, std::uint32_t size) {
  for (std::uint32_t i = 0; i < size; ++i) put(data[i]);
}
bool uart_sent() { return g_uart_sent; }
bool uart_read(unsigned char& byte) {
  if ((reg(st::usart1::SR) & st::usart1::SR_RXNE) == 0u) return false;
  byte = static_cast<unsigned char>(reg(st::usart1::DR) & 0xFFu);
  return true;
}

// ---- GPIO / PWM ----
void led_set(bool on) { reg(st::gpio::base(st::gpio::PORT_D) + st::gpio::BSRR) = on ? (1u << 12) : (1u << (12 + 16)); }
int actuator_channels() { return 1; }
bool actuator_write(int channel, float value) {
  if (channel != 0) return false;
  if (value != value) value = 0.0f;  // NaN: the safe value
  if (value < -1.0f) value = -1.0f;
  if (value > 1.0f) value = 1.0f;
  const float duty = 0.5f * (value + 1.0f);
  reg(st::tim::TIM3 + st::tim::CCR1) = static_cast<std::uint32_t>(duty * static_cast<float>(g_pwm_arr + 1u) + 0.5f);
  return true;
}

// ---- tick: TIM2 update interrupt (IRQ 28, priority 0) + PendSV (priority 0xFF) on silicon;
// SysTick + PendSV under QEMU, whose TIM2 model gets periodic update interrupts wrong after
// the silicon set-up (it adds the virtual time of the EGR.UG write to every period: 1.0149 ms
// instead of 1 ms at 1 kHz, 813 periods at 4 kHz — measured with
// host-tests/target/rt_runtime.cpp), with the TIM4 idle guard beside it (idle_guard.hpp).
bool tick_start(std::uint32_t rate_hz, bool (*sample)(void*), void (*control)(void*), void* ctx) {
  if (rate_hz == 0u || sample == nullptr || control == nullptr) return false;
  initialize();
  dispatch::set(sample, control, ctx);
  if (g_emulated) {
    g_systick_tick = true;
    if (systick::start_tick(rate_hz, g_core_hz)) {
      idle_guard::start(kQemuTimerHz / rate_hz);  // WFI idle without a doubled period
      return true;
    }
    dispatch::clear();
    return false;
  }
  g_systick_tick = false;
  const std::uint32_t counts = (g_apb1_timer_hz + rate_hz / 2u) / rate_hz;
  if (counts < 2u) {  // TIM2 is 32-bit: any lower rate fits
    dispatch::clear();
    return false;
  }
  const std::uint32_t t = st::tim::TIM2;
  reg(st::rcc::APB1ENR) |= st::rcc::APB1ENR_TIM2EN;
  reg(t + st::tim::CR1) = 0u;
  g_rate = g_apb1_timer_hz / counts;
  reg(t + st::tim::PSC) = 0u;
  reg(t + st::tim::ARR) = counts - 1u;
  reg(t + st::tim::EGR) = st::tim::EGR_UG;  // load PSC/ARR, CNT = 0
  reg(t + st::tim::SR) = 0u;
  reg(t + st::tim::DIER) = st::tim::DIER_UIE;
  cm::nvic::set_priority(st::tim::TIM2_IRQ, 0x00);
  cm::set_pendsv_priority(0xFF);
  cm::nvic::clear_pending(st::tim::TIM2_IRQ);
  cm::nvic::enable(st::tim::TIM2_IRQ);
  reg(t + st::tim::CR1) = st::tim::CR1_URS | st::tim::CR1_CEN;
  return true;
}

void tick_stop() {
  if (g_systick_tick) {
    idle_guard::stop();
    systick::stop();
    dispatch::clear();
    g_systick_tick = false;
    return;
  }
  const std::uint32_t t = st::tim::TIM2;
  reg(t + st::tim::CR1) = 0u;
  reg(t + st::tim::DIER) = 0u;
  cm::nvic::disable(st::tim::TIM2_IRQ);
  cm::nvic::clear_pending(st::tim::TIM2_IRQ);
  cm::reg(cm::scb::ICSR) = cm::scb::ICSR_PENDSVCLR;
  dispatch::clear();
  g_rate = 0;
}

std::uint32_t tick_rate_hz() { return g_systick_tick ? systick::rate_hz() : g_rate; }

std::uint32_t cost_now() { return g_dwt ? cm::reg(cm::dwt::CYCCNT) : reg(st::tim::TIM5 + st::tim::CNT); }
std::uint32_t cost_hz() { return g_dwt ? g_core_hz : g_apb1_timer_hz; }
std::uint32_t cost_mask() { return 0xFFFFFFFFu; }
const char* cost_unit() {
  return g_dwt ? "cycles" : (g_emulated ? "instructions (QEMU TIM5 at 1 GHz)" : "timer counts");
}

// WFI on silicon and under QEMU (where the idle guard beside the SysTick tick keeps the period).
void wait_for_interrupt() { cm::wfi(); }

std::uint32_t reference_now() { return cost_now(); }  // TIM5 / DWT, never the tick timer
std::uint32_t reference_hz() { return cost_hz(); }

}  // namespace attractor::board

extern "C" void irq28_handler() {  // TIM2 update (PendSV: boards/common/systick.cpp)
  namespace st = attractor::stm32f405;
  st::reg(st::tim::TIM2 + st::tim::SR) = ~st::tim::SR_UIF;  // rc_w0
  attractor::board::dispatch::on_timer();
}
