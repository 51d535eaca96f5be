// SPDX-License-Identifier: Apache-2.0
// The SIL app of any plant, in float at 1 kHz in the board's tick, for 10 s of (virtual) time:
// board + sensor source (the plant's SIL plant, on the target too) + controller + runtime, then
// the runtime report and the plant's outcome. An app folder is this header, its plant's facts
// (lib plants/<plant>/facts.hpp) and one line of main(). Exit 0 when the plant's outcome holds
// and the controller never left running mode; 1 otherwise; 2 when a configuration is refused.
// The facts give: Controller, Source, Outcome, kApp (the banner's name), kPrefix (every other
// line's), make_controller(config, dt), make_source(controller, dt), banner(config, text), outcome(loop, line, write)
// -> bool, kUpright and kFell (the last line).
#pragma once

#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/core/text.hpp"
#include "attractor/rt/loop.hpp"
#include "attractor/rt/tick.hpp"
#include "attractor/version.hpp"

namespace app {

using Board = attractor::board::Board;

constexpr std::uint32_t kRateHz = 1000;
constexpr std::uint32_t kTicks = 10000;  // 10 s at 1 kHz

template <class Facts>
int refused(const char* what, attractor::Error e) {
  attractor::Text<96> t;
  t << Facts::kPrefix << ": " << what << " refused: " << attractor::to_string(e) << "\n";
  Board::write(t.c_str());
  return 2;
}

// Cold, as GCC treats main(): run once, compiled for size (the tick is the runtime's, unaffected).
template <class Facts>
[[gnu::cold]] int sil_main() {
  using S = float;
  using Controller = typename Facts::Controller;
  using Loop = attractor::rt::Loop<typename Facts::Source, Controller, typename Facts::Outcome>;
  constexpr S kDt = 1.0f / static_cast<S>(kRateHz);
  Board::initialize();
  const typename Controller::Config cfg;  // the plant's documented default run
  auto controller = Facts::make_controller(cfg, kDt);
  if (!controller) return refused<Facts>("configuration", controller.error());
  auto plant = Facts::make_source(*controller, kDt);
  if (!plant) return refused<Facts>("plant", plant.error());
  {
    attractor::Text<192> t;
    t << Facts::kApp << " (Attractor " << attractor::version << ") on " << Board::name() << ": SIL, float, " << kRateHz
      << " Hz, " << kTicks << " ticks, sigma ";
    Facts::banner(cfg, t);
    Board::write(t.c_str());
  }

  Loop loop(*plant, *controller);
  attractor::rt::Config rc = attractor::rt::rate_hz(kRateHz);
  rc.max_ticks = kTicks;
  const attractor::rt::Report r = attractor::rt::run<Board>(loop, rc);
  attractor::rt::write_report(r, [](const char* s) { Board::write(s); });

  const auto line = [](const char* label, S v) {
    attractor::Text<96> t;
    t << Facts::kPrefix << ": " << label << " ";
    t.scientific(static_cast<double>(v), 6);
    t << "\n";
    Board::write(t.c_str());
  };
  const bool held = Facts::outcome(loop, line, [](const char* s) { Board::write(s); });
  const bool upright = held && r.mode == attractor::rt::Mode::running && r.steps == kTicks;
  Board::write(upright ? Facts::kUpright : Facts::kFell);
  return upright ? 0 : 1;
}

}  // namespace app
