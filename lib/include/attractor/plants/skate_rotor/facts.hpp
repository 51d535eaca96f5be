// SPDX-License-Identifier: Apache-2.0
// The rotor skate's facts for the generic apps (apps/common/sil_main.hpp, hil_main.hpp): paper
// 003 §6–7's pendulum skate kept upright by its internal rotor (law (56) as corrected in
// plants/skate_rotor/law.hpp, σ = −1e-5 of §7.3), its SIL source from the default run (59),
// its wire mapping, its outcome lines and the threshold "upright": Γ3 > 0.95 (tilt below ~18°)
// throughout. Heap-free; used on the target and on the host.
#pragma once

#include <cmath>

#include "attractor/core/result.hpp"
#include "attractor/core/text.hpp"
#include "attractor/plants/skate_rotor/controller.hpp"
#include "attractor/plants/skate_rotor/simulated.hpp"
#include "attractor/plants/skate_rotor/wire.hpp"

namespace attractor::plants {

template <class S>
struct SkateRotorFacts {
  using Controller = SkateRotorController<S>;
  using Source = SimulatedSkateRotor<S>;
  using Outcome = SkateRotorOutcome<S>;
  template <class W>
  using Wire = link::SkateRotorWire<W>;

  static constexpr const char* kApp = "skate-rotor";
  static constexpr const char* kPrefix = "skate";
  static constexpr const char* kHilName = "skate-hil";
  static constexpr S kUprightGamma3 = S(0.95);
  static constexpr const char* kUpright = "skate: UPRIGHT for 10 s (controller never left running mode)\n";
  static constexpr const char* kFell = "skate: FELL or tripped to the safe state\n";

  // The controller the apps run (the documented default configuration).
  static Result<Controller> make_controller(const typename Controller::Config& c, S dt) {
    return Controller::make(c, dt);
  }
  static Result<Source> make_source(const Controller&, S dt) { return Source::make(typename Source::Config{}, dt); }

  template <int N>
  static void banner(const typename Controller::Config& cfg, Text<N>& t) {
    t.scientific(static_cast<double>(cfg.sigma), 3);
    t << " (stable range lower bound ";
    t.scientific(static_cast<double>(skate_rotor_stability_range(cfg.params).lower), 4);
    t << ")\n";
  }

  // The run's numbers, one `line(label, value)` each; true when the skate stayed upright.
  template <class Loop, class Line, class Write>
  static bool outcome(const Loop& loop, const Line& line, const Write&) {
    const Outcome& o = loop.monitor();
    line("min Gamma3 (plant)        ", o.min_gamma3);
    line("max tilt [rad]            ", std::acos(o.min_gamma3 < S(1) ? o.min_gamma3 : S(1)));
    line("max |u| [N m]             ", o.max_abs_torque);
    line("max |Gamma_hat - Gamma|   ", o.max_gamma_error);
    line("max |Gamma|^2-1, |Gamma1| ", o.max_constraint);
    line("final Gamma3 (plant)      ", loop.source().state()[4]);
    return o.min_gamma3 > kUprightGamma3;
  }
};

}  // namespace attractor::plants
