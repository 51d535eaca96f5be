// SPDX-License-Identifier: Apache-2.0
// apps/spherical-robot-hil: the same spherical-robot controller as apps/spherical-robot (float,
// 1 kHz, σ = −1.5e-4 on both rotors, |u_a| <= 1 N m), with the plant on the host over the HIL
// link (link::HilLink with link::SphericalRobotWire). Wiring only: the generic HIL app
// (apps/common/hil_main.hpp) with the robot's facts (plants/spherical_robot/facts.hpp). Run by
// the host runner (attractor-hil --plant spherical-robot).
#include "../common/hil_main.hpp"
#include "attractor/plants/spherical_robot/facts.hpp"

int main() { return app::hil_main<attractor::plants::SphericalRobotFacts<float>>(); }
