// SPDX-License-Identifier: Apache-2.0
// apps/wheel-pendulum: the reaction-wheel pendulum kept upright by its wheel with the
// controlled-Lagrangian law (lib/include/attractor/control/reaction_wheel_law.hpp, σ = −1e-5), in
// float, at 1 kHz in the board's tick. Software-in-the-loop: the plant runs on the target too,
// tilted 0.1 rad at rest. Wiring only: the generic SIL app (apps/common/sil_main.hpp) with the
// plant's facts (plants/wheel_pendulum/facts.hpp). Exit 0 when the tilt stayed below 0.12 rad for
// 10 s with the controller never dropping to the safe state.
#include "../common/sil_main.hpp"
#include "attractor/plants/wheel_pendulum/facts.hpp"

int main() { return app::sil_main<attractor::plants::WheelPendulumFacts<float>>(); }
