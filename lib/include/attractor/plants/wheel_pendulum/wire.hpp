// SPDX-License-Identifier: Apache-2.0
// How the reaction-wheel pendulum's signals (signals.hpp) travel in HIL frames, laid out as the
// skate's tilt about E1: measurement y = (Ω, Γ1, Γ2, θ̇) <-> sensor frame gyro = (Ω, 0, 0),
// vertical = (0, Γ1, Γ2) (upright (0, 0, 1)), rotor speeds = (θ̇, 0, 0), velocity = 0; command
// u = (wheel torque) <-> actuator frame torques = (u, 0, 0). plausible(): the measured vertical
// is the direction Γ, |Γ| = 1 (link/unit_vertical.hpp).
#pragma once

#include "attractor/core/types.hpp"
#include "attractor/link/plant_id.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/unit_vertical.hpp"
#include "attractor/plants/wheel_pendulum/signals.hpp"

namespace attractor::link {

template <class S>
struct WheelPendulumWire {
  using Signals = WheelPendulumSignals<S>;
  using Measurement = typename Signals::Measurement;
  using Command = typename Signals::Command;
  static constexpr PlantId kPlant = PlantId::wheel_pendulum;  // in the hello answer (link/hello_frame.hpp)

  static Measurement measurement(const SensorReading<S>& r) {
    return Measurement(r.gyro[0], r.vertical[1], r.vertical[2], r.rotor_rate[0]);
  }
  static SensorReading<S> reading(const Measurement& y) {
    SensorReading<S> r;
    r.gyro << y[Signals::gyro], S(0), S(0);
    r.velocity.setZero();
    r.vertical << S(0), y[Signals::vertical], y[Signals::vertical + 1];
    r.rotor_rate << y[Signals::wheel_rate], S(0), S(0);
    return r;
  }
  static bool plausible(const SensorReading<S>& r) { return unit_vertical_plausible(r); }
  static Vec3<S> torque(const Command& u) { return Vec3<S>(u[0], S(0), S(0)); }
  static Command command(const Vec3<S>& torque) { return Command(torque[0]); }
};

}  // namespace attractor::link
