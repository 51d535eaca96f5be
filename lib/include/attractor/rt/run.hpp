// SPDX-License-Identifier: Apache-2.0
// rt::run<Board>(app, cfg): the App (rt/app.hpp) on the Board's tick (rt/board_glue.hpp),
// with the idle loop's stack check, until max_ticks or forever.
//
// Use from a firmware main():
//   Board::initialize();
//   MyApp app{...};
//   rt::Config cfg = rt::rate_hz(1000);
//   cfg.max_ticks = 5000;                        // 0: run forever (never returns)
//   rt::Report r = rt::run<Board>(app, cfg);     // returns after max_ticks ticks
//   rt::write_report(r, Board::write);
#pragma once

#include <cstdint>
#include <utility>

#include "attractor/rt/board_glue.hpp"
#include "attractor/rt/config.hpp"
#include "attractor/rt/engine.hpp"
#include "attractor/rt/report.hpp"

namespace attractor::rt {

// Run the app on the board's tick. With cfg.max_ticks == 0 this never returns; otherwise it
// returns the report after max_ticks ticks (SIL runs, tests, benchmarks). If the board cannot
// produce the rate, returns at once with mode safe and reason invalid_parameter.
template <class Board, class App>
Report run(App& app, const Config& cfg) {
  Tick<App> engine(app, cfg, Board::cost_hz(), Board::cost_mask());
  // Any CPU fault from here on writes the zero command before anything else.
  detail::set_safe_output<Board>(&detail::safe_output_trampoline<App>, &app);
  if (cfg.watchdog_ms != 0u) detail::watchdog_start<Board>(cfg.watchdog_ms);
  if (!Board::tick_start(cfg.rate_hz, &detail::sample_trampoline<Board, App>, &detail::control_trampoline<Board, App>,
                         &engine)) {
    engine.supervisor().trip(Error::invalid_parameter, 0);
    app.actuate(typename App::Command(App::Command::Zero()));
    Report r = engine.report();
    r.stack_used = Board::stack_used_bytes();
    r.stack_size = Board::stack_size_bytes();
    if (cfg.watchdog_ms != 0u) detail::watchdog_stop<Board>();
    detail::set_safe_output<Board>(nullptr, nullptr);
    return r;
  }
  // Idle loop. About once a second of ticks (and once at the end) the stack high-water mark
  // is checked against cfg.stack_limit_percent, in run-forever mode too.
  const std::uint64_t every = cfg.rate_hz ? cfg.rate_hz : 1u;
  std::uint64_t next_check = every;
  while (!engine.finished()) {
    Board::wait_for_interrupt();
    if (engine.ticks() >= next_check) {
      next_check += every;
      engine.check_stack(Board::stack_used_bytes(), Board::stack_size_bytes());
    }
  }
  Board::tick_stop();
  if (cfg.watchdog_ms != 0u) detail::watchdog_stop<Board>();
  detail::set_safe_output<Board>(nullptr, nullptr);  // `app` may go out of scope now
  engine.check_stack(Board::stack_used_bytes(), Board::stack_size_bytes());
  Report r = engine.report();
  r.stack_used = Board::stack_used_bytes();
  r.stack_size = Board::stack_size_bytes();
  return r;
}

// Rvalue app (rt::run<Board>(MyApp{...}, rt::rate_hz(1000))): kept alive inside run().
template <class Board, class App>
Report run(App&& app, const Config& cfg) {
  App local(std::move(app));
  return run<Board>(local, cfg);
}

}  // namespace attractor::rt
