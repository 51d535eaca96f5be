// SPDX-License-Identifier: Apache-2.0
// The spherical robot's facts for the generic apps (apps/common/sil_main.hpp, hil_main.hpp): the
// top-heavy spherical robot (paper 004 (0.29)–(0.30)) kept upright by its two internal rotors
// with the controlled-Lagrangian law (paper 003 law (53), Remark 14; plants/spherical_robot/law.hpp),
// its SIL source from the reference run C1 (tilt 0.1 rad, Ω = (0.1, 0, 0.1), rotors on π̃ = 0,
// σ = −1.5e-4), its wire mapping, its outcome lines and the threshold "upright": tilt below
// 0.12 rad throughout (docs/spherical-robot.md: C1 peaks at 0.108 rad). Heap-free; used on the
// target and on the host.
#pragma once

#include <cmath>

#include "attractor/core/result.hpp"
#include "attractor/core/text.hpp"
#include "attractor/plants/spherical_robot/controller.hpp"
#include "attractor/plants/spherical_robot/simulated.hpp"
#include "attractor/plants/spherical_robot/wire.hpp"

namespace attractor::plants {

template <class S>
struct SphericalRobotFacts {
  using Controller = SphericalRobotController<S>;
  using Source = SimulatedSphericalRobot<S>;
  using Outcome = SphericalRobotOutcome<S>;
  template <class W>
  using Wire = link::SphericalRobotWire<W>;

  static constexpr const char* kApp = "spherical-robot";
  static constexpr const char* kPrefix = "spherical-robot";
  static constexpr const char* kHilName = "robot-hil";
  static constexpr S kTiltLimit = S(0.12);  // rad
  static constexpr const char* kUpright =
      "spherical-robot: UPRIGHT for 10 s (max tilt < 0.12 rad, controller never left running mode)\n";
  static constexpr const char* kFell = "spherical-robot: FELL (max tilt >= 0.12 rad) or tripped to the safe state\n";

  // C1: the reference robot, its rotors on π̃ = 0 for the controller's σ.
  // The controller the apps run (the documented default configuration).
  static Result<Controller> make_controller(const typename Controller::Config& c, S dt) {
    return Controller::make(c, dt);
  }

  static Result<Source> make_source(const Controller& controller, S dt) {
    typename Source::Config c;
    c.rotor_rates = controller.law().zero_momentum_rotor_rates(c.omega);
    return Source::make(c, dt);
  }

  template <int N>
  static void banner(const typename Controller::Config& cfg, Text<N>& t) {
    t.scientific(static_cast<double>(cfg.sigma[0]), 3);
    t << " (stable range lower bound ";
    t.scientific(static_cast<double>(spherical_robot_stability_range(cfg.params).lower), 4);
    t << "), torque limit ";
    t.scientific(static_cast<double>(cfg.torque_limit), 3);
    t << " N m\n";
  }

  // The run's numbers, one `line(label, value)` each; true when the tilt stayed below the limit.
  template <class Loop, class Line, class Write>
  static bool outcome(const Loop& loop, const Line& line, const Write& write) {
    const Outcome& o = loop.monitor();
    const S max_tilt = std::acos(o.min_gamma3 < S(1) ? o.min_gamma3 : S(1));
    line("min Gamma3 (plant)        ", o.min_gamma3);
    line("max tilt [rad]            ", max_tilt);
    line("max |u_a| [N m]           ", o.max_abs_torque);
    line("max |theta_dot_a| [rad/s] ", o.max_rotor_rate);
    line("max |Gamma_hat - Gamma|   ", o.max_gamma_error);
    line("final Gamma3 (plant)      ", loop.source().state()[5]);
    Text<64> t;
    t << "spherical-robot: singular ticks " << loop.controller().status().singular_ticks << "\n";
    write(t.c_str());
    return max_tilt < kTiltLimit;
  }
};

}  // namespace attractor::plants
