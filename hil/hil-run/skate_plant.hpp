// SPDX-License-Identifier: Apache-2.0
// attractor-hil --plant skate (the default): paper 003 §7.3's rotor skate simulated on the host
// in double (SimulatedSkateRotor<double>: one RK4 step of the feedback integrator per 1 ms tick,
// zero-order hold of the torque), with its wire mapping (plants/skate_rotor/wire.hpp) and its
// success criterion. The experiment loop (experiment.hpp) is generic over this interface; robot_plant.hpp is
// the other instance.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "attractor/core/result.hpp"
#include "attractor/plants/skate_rotor/simulated.hpp"
#include "attractor/plants/skate_rotor/wire.hpp"
#include "closed_loop_options.hpp"

namespace hil_run {

class SkatePlant {
 public:
  using Wire = attractor::link::SkateRotorWire<double>;
  static constexpr const char* kName = "skate";
  static constexpr const char* kHilApp = "apps/skate-rotor-hil";  // the firmware it runs against
  static constexpr attractor::link::PlantId kPlant = attractor::link::PlantId::skate_rotor;  // its hello names it
  static constexpr const char* kCriterion = "Gamma3 > 0.95 throughout";                      // paper 003 §7.3 run
  static constexpr const char* kCsvColumns = "gamma2,gamma3,torque";

  // --mismatch keys (attractor-sim skate's) and the legacy --mismatch PERCENT's: mass, length and
  // rotor inertia (scaling every mass and inertia alike would leave the free motion unchanged;
  // these change the gravity torque m g l, the inertia I1 + m l² and the rotor's authority).
  static inline const std::vector<std::string> kMismatchKeys = {"m", "l", "I1", "I2", "I3", "g", "J1", "J2", "J3"};
  static inline const std::vector<std::string> kPercentKeys = {"m", "l", "J1"};

  // The plant: the controller's model (the firmware's default config) with --mismatch applied.
  static attractor::Result<SkatePlant> make(const attractor::cli::ClosedLoopOptions& lo) {
    attractor::SimulatedSkateRotorConfig<double> pc;
    auto& p = pc.params;
    const char* names[] = {"m", "l", "I1", "I2", "I3", "g", "J1", "J2", "J3"};
    double* fields[] = {&p.m, &p.l, &p.I1, &p.I2, &p.I3, &p.g, &p.J1, &p.J2, &p.J3};
    for (int i = 0; i < 9; ++i) *fields[i] = lo.plant(names[i], *fields[i]);
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
