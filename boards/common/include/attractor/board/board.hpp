// The thin interface every board implements (boards/<name>/board.cpp). A board is data
// (board.cmake: core, memory map, QEMU machine) plus these few functions.
#pragma once

#include <cstdint>

#include "attractor/board/fault.hpp"
#include "attractor/board/watchdog.hpp"

namespace attractor::board {

// Board name as in boards/<name>.
extern const char* const name;

// Clocks, console, peripherals. Called once by main() before anything else.
void initialize();

// Human-readable console output (semihosting under QEMU; the UART once the runtime owns it).
void write(const char* s);

// End the program with an exit code (semihosting exit under QEMU; on real hardware: park the
// core with actuators off, the code latched for a debugger).
[[noreturn]] void exit(int code);

// Stack high-water mark: bytes of the stack region that were ever written since reset,
// measured against the pattern painted by the reset handler.
std::uint32_t stack_used_bytes();
std::uint32_t stack_size_bytes();

// ---- Tick and cost clock for the runtime (lib/include/attractor/rt/tick.hpp) ----
// The tick: a periodic high-priority interrupt calls sample(ctx); when it returns true the
// board pends a low-priority interrupt (PendSV) that calls control(ctx). Priorities are set
// through the NVIC/SHPR: sampling above control. Returns false if the rate cannot be made.
// Implemented by boards/common/systick_tick.cpp (SysTick) or a board's own timer driver.
bool tick_start(std::uint32_t rate_hz, bool (*sample)(void*), void (*control)(void*), void* ctx);
void tick_stop();
// The tick frequency actually produced (the timer divides its clock by an integer).
std::uint32_t tick_rate_hz();

// Cost clock: a free-running counter read at the start of the tick and the end of the step.
// DWT CYCCNT where the core has a running one (real silicon); otherwise the tick timer's
// count. cost_now() wraps modulo cost_mask() + 1.
std::uint32_t cost_now();
std::uint32_t cost_hz();
std::uint32_t cost_mask();
// "cycles" or "timer counts": what one cost unit is on this board right now.
const char* cost_unit();

// Idle until the next interrupt: WFI on silicon. Under QEMU it returns at once (the caller
// spins): QEMU 7.2 with -icount shift=0,sleep=off lets virtual time run two tick periods per
// SysTick period across a WFI (measured against the mps2 FPGAIO counter and the STM32 TIM5,
// docs/boards.md); spinning keeps virtual time exact and deterministic.
void wait_for_interrupt();

// An independent clock to check the tick against (never the tick timer itself):
// mps2: FPGAIO COUNTER (25 MHz); STM32F405: TIM5 (1 GHz under QEMU) or DWT CYCCNT.
std::uint32_t reference_now();
std::uint32_t reference_hz();

// ---- I/O every board offers (no-ops where the hardware has none) ----
// Serial port for HIL frames and logs: polled, non-blocking read; write blocks per byte
// until the transmitter takes it (bounded). mps2: CMSDK UART0; STM32F405: USART1 PA9/PA10.
void uart_write(const char* s);
void uart_write(const unsigned char* data, std::uint32_t size);
bool uart_read(unsigned char& byte);  // true when a byte was waiting
// A status LED (mps2: FPGAIO LED0; STM32F405: PD12, the Discovery green LED).
void led_set(bool on);
// PWM-style actuator outputs: value in [-1, 1] (0 = 50 % duty, the safe state). Returns false
// for a channel the board does not have; actuator_channels() is 0 on boards without PWM.
int actuator_channels();
bool actuator_write(int channel, float value);
// The core clock the board runs at after initialize() (Hz).
std::uint32_t core_clock_hz();

// The board as a type, for templates such as rt::run<Board>(app, cfg).
struct Board {
  static const char* name() { return board::name; }
  static void initialize() { board::initialize(); }
  static void write(const char* s) { board::write(s); }
  [[noreturn]] static void exit(int code) { board::exit(code); }
  static bool tick_start(std::uint32_t rate_hz, bool (*sample)(void*), void (*control)(void*),
                         void* ctx) {
    return board::tick_start(rate_hz, sample, control, ctx);
  }
  static void tick_stop() { board::tick_stop(); }
  static std::uint32_t tick_rate_hz() { return board::tick_rate_hz(); }
  static std::uint32_t cost_now() { return board::cost_now(); }
  static std::uint32_t cost_hz() { return board::cost_hz(); }
  static std::uint32_t cost_mask() { return board::cost_mask(); }
  static const char* cost_unit() { return board::cost_unit(); }
  static void wait_for_interrupt() { board::wait_for_interrupt(); }
  static std::uint32_t reference_now() { return board::reference_now(); }
  static std::uint32_t reference_hz() { return board::reference_hz(); }
  static std::uint32_t stack_used_bytes() { return board::stack_used_bytes(); }
  static std::uint32_t stack_size_bytes() { return board::stack_size_bytes(); }
  static void uart_write(const char* s) { board::uart_write(s); }
  static bool uart_read(unsigned char& b) { return board::uart_read(b); }
  static void led_set(bool on) { board::led_set(on); }
  static int actuator_channels() { return board::actuator_channels(); }
  static bool actuator_write(int ch, float v) { return board::actuator_write(ch, v); }
  static std::uint32_t core_clock_hz() { return board::core_clock_hz(); }
  static void set_safe_output(void (*hook)(void*), void* ctx) { board::set_safe_output(hook, ctx); }
  static bool watchdog_start(std::uint32_t ms) { return board::watchdog_start(ms); }
  static void watchdog_feed() { board::watchdog_feed(); }
  static void watchdog_stop() { board::watchdog_stop(); }
};

}  // namespace attractor::board
