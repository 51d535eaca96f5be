// SPDX-License-Identifier: Apache-2.0
// The glue between rt::Tick and a Board: the interrupt trampolines and the Board's optional
// members (watchdog, safe-output hook), detected with rt::has_member (rt/optional_member.hpp).
//
// The Board type (boards/common/include/attractor/board/board.hpp: attractor::board::Board;
// fakes in host-tests/unit/runtime/tick_fixture.hpp and rt_run_test.cpp) provides these static members:
//   bool tick_start(uint32_t rate_hz, bool (*sample)(void*), void (*control)(void*), void* ctx)
//        periodic high-priority interrupt calling sample(ctx); when it returns true, pend the
//        low-priority control interrupt that calls control(ctx). false: rate not reachable.
//   void tick_stop();
//   uint32_t cost_now();   // free-running cost clock, wraps modulo cost_mask()+1
//   uint32_t cost_mask();  // 0xFFFFFFFF for a 32-bit clock, 0x00FFFFFF for SysTick...
//   uint32_t cost_hz();    // cost clock frequency
//   void wait_for_interrupt();
//   uint32_t stack_used_bytes(), stack_size_bytes();
// and optionally (real boards have them, fakes need not):
//   bool watchdog_start(uint32_t ms); void watchdog_feed(); void watchdog_stop();
//   void set_safe_output(void (*hook)(void*), void* ctx);   // board/fault.hpp
#pragma once

#include <cstdint>
#include <utility>

#include "attractor/rt/engine.hpp"
#include "attractor/rt/optional_member.hpp"

namespace attractor::rt {

template <class B>
using board_watchdog_start_member = decltype(B::watchdog_start(std::uint32_t{}));
template <class B>
using board_watchdog_feed_member = decltype(B::watchdog_feed());
template <class B>
using board_watchdog_stop_member = decltype(B::watchdog_stop());
template <class B>
using board_safe_output_member = decltype(B::set_safe_output(nullptr, nullptr));

namespace detail {
template <class Board, class App>
bool sample_trampoline(void* ctx) {
  return static_cast<Tick<App>*>(ctx)->on_sample(Board::cost_now());
}
// The watchdog when the board has one (real boards), nothing otherwise (fakes).
template <class Board>
void watchdog_feed() {
  if constexpr (has_member<board_watchdog_feed_member, Board>) Board::watchdog_feed();
}
template <class Board>
void watchdog_start(std::uint32_t ms) {
  if constexpr (has_member<board_watchdog_start_member, Board>) Board::watchdog_start(ms);
}
template <class Board>
void watchdog_stop() {
  if constexpr (has_member<board_watchdog_stop_member, Board>) Board::watchdog_stop();
}

template <class Board, class App>
void control_trampoline(void* ctx) {
  static_cast<Tick<App>*>(ctx)->on_control([] { return Board::cost_now(); });
  watchdog_feed<Board>();  // fed only when a control step completes
}
// The fault handlers' safe-output hook: the app's zero command (board/fault.hpp).
template <class App>
void safe_output_trampoline(void* ctx) {
  static_cast<App*>(ctx)->actuate(typename App::Command(App::Command::Zero()));
}
// Board::set_safe_output when the board has one (real boards), nothing otherwise (fakes).
template <class Board>
void set_safe_output(void (*hook)(void*), void* ctx) {
  if constexpr (has_member<board_safe_output_member, Board>) Board::set_safe_output(hook, ctx);
}
}  // namespace detail

}  // namespace attractor::rt
