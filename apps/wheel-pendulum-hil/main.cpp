// SPDX-License-Identifier: Apache-2.0
// apps/wheel-pendulum-hil: the same controller as apps/wheel-pendulum (float, 1 kHz, σ = −1e-5,
// |u| <= 0.5 N m), with the plant on the host over the HIL link (link::HilLink with
// link::WheelPendulumWire). Wiring only: the generic HIL app (apps/common/hil_main.hpp) with the
// plant's facts (plants/wheel_pendulum/facts.hpp). Run by the host runner (attractor-hil --plant
// wheel-pendulum).
#include "../common/hil_main.hpp"
#include "attractor/plants/wheel_pendulum/facts.hpp"

int main() { return app::hil_main<attractor::plants::WheelPendulumFacts<float>>(); }
