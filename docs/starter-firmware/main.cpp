// SPDX-License-Identifier: Apache-2.0
// A complete Attractor firmware image: the pendulum skate kept upright by its internal rotor,
// simulated on the target (software in the loop), controlled at 1 kHz in the board's tick for
// 2 s of virtual time. Exit code 0 when the skate stayed upright (the runtime never tripped).
// Replace the simulated plant by your sensor/actuator driver (a Source, attractor/rt/loop.hpp).
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/core/text.hpp"
#include "attractor/plants/skate_rotor/controller.hpp"
#include "attractor/plants/skate_rotor/simulated.hpp"
#include "attractor/rt/loop.hpp"
#include "attractor/rt/tick.hpp"
#include "attractor/version.hpp"

using Board = attractor::board::Board;  // the board this image is linked for
using S = float;                        // the scalar type: float on an M4F's FPU
using Plant = attractor::SimulatedSkateRotor<S>;
using Controller = attractor::SkateRotorController<S>;
using Outcome = attractor::SkateRotorOutcome<S>;  // keeps the smallest Gamma3 seen
using Loop = attractor::rt::Loop<Plant, Controller, Outcome>;

namespace {
constexpr std::uint32_t kRateHz = 1000;
constexpr std::uint32_t kTicks = 2000;  // 2 s
constexpr S kDt = 1.0f / static_cast<S>(kRateHz);

int refused(const char* what, attractor::Error e) {
  attractor::Text<96> t;
  t << "starter: " << what << " refused: " << attractor::to_string(e) << "\n";
  Board::write(t.c_str());
  return 2;
}
}  // namespace

int main() {
  Board::initialize();
  auto controller = Controller::make(Controller::Config{}, kDt);  // checks the gains
  if (!controller) return refused("controller", controller.error());
  auto plant = Plant::make(Plant::Config{}, kDt);
  if (!plant) return refused("plant", plant.error());

  attractor::Text<96> hello;
  hello << "starter (Attractor " << attractor::version << ") on " << Board::name() << ": " << kTicks << " ticks at "
        << kRateHz << " Hz\n";
  Board::write(hello.c_str());

  Loop loop(*plant, *controller);
  attractor::rt::Config rc = attractor::rt::rate_hz(kRateHz);
  rc.max_ticks = kTicks;
  const attractor::rt::Report r = attractor::rt::run<Board>(loop, rc);
  attractor::rt::write_report(r, [](const char* s) { Board::write(s); });

  const bool upright = loop.monitor().min_gamma3 > 0.95f && r.mode == attractor::rt::Mode::running && r.steps == kTicks;
  Board::write(upright ? "starter: UPRIGHT\n" : "starter: FELL\n");
  return upright ? 0 : 1;
}
