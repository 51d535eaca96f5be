// SPDX-License-Identifier: Apache-2.0
// Lockstep run mode for HIL: the received frame is the tick. The rt engine (rt/tick.hpp) runs
// one sample + control step per frame event of the link (link/hil_link.hpp) and answers each
// with an actuator frame; no timer is armed while waiting. Under QEMU -icount every timer
// armed while the core waits expires at once (TOOLCHAIN facts: "Deterministic lockstep over
// the UART"), so time comes from the frames and the run is deterministic in its data; on real
// hardware the host paces the frames.
//
// Port: static bool read(std::uint8_t&) (true with a byte; false to be called again) and
// static void write(const std::uint8_t*, std::uint32_t). Board: cost_now/cost_hz/cost_mask and
// stack_used_bytes/stack_size_bytes (checked against cfg.stack_limit_percent once a second of
// ticks and at the end, as rt::run does). cfg.watchdog_ms is not used: nothing may run down
// while the firmware waits for the host. A status frame (the run's counters) follows every N-th
// answer (N from the hello) and answers a status request.
// Returns after the host's goodbye (answered first)
// with the runtime's report, or on the host's reset request (not answered:
// link.reset_requested() is true and the app reboots, link/boot_frame.hpp announces it). A hello
// after ticks starts a new run: the runtime restarts (a new rt::Tick, the app's optional reset())
// besides the link. What came before it — e.g. the tail of a hello cut by a UART that dropped
// bytes until the firmware enabled it (QEMU's STM32 USART), answered as a rejected frame with no
// sample — does not steer the new run, but it stays in the report: the returned report covers
// the whole power-on run, every hello included (counts summed, the first trip the reason), so
// the exit status does too. (A reset needs no such restart: the core reboots, the app starts
// from scratch and announces it with a boot frame.)
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "attractor/link/hil_link.hpp"
#include "attractor/rt/tick.hpp"

namespace attractor::link {

namespace detail {
template <class A>
using controller_reset_member = decltype(std::declval<A&>().controller().reset());

// A new run: the app's reset() if it has one, else its controller's (rt::Loop).
template <class App>
void reset_app(App& app) {
  if constexpr (rt::has_member<rt::app_reset_member, App>)
    app.reset();
  else if constexpr (rt::has_member<controller_reset_member, App>)
    app.controller().reset();
}
// The power-on report: `later` (a run started by a hello) after `earlier` (every run before it).
// Counts add up, cost statistics too (every run's steps); the first trip of the power-on run
// stays the reason (its tick counted from power-on); budget and stack are the later run's.
inline rt::Report after(const rt::Report& earlier, const rt::Report& later) {
  rt::Report r = later;
  r.cost.merge(earlier.cost);
  r.ticks += earlier.ticks;
  r.steps += earlier.steps;
  r.missed_ticks += earlier.missed_ticks;
  r.overruns += earlier.overruns;
  r.faults.non_finite += earlier.faults.non_finite;
  r.faults.out_of_range += earlier.faults.out_of_range;
  r.faults.stale += earlier.faults.stale;
  r.faults.overrun += earlier.faults.overrun;
  r.faults.envelope += earlier.faults.envelope;
  r.faults.saturated += earlier.faults.saturated;
  const bool earlier_tripped = earlier.mode == rt::Mode::safe;
  r.mode = earlier_tripped ? rt::Mode::safe : later.mode;
  r.reason = earlier_tripped ? earlier.reason : later.reason;
  r.trip_tick =
      earlier_tripped ? earlier.trip_tick : later.trip_tick + (later.mode == rt::Mode::safe ? earlier.ticks : 0u);
  return r;
}
}  // namespace detail

template <class Board, class Port, class App, class Link>
rt::Report run_lockstep(App& app, Link& link, const rt::Config& cfg) {
  rt::Report before;  // the runs ended by a hello (none yet: zero counts, running)
  for (;;) {          // one pass per run: until goodbye, or a hello after ticks (a new run)
    rt::Tick<App> engine(app, cfg, Board::cost_hz(), Board::cost_mask());
    std::uint8_t out[layout::max_wire_size];
    std::uint64_t cost_sum = 0;
    const std::uint64_t every = cfg.rate_hz ? cfg.rate_hz : 1u;
    std::uint64_t next_check = every;
    bool restart = false;
    for (;;) {
      std::uint8_t b = 0;
      while (!Port::read(b)) {
      }
      const LinkEvent e = link.receive(b);
      if (e == LinkEvent::none) continue;
      if (e == LinkEvent::reset) break;  // no answer: the app reboots (link.reset_requested())
      if (e == LinkEvent::status) {      // the counters, on the host's request
        Port::write(out, std::uint32_t(link.reply_status(engine.supervisor(), out, sizeof out)));
        continue;
      }
      if (e == LinkEvent::hello || e == LinkEvent::goodbye) {
        const FrameType t = e == LinkEvent::hello ? FrameType::hello : FrameType::goodbye;
        Port::write(out, std::uint32_t(link.reply_control(t, out, sizeof out)));
        if (e == LinkEvent::goodbye) break;
        restart = engine.ticks() > 0u;
        if (restart) break;
        continue;
      }
      if (engine.on_sample(Board::cost_now())) engine.on_control([] { return Board::cost_now(); });
      const std::uint64_t sum = engine.cost().sum();
      const std::uint32_t cost = std::uint32_t(sum - cost_sum);
      cost_sum = sum;
      Port::write(out, std::uint32_t(link.reply(engine.supervisor(), cost, out, sizeof out, engine.sample_error())));
      if (link.status_due()) Port::write(out, std::uint32_t(link.reply_status(engine.supervisor(), out, sizeof out)));
      if (engine.ticks() >= next_check) {
        next_check += every;
        engine.check_stack(Board::stack_used_bytes(), Board::stack_size_bytes());
      }
    }
    if (restart) {
      before = detail::after(before, engine.report());
      detail::reset_app(app);
      continue;
    }
    engine.check_stack(Board::stack_used_bytes(), Board::stack_size_bytes());
    rt::Report r = detail::after(before, engine.report());
    r.stack_used = Board::stack_used_bytes();
    r.stack_size = Board::stack_size_bytes();
    return r;
  }
}

}  // namespace attractor::link
