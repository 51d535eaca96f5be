// SPDX-License-Identifier: Apache-2.0
// The reaction-wheel pendulum's sensors and actuator, as its SIL plant produces them and a HIL
// frame carries them: measurement y (4) = Ω [rad/s] arm rate (gyro about the pivot axis), Γ1 Γ2
// the measured upward vertical in the arm's plane (accelerometer direction; upright is (0, 1)),
// θ̇ [rad/s] wheel rate relative to the arm; command u (1) = wheel motor torque [N m]. y is the
// law's state x = (Ω, Γ1, Γ2, θ̇) of systems/reaction_wheel_pendulum.hpp as measured.
#pragma once

#include "attractor/core/types.hpp"

namespace attractor {

template <class S>
struct WheelPendulumSignals {
  static constexpr int measurement_dim = 4, command_dim = 1;
  static constexpr int gyro = 0, vertical = 1, wheel_rate = 3;  // offsets in y
  using Measurement = Vec<S, measurement_dim>;
  using Command = Vec<S, command_dim>;
};

}  // namespace attractor
