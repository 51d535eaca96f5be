// SPDX-License-Identifier: Apache-2.0
// attractor-hil --plant wheel-pendulum: the reaction-wheel pendulum (docs/reaction-wheel-pendulum.md)
// simulated on the host in double (SimulatedWheelPendulum<double>: one RK4 step of its feedback
// integrator per 1 ms tick keeping |Γ| = 1, zero-order hold of the wheel torque), tilted 0.1 rad
// at rest, with its wire mapping (plants/wheel_pendulum/wire.hpp) and its success criterion: tilt
// arccos Γ2 < 0.12 rad throughout (plants/wheel_pendulum/facts.hpp). "Gamma3" in the summary and
// the experiment is the wire's third vertical component, here Γ2 = cos(tilt). The same interface
// as skate_plant.hpp.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "attractor/core/result.hpp"
#include "attractor/plants/wheel_pendulum/facts.hpp"
#include "closed_loop_options.hpp"

namespace hil_run {

class WheelPlant {
 public:
  using Facts = attractor::plants::WheelPendulumFacts<double>;
  using Wire = Facts::Wire<double>;
  static constexpr const char* kName = "wheel-pendulum";
  static constexpr const char* kHilApp = "apps/wheel-pendulum-hil";  // the firmware it runs against
  static constexpr attractor::link::PlantId kPlant = attractor::link::PlantId::wheel_pendulum;  // its hello names it
  static constexpr const char* kCriterion = "tilt < 0.12 rad throughout (docs/reaction-wheel-pendulum.md)";
  static constexpr const char* kCsvColumns = "gamma1,gamma2,torque,wheel_rate";

  // --mismatch keys (the parameters of systems/reaction_wheel_pendulum.hpp) and the legacy
  // --mismatch PERCENT's: the gravity moment's masses and distance and the wheel inertia (the
  // law's k and range depend on I_w and 𝕀, the fall on M g).
  static inline const std::vector<std::string> kMismatchKeys = {"m_p", "l", "I_p", "m_w", "l_w", "I_w", "g"};
  static inline const std::vector<std::string> kPercentKeys = {"m_p", "l", "I_w"};

  // The plant: the controller's model (the firmware's default config) with --mismatch applied.
  static attractor::Result<WheelPlant> make(const attractor::cli::ClosedLoopOptions& lo) {
    attractor::SimulatedWheelPendulumConfig<double> pc;
    auto& p = pc.params;
    const char* names[] = {"m_p", "l", "I_p", "m_w", "l_w", "I_w", "g"};
    double* fields[] = {&p.m_p, &p.l, &p.I_p, &p.m_w, &p.l_w, &p.I_w, &p.g};
    for (int i = 0; i < 7; ++i) *fields[i] = lo.plant(names[i], *fields[i]);
    auto made = attractor::SimulatedWheelPendulum<double>::make(pc, 1e-3);
    if (!made) return made.error();
    WheelPlant w;
    w.sim_ = *made;
    return w;
  }

  // One tick: hold the actuator frame's torque, advance, read the ideal sensors.
  attractor::link::SensorReading<double> step(const attractor::Vec3<double>& torque) {
    sim_.actuate(Wire::command(torque));
    Wire::Measurement y;
    (void)sim_.sample(y);
    return Wire::reading(y);
  }

  double gamma3() const {
    const auto& x = sim_.state();
    return x[2] / std::sqrt(x[1] * x[1] + x[2] * x[2]);
  }
  static bool upright(double min_gamma3) { return min_gamma3 > std::cos(Facts::kTiltLimit); }
  void write_csv(std::FILE* f, const attractor::Vec3<double>& torque) const {
    const auto& x = sim_.state();
    std::fprintf(f, "%.17g,%.17g,%.9g,%.17g", x[1], x[2], torque[0], x[3]);
  }

 private:
  attractor::SimulatedWheelPendulum<double> sim_;
};

}  // namespace hil_run
