// SPDX-License-Identifier: Apache-2.0
// apps/spherical-robot: the top-heavy spherical robot (paper 004 (0.29)–(0.30)) kept upright by its
// two internal rotors with the controlled-Lagrangian law (paper 003 law (53), Remark 14; see
// lib/include/attractor/plants/spherical_robot/law.hpp), in float, at 1 kHz in the board's tick.
// Software-in-the-loop: the plant runs on the target too, from the reference run C1 (tilt 0.1 rad,
// Ω = (0.1, 0, 0.1), rotors on π̃ = 0, σ = −1.5e-4). Wiring only: the generic SIL app
// (apps/common/sil_main.hpp) with the robot's facts (plants/spherical_robot/facts.hpp). Runs 10 s
// of (virtual) time, prints the runtime report and the outcome, and exits 0 when the tilt stayed
// below 0.12 rad with the controller never dropping to the safe state.
#include "../common/sil_main.hpp"
#include "attractor/plants/spherical_robot/facts.hpp"

int main() { return app::sil_main<attractor::plants::SphericalRobotFacts<float>>(); }
