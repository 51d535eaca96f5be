// SPDX-License-Identifier: Apache-2.0
// How the rotor skate's signals (SkateRotorSignals, systems/pendulum_skate_rotor.hpp) travel in
// HIL frames: measurement y = (Ω1 Ω2 Ω3, Y1, a1 a2 a3, θ̇) <-> sensor frame gyro = Ω,
// velocity = (Y1, 0, 0), vertical = a, rotor speeds = (θ̇, 0, 0); command u = (rotor torque)
// <-> actuator frame torques = (u, 0, 0). A new plant on the link is one such adapter.
// plausible(): the measured vertical is the direction Γ (paper 003: |Γ| = 1), the rule of
// link/unit_vertical.hpp (what it can and cannot see is there).
#pragma once

#include "attractor/core/types.hpp"
#include "attractor/link/plant_id.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/unit_vertical.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"

namespace attractor::link {

template <class S>
struct SkateRotorWire {
  using Signals = SkateRotorSignals<S>;
  using Measurement = typename Signals::Measurement;
  using Command = typename Signals::Command;
  static constexpr PlantId kPlant = PlantId::skate_rotor;  // in the hello answer (link/hello_frame.hpp)

  static Measurement measurement(const SensorReading<S>& r) {
    Measurement y;
    y << r.gyro, r.velocity[0], r.vertical, r.rotor_rate[0];
    return y;
  }
  static SensorReading<S> reading(const Measurement& y) {
    SensorReading<S> r;
    r.gyro = y.template segment<3>(Signals::gyro);
    r.velocity << y[Signals::blade_speed], S(0), S(0);
    r.vertical = y.template segment<3>(Signals::vertical);
    r.rotor_rate << y[Signals::rotor_rate], S(0), S(0);
    return r;
  }
  static bool plausible(const SensorReading<S>& r) { return unit_vertical_plausible(r); }
  static Vec3<S> torque(const Command& u) { return Vec3<S>(u[0], S(0), S(0)); }
  static Command command(const Vec3<S>& torque) { return Command(torque[0]); }
};

}  // namespace attractor::link
