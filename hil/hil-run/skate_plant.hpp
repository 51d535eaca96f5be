// SPDX-License-Identifier: Apache-2.0
// attractor-hil --plant skate (the default): paper 003 §7.3's rotor skate simulated on the host
// in double (SimulatedSkateRotor<double>: one RK4 step of the feedback integrator per 1 ms tick,
// zero-order hold of the torque), with its wire mapping (link/skate_rotor_wire.hpp) and its
// success criterion. The runner (main.cpp) is generic over this interface; robot_plant.hpp is
// the other instance.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "attractor/core/result.hpp"
#include "attractor/link/skate_rotor_wire.hpp"
#include "attractor/plant/simulated_skate_rotor.hpp"

namespace hil_run {

class SkatePlant {
 public:
  using Wire = attractor::link::SkateRotorWire<double>;
  static constexpr const char* kName = "skate";
  static constexpr const char* kMismatched = "m, l, J1";
  static constexpr const char* kCriterion = "Gamma3 > 0.95 throughout";  // paper 003 §7.3 run
  static constexpr const char* kCsvColumns = "gamma2,gamma3,torque";

  // The plant with mass m, length l and rotor inertia J1 off the controller's by mismatch_pct
  // percent (scaling every mass and inertia alike would leave the free motion unchanged; this
  // changes the gravity torque m g l, the inertia I1 + m l² and the rotor's authority relative
  // to the model the controller was designed on).
  static attractor::Result<SkatePlant> make(double mismatch_pct) {
    attractor::SimulatedSkateRotorConfig<double> pc;
    const double k = 1.0 + mismatch_pct / 100.0;
    for (double* p : {&pc.params.m, &pc.params.l, &pc.params.J1}) *p *= k;
    auto made = attractor::SimulatedSkateRotor<double>::make(pc, 1e-3);
    if (!made) return made.error();
    SkatePlant s;
    s.sim_ = *made;
    return s;
  }

  // One tick: hold the actuator frame's torques, advance, read the ideal sensors.
  attractor::link::SensorReading<double> step(const attractor::Vec3<double>& torque) {
    sim_.actuate(Wire::command(torque));
    Wire::Measurement y;
    (void)sim_.sample(y);
    return Wire::reading(y);
  }

  double gamma3() const { return sim_.state()[4]; }
  static bool upright(double min_gamma3) { return min_gamma3 > 0.95; }
  void write_csv(std::FILE* f, const attractor::Vec3<double>& torque) const {
    std::fprintf(f, "%.17g,%.17g,%.9g", sim_.state()[3], sim_.state()[4], torque[0]);
  }

 private:
  attractor::SimulatedSkateRotor<double> sim_;
};

}  // namespace hil_run
