// SPDX-License-Identifier: Apache-2.0
// How the spherical robot's signals (SphericalRobotSignals, plants/spherical_robot/signals.hpp)
// travel in HIL frames (link/table_wire.hpp):
//   measurement y = (Ω1 Ω2 Ω3, a1 a2 a3, θ̇1 θ̇2) <-> sensor frame gyro = Ω, vertical = a
//   (measured upward vertical Γ in the body), rotor speeds = (θ̇1, θ̇2, 0), velocity = 0 (the
//   robot has no velocity sensor; the rolling constraint Y = aΩ×Γ makes it redundant);
//   command u = (u1, u2) <-> actuator frame torques = (u1, u2, 0).
// plausible(): the measured vertical is the direction Γ, |Γ| = 1 (paper 004), the same rule as
// the skate's (link/unit_vertical.hpp): a bias along Γ beyond ±0.1 is counted `implausible`.
#pragma once

#include "attractor/link/table_wire.hpp"
#include "attractor/plants/spherical_robot/signals.hpp"

namespace attractor::link {

struct SphericalRobotWireMap {
  static constexpr PlantId kPlant = PlantId::spherical_robot;
  template <class S>
  using Signals = SphericalRobotSignals<S>;
  static constexpr SensorSlot kMeasurement[] = {slot::gyro(0),       slot::gyro(1),      slot::gyro(2),
                                                slot::vertical(0),   slot::vertical(1),  slot::vertical(2),
                                                slot::rotor_rate(0), slot::rotor_rate(1)};
  static constexpr int kTorqueAxis[] = {0, 1};
  static constexpr Plausibility kPlausibility = Plausibility::unit_vertical;
};

template <class S>
using SphericalRobotWire = TableWire<S, SphericalRobotWireMap>;

}  // namespace attractor::link
