// SPDX-License-Identifier: Apache-2.0
// The reaction-wheel pendulum's facts for the generic apps (apps/common/sil_main.hpp,
// hil_main.hpp): the arm kept upright by its wheel with the controlled-Lagrangian law
// (control/reaction_wheel_law.hpp, σ = −1e-5 inside −I_w²/𝕀 < σ < 0), its SIL source (tilted
// 0.1 rad at rest), its wire mapping, its outcome lines and the threshold "upright": tilt below
// 0.12 rad throughout (the conservative closed loop swings back to its start, 0.1 rad).
// Heap-free; used on the target and on the host.
#pragma once

#include <cmath>

#include "attractor/core/result.hpp"
#include "attractor/core/text.hpp"
#include "attractor/plants/wheel_pendulum/controller.hpp"
#include "attractor/plants/wheel_pendulum/simulated.hpp"
#include "attractor/plants/wheel_pendulum/wire.hpp"

namespace attractor::plants {

template <class S>
struct WheelPendulumFacts {
  using Controller = WheelPendulumController<S>;
  using Source = SimulatedWheelPendulum<S>;
  using Outcome = WheelPendulumOutcome<S>;
  template <class W>
  using Wire = link::WheelPendulumWire<W>;

  static constexpr const char* kApp = "wheel-pendulum";
  static constexpr const char* kPrefix = "wheel-pendulum";
  static constexpr const char* kHilName = "wheel-hil";
  static constexpr S kTiltLimit = S(0.12);  // rad
  static constexpr const char* kUpright =
      "wheel-pendulum: UPRIGHT for 10 s (max tilt < 0.12 rad, controller never left running mode)\n";
  static constexpr const char* kFell = "wheel-pendulum: FELL (max tilt >= 0.12 rad) or tripped to the safe state\n";

  // The apps run the controlled-Lagrangian law only: the firmware does not compile the LQR design.
  static Result<Controller> make_controller(const typename Controller::Config& c, S dt) {
    return Controller::make_controlled_lagrangian(c, dt);
  }

  static Result<Source> make_source(const Controller& controller, S dt) {
    typename Source::Config c;
    c.params = controller.config().params;
    return Source::make(c, dt);
  }

  template <int N>
  static void banner(const typename Controller::Config& cfg, Text<N>& t) {
    t.scientific(static_cast<double>(cfg.sigma), 3);
    t << " (stable range lower bound ";
    t.scientific(static_cast<double>(reaction_wheel_stability_range(cfg.params).lower), 4);
    t << "), torque limit ";
    t.scientific(static_cast<double>(cfg.torque_limit), 3);
    t << " N m\n";
  }

  // The run's numbers, one `line(label, value)` each; true when the tilt stayed below the limit.
  template <class Loop, class Line, class Write>
  static bool outcome(const Loop& loop, const Line& line, const Write&) {
    const Outcome& o = loop.monitor();
    const S max_tilt = std::acos(o.min_gamma2 < S(1) ? o.min_gamma2 : S(1));
    line("min Gamma2 (plant)        ", o.min_gamma2);
    line("max tilt [rad]            ", max_tilt);
    line("max |u| [N m]             ", o.max_abs_torque);
    line("max |theta_dot| [rad/s]   ", o.max_wheel_rate);
    line("max ||Gamma|^2-1| (plant) ", o.max_norm_error);
    line("final Gamma2 (plant)      ", loop.source().state()[2]);
    return max_tilt < kTiltLimit;
  }
};

}  // namespace attractor::plants
