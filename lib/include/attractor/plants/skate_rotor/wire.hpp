// SPDX-License-Identifier: Apache-2.0
// How the rotor skate's signals (SkateRotorSignals, systems/pendulum_skate_rotor.hpp) travel in
// HIL frames (link/table_wire.hpp): measurement y = (Ω1 Ω2 Ω3, Y1, a1 a2 a3, θ̇) <-> sensor frame
// gyro = Ω, velocity = (Y1, 0, 0), vertical = a, rotor speeds = (θ̇, 0, 0); command u = (rotor
// torque) <-> actuator frame torques = (u, 0, 0).
// plausible(): the measured vertical is the direction Γ (paper 003: |Γ| = 1), the rule of
// link/unit_vertical.hpp (what it can and cannot see is there).
#pragma once

#include "attractor/link/table_wire.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"

namespace attractor::link {

struct SkateRotorWireMap {
  static constexpr PlantId kPlant = PlantId::skate_rotor;
  template <class S>
  using Signals = SkateRotorSignals<S>;
  static constexpr SensorSlot kMeasurement[] = {slot::gyro(0),     slot::gyro(1),      slot::gyro(2),
                                                slot::velocity(0), slot::vertical(0),  slot::vertical(1),
                                                slot::vertical(2), slot::rotor_rate(0)};
  static constexpr int kTorqueAxis[] = {0};
  static constexpr Plausibility kPlausibility = Plausibility::unit_vertical;
};

template <class S>
using SkateRotorWire = TableWire<S, SkateRotorWireMap>;

}  // namespace attractor::link
