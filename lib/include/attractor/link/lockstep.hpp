// SPDX-License-Identifier: Apache-2.0
// Lockstep run mode for HIL: the received frame is the tick. The rt engine (rt/tick.hpp) runs
// one sample + control step per frame event of the link (link/hil_link.hpp) and answers each
// with an actuator frame; no timer is armed while waiting. Under QEMU -icount every timer
// armed while the core waits expires at once (TOOLCHAIN facts: "Deterministic lockstep over
// the UART"), so time comes from the frames and the run is deterministic in its data; on real
// hardware the host paces the frames.
//
// Port: static bool read(std::uint8_t&) (non-blocking, true when a byte was waiting) and
// static void write(const std::uint8_t*, std::uint32_t). Board: cost_now/cost_hz/cost_mask.
// Returns after the host's goodbye (answered first) with the runtime's report.
#pragma once

#include <cstdint>

#include "attractor/link/hil_link.hpp"
#include "attractor/rt/tick.hpp"

namespace attractor::link {

template <class Board, class Port, class App, class Link>
rt::Report run_lockstep(App& app, Link& link, const rt::Config& cfg) {
  rt::Tick<App> engine(app, cfg, Board::cost_hz(), Board::cost_mask());
  std::uint8_t out[layout::max_wire_size];
  std::uint64_t cost_sum = 0;
  for (;;) {
    std::uint8_t b = 0;
    while (!Port::read(b)) {
    }
    const LinkEvent e = link.receive(b);
    if (e == LinkEvent::none) continue;
    if (e == LinkEvent::hello || e == LinkEvent::goodbye) {
      const FrameType t = e == LinkEvent::hello ? FrameType::hello : FrameType::goodbye;
      Port::write(out, std::uint32_t(link.reply_control(t, out, sizeof out)));
      if (e == LinkEvent::goodbye) break;
      continue;
    }
    if (engine.on_sample(Board::cost_now())) engine.on_control([] { return Board::cost_now(); });
    const std::uint64_t sum = engine.cost().sum();
    const std::uint32_t cost = std::uint32_t(sum - cost_sum);
    cost_sum = sum;
    Port::write(out, std::uint32_t(link.reply(engine.supervisor(), cost, out, sizeof out)));
  }
  return engine.report();
}

}  // namespace attractor::link
