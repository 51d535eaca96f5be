// SPDX-License-Identifier: Apache-2.0
// On-target test of the board API's optional capabilities (board.hpp), built three times by
// host-tests/target/CMakeLists.txt:
//   board_api        no REQUIRES: Board has the required members and none of the optional ones
//   board_io         REQUIRES uart uart_rx_wait led core_clock tick_rate (every board here has
//                    them; uart_rx_wait is checked at compile time only: its read sleeps until a
//                    byte arrives, and QEMU -serial none sends none — the HIL tests run it)
//   board_actuators  REQUIRES actuators (only the boards with PWM outputs)
// Each capability the image asked for is checked at compile time (the trait sees it, and only
// then) and exercised once at run time.
#include "attractor/board/board.hpp"
#include "check.hpp"

using namespace attractor;
using board::Board;

static_assert(board::is_board_v<Board>, "Board has every required member");
#if defined(ATTRACTOR_BOARD_HAS_UART)
static_assert(board::has_uart_v<Board>, "REQUIRES uart: Board has uart_*");
#else
static_assert(!board::has_uart_v<Board>, "without REQUIRES uart, Board has no uart_*");
#endif
#if defined(ATTRACTOR_BOARD_HAS_UART_RX_WAIT)
static_assert(board::has_uart_rx_wait_v<Board>, "REQUIRES uart_rx_wait: Board has uart_rx_wait_*");
#else
static_assert(!board::has_uart_rx_wait_v<Board>, "without REQUIRES uart_rx_wait, no uart_rx_wait_*");
#endif
#if defined(ATTRACTOR_BOARD_HAS_LED)
static_assert(board::has_led_v<Board>, "REQUIRES led: Board has led_set");
#else
static_assert(!board::has_led_v<Board>, "without REQUIRES led, Board has no led_set");
#endif
#if defined(ATTRACTOR_BOARD_HAS_ACTUATORS)
static_assert(board::has_actuators_v<Board>, "REQUIRES actuators: Board has actuator_*");
#else
static_assert(!board::has_actuators_v<Board>, "without REQUIRES actuators, no actuator_*");
#endif
#if defined(ATTRACTOR_BOARD_HAS_CORE_CLOCK)
static_assert(board::has_core_clock_v<Board>, "REQUIRES core_clock: Board has core_clock_hz");
#else
static_assert(!board::has_core_clock_v<Board>, "without REQUIRES core_clock, no core_clock_hz");
#endif
#if defined(ATTRACTOR_BOARD_HAS_TICK_RATE)
static_assert(board::has_tick_rate_v<Board>, "REQUIRES tick_rate: Board has tick_rate_hz");
#else
static_assert(!board::has_tick_rate_v<Board>, "without REQUIRES tick_rate, no tick_rate_hz");
#endif

namespace {
bool no_control(void*) { return false; }
void nothing(void*) {}
}  // namespace

// Generic over the Board type, as library code would be: `if constexpr` drops the branches of
// the capabilities B does not have (in a template only, hence the template).
template <class B>
void check_capabilities(target_test::Checker& c) {
  c.is_true("required API: stack size > 0", B::stack_size_bytes() > 0u);
  if constexpr (board::has_uart_v<B>) {
    unsigned char b = 0;
    B::uart_write("");
    c.is_true("uart: nothing received (QEMU -serial none)", !B::uart_read(b));
    c.is_true("uart: nothing sent yet", !B::uart_sent());
    B::uart_write("\n");
    c.is_true("uart: a byte sent (the exit waits for the host to read it)", B::uart_sent());
  }
  if constexpr (board::has_led_v<B>) {
    B::led_set(true);
    B::led_set(false);
  }
  if constexpr (board::has_core_clock_v<B>) {
    c.ge("core clock [Hz]", B::core_clock_hz(), 1e6);
  }
  if constexpr (board::has_tick_rate_v<B>) {
    c.is_true("tick: started at 1 kHz", B::tick_start(1000u, &no_control, &nothing, nullptr));
    c.near("tick_rate_hz while ticking", B::tick_rate_hz(), 1000.0, 0.0);
    B::tick_stop();
  }
  if constexpr (board::has_actuators_v<B>) {
    const int n = B::actuator_channels();
    c.ge("actuators: channels", n, 1);
    c.is_true("actuators: channel 0 written", B::actuator_write(0, 0.5f));
    c.is_true("actuators: NaN written as the safe 0", B::actuator_write(0, __builtin_nanf("")));
    c.is_true("actuators: channel n refused", !B::actuator_write(n, 0.0f));
    c.is_true("actuators: channel -1 refused", !B::actuator_write(-1, 0.0f));
  }
}

int main() {
  Board::initialize();
  target_test::Checker c("board capabilities");
  check_capabilities<Board>(c);
  return c.finish();
}
