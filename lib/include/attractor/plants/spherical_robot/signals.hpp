// SPDX-License-Identifier: Apache-2.0
// The spherical robot's sensors and actuators, as a SIL plant produces them and a HIL frame
// carries them (the same role as SkateRotorSignals for the skate):
//   measurement y (8) = Ω1 Ω2 Ω3 [rad/s] gyro (body frame), a1 a2 a3 measured upward vertical
//                       in the body (accelerometer direction, unit vector), θ̇1 θ̇2 [rad/s]
//                       rotor rates relative to the shell (encoders);
//   command u (2)     = motor torques on rotors 1 and 2 [N m] (the shell feels −u).
// x = (Ω, Γ, θ̇) of systems/spherical_robot.hpp maps onto y one to one.
#pragma once

#include "attractor/core/types.hpp"

namespace attractor {

template <class S>
struct SphericalRobotSignals {
  static constexpr int measurement_dim = 8, command_dim = 2;
  static constexpr int gyro = 0, vertical = 3, rotor_rate = 6;  // offsets in y
  using Measurement = Vec<S, measurement_dim>;
  using Command = Vec<S, command_dim>;
};

// Ideal sensors at the plant state x = (Ω, Γ, θ̇): the gyro reads Ω, the vertical Γ/|Γ|, the
// encoders θ̇. (No zero test: the plant keeps |Γ| = 1; a zero Γ gives NaN, which the runtime
// counts as a non-finite sample.)
template <class S>
Vec<S, 8> spherical_robot_measurement(const Vec<S, 8>& x) {
  Vec<S, 8> y = x;
  y.template segment<3>(3) /= x.template segment<3>(3).norm();
  return y;
}

}  // namespace attractor
