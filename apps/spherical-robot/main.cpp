// SPDX-License-Identifier: Apache-2.0
// apps/spherical-robot: the top-heavy spherical robot (paper 004 (0.29)–(0.30)) kept upright by its
// two internal rotors with the controlled-Lagrangian law (paper 003 law (53), Remark 14; see
// lib/include/attractor/control/spherical_robot_law.hpp), in float, at 1 kHz in the board's tick.
// Software-in-the-loop: the plant runs on the target too, from the reference run C1 (tilt 0.1 rad,
// Ω = (0.1, 0, 0.1), rotors on π̃ = 0, σ = −1.5e-4). Wiring only: board + sensor source (SIL
// plant) + controller + runtime. Runs 10 s of (virtual) time, prints the runtime report and the
// outcome, and exits 0 when the tilt stayed below 0.12 rad with the controller never dropping to
// the safe state.
#include <cmath>

#include "attractor/board/board.hpp"
#include "attractor/control/spherical_robot_controller.hpp"
#include "attractor/core/text.hpp"
#include "attractor/plant/simulated_spherical_robot.hpp"
#include "attractor/rt/loop.hpp"
#include "attractor/rt/tick.hpp"
#include "attractor/version.hpp"

using attractor::Text;
using Board = attractor::board::Board;
using S = float;

namespace {

constexpr std::uint32_t kRateHz = 1000;
constexpr std::uint32_t kTicks = 10000;  // 10 s at 1 kHz
constexpr S kTiltLimit = 0.12f;          // "upright" (spherical-robot.md: C1 peaks at 0.108 rad)
constexpr S kDt = 1.0f / static_cast<S>(kRateHz);

using Source = attractor::SimulatedSphericalRobot<S>;  // a HIL link would go here
using Controller = attractor::SphericalRobotController<S>;
using Outcome = attractor::SphericalRobotOutcome<S>;
using Loop = attractor::rt::Loop<Source, Controller, Outcome>;

void line(const char* label, S v) {
  Text<96> t;
  t << "spherical-robot: " << label << " ";
  t.scientific(static_cast<double>(v), 6);
  t << "\n";
  Board::write(t.c_str());
}

int refused(const char* what, attractor::Error e) {
  Text<96> t;
  t << "spherical-robot: " << what << " refused: " << attractor::to_string(e) << "\n";
  Board::write(t.c_str());
  return 2;
}

}  // namespace

int main() {
  Board::initialize();
  const Controller::Config cfg;  // reference robot, σ = −1.5e-4 on both rotors, |u| <= 1 N m
  auto controller = Controller::make(cfg, kDt);
  if (!controller) return refused("configuration", controller.error());
  Source::Config plant_cfg;  // reference robot, tilt 0.1 rad, Ω = (0.1, 0, 0.1)
  plant_cfg.rotor_rates = controller->law().zero_momentum_rotor_rates(plant_cfg.omega);  // C1: π̃ = 0
  auto plant = Source::make(plant_cfg, kDt);
  if (!plant) return refused("plant", plant.error());
  {
    Text<192> t;
    t << "spherical-robot (Attractor " << attractor::version << ") on " << Board::name() << ": SIL, float, " << kRateHz
      << " Hz, " << kTicks << " ticks, sigma ";
    t.scientific(static_cast<double>(cfg.sigma[0]), 3);
    t << " (stable range lower bound ";
    t.scientific(static_cast<double>(attractor::spherical_robot_stability_range(cfg.params).lower), 4);
    t << "), torque limit ";
    t.scientific(static_cast<double>(cfg.torque_limit), 3);
    t << " N m\n";
    Board::write(t.c_str());
  }

  Loop loop(*plant, *controller);
  attractor::rt::Config rc = attractor::rt::rate_hz(kRateHz);
  rc.max_ticks = kTicks;
  const attractor::rt::Report r = attractor::rt::run<Board>(loop, rc);
  attractor::rt::write_report(r, [](const char* s) { Board::write(s); });

  const Outcome& o = loop.monitor();
  const S max_tilt = std::acos(o.min_gamma3 < 1.0f ? o.min_gamma3 : 1.0f);
  line("min Gamma3 (plant)        ", o.min_gamma3);
  line("max tilt [rad]            ", max_tilt);
  line("max |u_a| [N m]           ", o.max_abs_torque);
  line("max |theta_dot_a| [rad/s] ", o.max_rotor_rate);
  line("max |Gamma_hat - Gamma|   ", o.max_gamma_error);
  line("final Gamma3 (plant)      ", loop.source().state()[5]);
  {
    Text<64> t;
    t << "spherical-robot: singular ticks " << loop.controller().status().singular_ticks << "\n";
    Board::write(t.c_str());
  }

  const bool upright = max_tilt < kTiltLimit && r.mode == attractor::rt::Mode::running && r.steps == kTicks;
  Board::write(upright ? "spherical-robot: UPRIGHT for 10 s (max tilt < 0.12 rad, controller never left running mode)\n"
                       : "spherical-robot: FELL (max tilt >= 0.12 rad) or tripped to the safe state\n");
  return upright ? 0 : 1;
}
