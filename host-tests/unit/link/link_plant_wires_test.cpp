// SPDX-License-Identifier: Apache-2.0
// Each plant's wire adapter (plants/skate_rotor/wire.hpp, plants/spherical_robot/wire.hpp): a
// measurement with every signal a different number goes into its own frame field and comes back
// the same, the fields the plant does not use are zero, and a command maps to the torques and back.
#include <gtest/gtest.h>

#include "attractor/plants/skate_rotor/wire.hpp"
#include "attractor/plants/spherical_robot/wire.hpp"

using namespace attractor;
using namespace attractor::link;

namespace {

template <class Wire>
typename Wire::Measurement distinct_measurement() {
  typename Wire::Measurement y;
  for (int i = 0; i < y.size(); ++i) y[i] = float(i + 1) / 8.0f;  // exact in float
  return y;
}

}  // namespace

// y = (Ω1 Ω2 Ω3, Y1, a1 a2 a3, θ̇): gyro = Ω, velocity = (Y1, 0, 0), vertical = a, rotor rates
// = (θ̇, 0, 0); u = (rotor torque) -> torques (u, 0, 0).
TEST(PlantWires, SkateRotorSignalsInTheirFieldsAndBack) {
  using W = SkateRotorWire<float>;
  const W::Measurement y = distinct_measurement<W>();
  const SensorReading<float> r = W::reading(y);
  EXPECT_EQ(r.gyro, Vec3<float>(y[0], y[1], y[2]));
  EXPECT_EQ(r.velocity, Vec3<float>(y[3], 0, 0));
  EXPECT_EQ(r.vertical, Vec3<float>(y[4], y[5], y[6]));
  EXPECT_EQ(r.rotor_rate, Vec3<float>(y[7], 0, 0));
  EXPECT_EQ(W::measurement(r), y);
  EXPECT_EQ(W::torque(W::Command(0.75f)), Vec3<float>(0.75f, 0, 0));
  EXPECT_EQ(W::command(Vec3<float>(0.75f, 9, 9)), W::Command(0.75f)) << "the unused torques are not read";
}

// y = (Ω1 Ω2 Ω3, Γ1 Γ2 Γ3, ω1, ω2): gyro = Ω, vertical = Γ, rotor rates = (ω1, ω2, 0), velocity 0;
// u = (u1, u2) -> torques (u1, u2, 0).
TEST(PlantWires, SphericalRobotSignalsInTheirFieldsAndBack) {
  using W = SphericalRobotWire<float>;
  const W::Measurement y = distinct_measurement<W>();
  const SensorReading<float> r = W::reading(y);
  EXPECT_EQ(r.gyro, Vec3<float>(y[0], y[1], y[2]));
  EXPECT_EQ(r.vertical, Vec3<float>(y[3], y[4], y[5]));
  EXPECT_EQ(r.rotor_rate, Vec3<float>(y[6], y[7], 0));
  EXPECT_EQ(r.velocity, Vec3<float>::Zero());
  EXPECT_EQ(W::measurement(r), y);
  EXPECT_EQ(W::torque(W::Command(0.5f, -0.25f)), Vec3<float>(0.5f, -0.25f, 0));
  EXPECT_EQ(W::command(Vec3<float>(0.5f, -0.25f, 9)), W::Command(0.5f, -0.25f));
}
