// SPDX-License-Identifier: Apache-2.0
// apps/skate-rotor: the pendulum skate kept upright by its internal rotor (paper 003 §6–7,
// law (56) as corrected in lib/include/attractor/control/skate_rotor_law.hpp), in float, at
// 1 kHz in the board's tick. Software-in-the-loop: the plant runs on the target too.
// Wiring only: board + sensor source (SIL plant) + controller + runtime. Runs 10 s of (virtual)
// time, prints the runtime report and the outcome, and exits 0 when the skate stayed upright
// with the controller never dropping to the safe state.
#include <cmath>

#include "attractor/board/board.hpp"
#include "attractor/control/skate_rotor_controller.hpp"
#include "attractor/core/text.hpp"
#include "attractor/plant/simulated_skate_rotor.hpp"
#include "attractor/rt/loop.hpp"
#include "attractor/rt/tick.hpp"
#include "attractor/version.hpp"

using attractor::Text;
using Board = attractor::board::Board;
using S = float;

namespace {

constexpr std::uint32_t kRateHz = 1000;
constexpr std::uint32_t kTicks = 10000;  // 10 s at 1 kHz
constexpr S kUprightGamma3 = 0.95f;      // "upright": tilt below ~18 degrees throughout
constexpr S kDt = 1.0f / static_cast<S>(kRateHz);

using Source = attractor::SimulatedSkateRotor<S>;  // a HIL link would go here
using Controller = attractor::SkateRotorController<S>;
using Outcome = attractor::SkateRotorOutcome<S>;
using Loop = attractor::rt::Loop<Source, Controller, Outcome>;

void line(const char* label, S v) {
  Text<96> t;
  t << "skate: " << label << " ";
  t.scientific(static_cast<double>(v), 6);
  t << "\n";
  Board::write(t.c_str());
}

int refused(const char* what, attractor::Error e) {
  Text<96> t;
  t << "skate: " << what << " refused: " << attractor::to_string(e) << "\n";
  Board::write(t.c_str());
  return 2;
}

}  // namespace

int main() {
  Board::initialize();
  const Controller::Config cfg;  // §7.3: σ = −1e-5
  auto controller = Controller::make(cfg, kDt);
  if (!controller) return refused("configuration", controller.error());
  auto plant = Source::make(Source::Config{}, kDt);
  if (!plant) return refused("plant", plant.error());
  {
    Text<160> t;
    t << "skate-rotor (Attractor " << attractor::version << ") on " << Board::name() << ": SIL, float, " << kRateHz
      << " Hz, " << kTicks << " ticks, sigma ";
    t.scientific(static_cast<double>(cfg.sigma), 3);
    t << " (stable range lower bound ";
    t.scientific(static_cast<double>(attractor::skate_rotor_stability_range(cfg.params).lower), 4);
    t << ")\n";
    Board::write(t.c_str());
  }

  Loop loop(*plant, *controller);
  attractor::rt::Config rc = attractor::rt::rate_hz(kRateHz);
  rc.max_ticks = kTicks;
  const attractor::rt::Report r = attractor::rt::run<Board>(loop, rc);
  attractor::rt::write_report(r, [](const char* s) { Board::write(s); });

  const Outcome& o = loop.monitor();
  line("min Gamma3 (plant)        ", o.min_gamma3);
  line("max tilt [rad]            ", std::acos(o.min_gamma3 < 1.0f ? o.min_gamma3 : 1.0f));
  line("max |u| [N m]             ", o.max_abs_torque);
  line("max |Gamma_hat - Gamma|   ", o.max_gamma_error);
  line("max |Gamma|^2-1, |Gamma1| ", o.max_constraint);
  line("final Gamma3 (plant)      ", loop.source().state()[4]);

  const bool upright = o.min_gamma3 > kUprightGamma3 && r.mode == attractor::rt::Mode::running && r.steps == kTicks;
  Board::write(upright ? "skate: UPRIGHT for 10 s (controller never left running mode)\n"
                       : "skate: FELL or tripped to the safe state\n");
  return upright ? 0 : 1;
}
