// SPDX-License-Identifier: Apache-2.0
// The board interface. A board is data (boards/<name>/board.cmake: cores, memory map, QEMU
// machine, capabilities) plus the functions below (boards/<name>/*.cpp and boards/common).
//
// Required: what apps, the runtime (rt::run<Board>) and the on-target tests use. Every board
// defines all of them (stack_used_bytes/stack_size_bytes come from boards/common/startup.cpp).
//
// Optional capabilities: what a board offers only when it has the hardware. A board that has
// one lists it in BOARD_CAPABILITIES (board.cmake) and defines its functions; a board without
// it defines nothing. An image that uses one asks for it,
//     attractor_add_firmware(NAME <app> SOURCES ... REQUIRES uart)   (cmake/firmware.cmake)
// and is then built only for the boards that list it, with ATTRACTOR_BOARD_HAS_UART defined,
// which adds the capability's members to `Board`. Without REQUIRES, `Board` has no such
// member: using it is a compile error, and generic code asks with has_uart_v<B> (if constexpr).
//   capability   functions                                           trait
//   uart         uart_write(s), uart_write(data, size), uart_read(b),  has_uart_v
//                uart_sent()
//   uart_rx_wait uart_rx_wait_start(), uart_rx_wait_read(b)          has_uart_rx_wait_v
//   led          led_set(on)                                         has_led_v
//   actuators    actuator_channels(), actuator_write(ch, value)      has_actuators_v
//   core_clock   core_clock_hz()                                     has_core_clock_v
//   tick_rate    tick_rate_hz()                                      has_tick_rate_v
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "attractor/board/fault.hpp"
#include "attractor/board/watchdog.hpp"

