// SPDX-License-Identifier: Apache-2.0
// How the reaction-wheel pendulum's signals (signals.hpp) travel in HIL frames
// (link/table_wire.hpp), laid out as the skate's tilt about E1: measurement y = (Ω, Γ1, Γ2, θ̇)
// <-> sensor frame gyro = (Ω, 0, 0), vertical = (0, Γ1, Γ2) (upright (0, 0, 1)), rotor speeds =
// (θ̇, 0, 0), velocity = 0; command u = (wheel torque) <-> actuator frame torques = (u, 0, 0).
// plausible(): the measured vertical is the direction Γ, |Γ| = 1 (link/unit_vertical.hpp).
#pragma once

#include "attractor/link/table_wire.hpp"
#include "attractor/plants/wheel_pendulum/signals.hpp"

namespace attractor::link {

struct WheelPendulumWireMap {
  static constexpr PlantId kPlant = PlantId::wheel_pendulum;
  template <class S>
  using Signals = WheelPendulumSignals<S>;
  static constexpr SensorSlot kMeasurement[] = {slot::gyro(0), slot::vertical(1), slot::vertical(2),
                                                slot::rotor_rate(0)};
  static constexpr int kTorqueAxis[] = {0};
  static constexpr Plausibility kPlausibility = Plausibility::unit_vertical;
};

template <class S>
using WheelPendulumWire = TableWire<S, WheelPendulumWireMap>;

}  // namespace attractor::link
