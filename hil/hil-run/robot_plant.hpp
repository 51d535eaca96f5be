// SPDX-License-Identifier: Apache-2.0
// attractor-hil --plant spherical-robot: the spherical robot of docs/spherical-robot.md
// (paper 004 (0.29)–(0.30)) simulated on the host in double (SimulatedSphericalRobot<double>:
// the library's model, one RK4 step of its feedback integrator per 1 ms tick keeping |Γ| = 1,
// zero-order hold of the two rotor torques), from the reference run C1 (tilt 0.1 rad,
// Ω = (0.1, 0, 0.1), rotors on π̃ = 0 for the controller's σ = −1.5e-4), with its wire mapping
// (plants/spherical_robot/wire.hpp) and the spec's success criterion: tilt arccos Γ3 < 0.12 rad
// throughout (C1 peaks at 0.1080 rad). The same interface as skate_plant.hpp.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "attractor/core/result.hpp"
#include "attractor/plants/spherical_robot/controller.hpp"
#include "attractor/plants/spherical_robot/simulated.hpp"
#include "attractor/plants/spherical_robot/wire.hpp"
#include "closed_loop_options.hpp"

namespace hil_run {

class RobotPlant {
 public:
  using Wire = attractor::link::SphericalRobotWire<double>;
  static constexpr const char* kName = "spherical-robot";
  static constexpr const char* kHilApp = "apps/spherical-robot-hil";  // the firmware it runs against
  static constexpr attractor::link::PlantId kPlant = attractor::link::PlantId::spherical_robot;  // its hello names it
  static constexpr const char* kCriterion = "tilt < 0.12 rad throughout (docs/spherical-robot.md)";
  static constexpr const char* kCsvColumns = "gamma1,gamma2,gamma3,torque1,torque2,rotor1,rotor2";
  static constexpr double kTiltLimit = 0.12;  // rad

  // --mismatch keys (attractor-sim spherical-robot's) and the legacy --mismatch PERCENT's: total
  // mass, CM height and both rotor inertias (the gravity torque m g l, the pivot inertia I_P and
  // the rotors' authority change; see skate_plant.hpp for why not every inertia alike).
  static inline const std::vector<std::string> kMismatchKeys = {"a", "m", "l", "g", "I1", "I2", "I3", "J1", "J2"};
  static inline const std::vector<std::string> kPercentKeys = {"m", "l", "J1", "J2"};

  // The plant: the controller's model with --mismatch applied. The initial rotor rates are C1's
  // π̃ = 0 ones for the controller's model (the firmware's default config).
  static attractor::Result<RobotPlant> make(const attractor::cli::ClosedLoopOptions& lo) {
    const attractor::SphericalRobotControllerConfig<double> ctrl;  // what the firmware runs (in float)
    auto law = attractor::SphericalRobotLaw<double>::make(ctrl.params, ctrl.sigma);
    if (!law) return law.error();
    attractor::SimulatedSphericalRobotConfig<double> pc;
    pc.rotor_rates = law->zero_momentum_rotor_rates(pc.omega);
    auto& p = pc.params;
    const char* names[] = {"a", "m", "l", "g", "I1", "I2", "I3", "J1", "J2"};
    double* fields[] = {&p.radius, &p.m, &p.l, &p.g, &p.I1, &p.I2, &p.I3, &p.J1, &p.J2};
    for (int i = 0; i < 9; ++i) *fields[i] = lo.plant(names[i], *fields[i]);
    auto made = attractor::SimulatedSphericalRobot<double>::make(pc, 1e-3);
    if (!made) return made.error();
    RobotPlant r;
    r.sim_ = *made;
    return r;
  }

  // One tick: hold the actuator frame's torques, advance, read the ideal sensors.
  attractor::link::SensorReading<double> step(const attractor::Vec3<double>& torque) {
    sim_.actuate(Wire::command(torque));
    Wire::Measurement y;
    (void)sim_.sample(y);
    return Wire::reading(y);
  }

  double gamma3() const { return sim_.vertical()[2] / sim_.vertical().norm(); }
  static bool upright(double min_gamma3) { return min_gamma3 > std::cos(kTiltLimit); }
  void write_csv(std::FILE* f, const attractor::Vec3<double>& torque) const {
    const attractor::Vec<double, 8>& x = sim_.state();
    std::fprintf(f, "%.17g,%.17g,%.17g,%.9g,%.9g,%.17g,%.17g", x[3], x[4], x[5], torque[0], torque[1], x[6], x[7]);
  }

 private:
  attractor::SimulatedSphericalRobot<double> sim_;
};

}  // namespace hil_run