namespace attractor::board {

// ================================ Required ================================

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
// measured against the pattern painted by the reset handler (boards/common/startup.cpp).
std::uint32_t stack_used_bytes();
std::uint32_t stack_size_bytes();

// The tick (lib/include/attractor/rt/tick.hpp): a periodic high-priority interrupt calls
// sample(ctx); when it returns true the board pends a low-priority interrupt (PendSV) that
// calls control(ctx). Priorities are set through the NVIC/SHPR: sampling above control.
// Returns false if the rate cannot be made. Implemented by boards/common/systick_board.cpp
// (SysTick) or a board's own timer driver.
bool tick_start(std::uint32_t rate_hz, bool (*sample)(void*), void (*control)(void*), void* ctx);
void tick_stop();

// Cost clock: a free-running counter read at the start of the tick and the end of the step.
// DWT CYCCNT where the core has a running one (real silicon); otherwise a timer's count.
// cost_now() wraps modulo cost_mask() + 1. cost_unit(): "cycles", "systick counts", ...
std::uint32_t cost_now();
std::uint32_t cost_hz();
std::uint32_t cost_mask();
const char* cost_unit();

// Idle until the next interrupt: WFI, on silicon and under QEMU. With -icount
// shift=0,sleep=off QEMU then skips the idle time at once; a WFI-idled periodic tick alone
// would arrive every second period there, so while the tick runs the board keeps an idle
// guard timer (idle_guard.hpp) beside it, and the period stays exact and deterministic
// (docs/boards.md, "Idle under QEMU").
void wait_for_interrupt();

// An independent clock to check the tick against (never the tick timer itself):
// mps2: FPGAIO COUNTER (25 MHz); STM32F405: TIM5 (1 GHz under QEMU) or DWT CYCCNT.
std::uint32_t reference_now();
std::uint32_t reference_hz();

// ====================== Optional capabilities (see the top) ======================

// uart: serial port for HIL frames and logs: polled, non-blocking read; write blocks per
// byte until the transmitter takes it (bounded). mps2: CMSDK UART0; STM32F405: USART1.
void uart_write(const char* s);
void uart_write(const unsigned char* data, std::uint32_t size);
bool uart_read(unsigned char& byte);  // true when a byte was waiting
bool uart_sent();                     // uart_write sent a byte since boot (exit lets the host read it)
// uart_rx_wait: the HIL lockstep's receive (link/lockstep.hpp; docs/hil.md "Determinism under
// QEMU"): the core sleeps (WFI) until the UART has a byte, with interrupts masked and no timer
// armed, so a run under QEMU -icount is deterministic whatever the host's timing. start() once,
// after initialize() and before the first read: it masks interrupts and stops the board's
// timers (SysTick, a running watchdog) — the frames are the clock from then on; cost is read on
// reference_now(). read(): one wait, true with a byte, false when the core woke for something
// else (call again). mps2: CMSDK UART0, RX IRQ 0 (boards/common/cmsdk_uart_rx_wait.cpp).
void uart_rx_wait_start();
bool uart_rx_wait_read(unsigned char& byte);
// led: a status LED (mps2: FPGAIO LED0; STM32F405: PD12, the Discovery green LED).
void led_set(bool on);
// actuators: PWM-style outputs, value in [-1, 1] (0 = 50 % duty, the safe state; NaN -> 0).
// actuator_write returns false for a channel the board does not have.
int actuator_channels();
bool actuator_write(int channel, float value);
// core_clock: the core clock the board runs at after initialize() (Hz).
std::uint32_t core_clock_hz();
// tick_rate: the tick frequency actually produced (the timer divides its clock by an integer).
std::uint32_t tick_rate_hz();

// The board as a type, for templates such as rt::run<Board>(app, cfg).
struct Board {
  static const char* name() { return board::name; }
  static void initialize() { board::initialize(); }
  static void write(const char* s) { board::write(s); }
  [[noreturn]] static void exit(int code) { board::exit(code); }
  static std::uint32_t stack_used_bytes() { return board::stack_used_bytes(); }
  static std::uint32_t stack_size_bytes() { return board::stack_size_bytes(); }
  static bool tick_start(std::uint32_t rate_hz, bool (*sample)(void*), void (*control)(void*), void* ctx) {
    return board::tick_start(rate_hz, sample, control, ctx);
  }
  static void tick_stop() { board::tick_stop(); }
  static std::uint32_t cost_now() { return board::cost_now(); }
  static std::uint32_t cost_hz() { return board::cost_hz(); }
  static std::uint32_t cost_mask() { return board::cost_mask(); }
  static const char* cost_unit() { return board::cost_unit(); }
  static void wait_for_interrupt() { board::wait_for_interrupt(); }
  static std::uint32_t reference_now() { return board::reference_now(); }
  static std::uint32_t reference_hz() { return board::reference_hz(); }
#if defined(ATTRACTOR_BOARD_HAS_UART)
  static void uart_write(const char* s) { board::uart_write(s); }
  static void uart_write(const unsigned char* d, std::uint32_t n) { board::uart_write(d, n); }
  static bool uart_read(unsigned char& b) { return board::uart_read(b); }
  static bool uart_sent() { return board::uart_sent(); }
#endif
#if defined(ATTRACTOR_BOARD_HAS_UART_RX_WAIT)
  static void uart_rx_wait_start() { board::uart_rx_wait_start(); }
  static bool uart_rx_wait_read(unsigned char& b) { return board::uart_rx_wait_read(b); }
#endif
#if defined(ATTRACTOR_BOARD_HAS_LED)
  static void led_set(bool on) { board::led_set(on); }
#endif
#if defined(ATTRACTOR_BOARD_HAS_ACTUATORS)
  static int actuator_channels() { return board::actuator_channels(); }
  static bool actuator_write(int ch, float v) { return board::actuator_write(ch, v); }
#endif
#if defined(ATTRACTOR_BOARD_HAS_CORE_CLOCK)
  static std::uint32_t core_clock_hz() { return board::core_clock_hz(); }
#endif
#if defined(ATTRACTOR_BOARD_HAS_TICK_RATE)
  static std::uint32_t tick_rate_hz() { return board::tick_rate_hz(); }
#endif
  static void set_safe_output(void (*hook)(void*), void* ctx) { board::set_safe_output(hook, ctx); }
  static bool watchdog_start(std::uint32_t ms) { return board::watchdog_start(ms); }
  static void watchdog_feed() { board::watchdog_feed(); }
  static void watchdog_stop() { board::watchdog_stop(); }
};

// ---- Compile-time detection on any Board type (this one, a host fake, a future board) ----
namespace detail {
template <class B, class = void>
struct is_board : std::false_type {};
template <class B>
struct is_board<
    B, std::void_t<decltype(B::name()), decltype(B::initialize()),
                   decltype(B::write(""), B::exit(0), B::stack_used_bytes(), B::stack_size_bytes()),
                   decltype(B::tick_start(1u, nullptr, nullptr, nullptr), B::tick_stop(), B::wait_for_interrupt()),
                   decltype(B::cost_now(), B::cost_hz(), B::cost_mask(), B::cost_unit()),
                   decltype(B::reference_now(), B::reference_hz())>> : std::true_type {};
template <class B, class = void>
struct has_uart : std::false_type {};
template <class B>
struct has_uart<B, std::void_t<decltype(B::uart_read(std::declval<unsigned char&>()), B::uart_write(""))>>
    : std::true_type {};
template <class B, class = void>
struct has_uart_rx_wait : std::false_type {};
template <class B>
struct has_uart_rx_wait<
    B, std::void_t<decltype(B::uart_rx_wait_start(), B::uart_rx_wait_read(std::declval<unsigned char&>()))>>
    : std::true_type {};
template <class B, class = void>
struct has_led : std::false_type {};
template <class B>
struct has_led<B, std::void_t<decltype(B::led_set(true))>> : std::true_type {};
template <class B, class = void>
struct has_actuators : std::false_type {};
template <class B>
struct has_actuators<B, std::void_t<decltype(B::actuator_channels(), B::actuator_write(0, 0.0f))>> : std::true_type {};
template <class B, class = void>
struct has_core_clock : std::false_type {};
template <class B>
struct has_core_clock<B, std::void_t<decltype(B::core_clock_hz())>> : std::true_type {};
template <class B, class = void>
struct has_tick_rate : std::false_type {};
template <class B>
struct has_tick_rate<B, std::void_t<decltype(B::tick_rate_hz())>> : std::true_type {};
}  // namespace detail

template <class B>
inline constexpr bool is_board_v = detail::is_board<B>::value;
template <class B>
inline constexpr bool has_uart_v = detail::has_uart<B>::value;
template <class B>
inline constexpr bool has_uart_rx_wait_v = detail::has_uart_rx_wait<B>::value;
template <class B>
inline constexpr bool has_led_v = detail::has_led<B>::value;
template <class B>
inline constexpr bool has_actuators_v = detail::has_actuators<B>::value;
template <class B>
inline constexpr bool has_core_clock_v = detail::has_core_clock<B>::value;
template <class B>
inline constexpr bool has_tick_rate_v = detail::has_tick_rate<B>::value;

static_assert(is_board_v<Board>, "attractor::board::Board lacks a required member (board.hpp)");

}  // namespace attractor::board
