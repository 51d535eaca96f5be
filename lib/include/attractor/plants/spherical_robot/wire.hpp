// SPDX-License-Identifier: Apache-2.0
// How the spherical robot's signals (SphericalRobotSignals, plants/spherical_robot/signals.hpp)
// travel in HIL frames, on the same wire layout as the skate (link/frame_layout.hpp):
//   measurement y = (Ω1 Ω2 Ω3, a1 a2 a3, θ̇1 θ̇2) <-> sensor frame gyro = Ω, vertical = a
//   (measured upward vertical Γ in the body), rotor speeds = (θ̇1, θ̇2, 0), velocity = 0 (the
//   robot has no velocity sensor; the rolling constraint Y = aΩ×Γ makes it redundant);
//   command u = (u1, u2) <-> actuator frame torques = (u1, u2, 0).
// plausible(): the measured vertical is the direction Γ, |Γ| = 1 (paper 004), the same rule as
// the skate's (link/unit_vertical.hpp): a bias along Γ beyond ±0.1 is counted `implausible`.
// The same shape as plants/skate_rotor/wire.hpp.
#pragma once

#include "attractor/core/types.hpp"
#include "attractor/link/plant_id.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/unit_vertical.hpp"
#include "attractor/plants/spherical_robot/signals.hpp"

namespace attractor::link {

template <class S>
struct SphericalRobotWire {
  using Signals = SphericalRobotSignals<S>;
  using Measurement = typename Signals::Measurement;
  using Command = typename Signals::Command;
  static constexpr PlantId kPlant = PlantId::spherical_robot;  // in the hello answer (link/hello_frame.hpp)

  static Measurement measurement(const SensorReading<S>& r) {
    Measurement y;
    y << r.gyro, r.vertical, r.rotor_rate[0], r.rotor_rate[1];
    return y;
  }
  static SensorReading<S> reading(const Measurement& y) {
    SensorReading<S> r;
    r.gyro = y.template segment<3>(Signals::gyro);
    r.vertical = y.template segment<3>(Signals::vertical);
    r.velocity = Vec3<S>::Zero();
    r.rotor_rate << y[Signals::rotor_rate], y[Signals::rotor_rate + 1], S(0);
    return r;
  }
  static bool plausible(const SensorReading<S>& r) { return unit_vertical_plausible(r); }
  static Vec3<S> torque(const Command& u) { return Vec3<S>(u[0], u[1], S(0)); }
  static Command command(const Vec3<S>& torque) { return Command(torque[0], torque[1]); }
};

}  // namespace attractor::link
