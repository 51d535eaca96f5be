// SPDX-License-Identifier: Apache-2.0
// apps/skate-rotor: the pendulum skate kept upright by its internal rotor (paper 003 §6–7,
// law (56) as corrected in lib/include/attractor/plants/skate_rotor/law.hpp), in float, at
// 1 kHz in the board's tick. Software-in-the-loop: the plant runs on the target too.
// Wiring only: the generic SIL app (apps/common/sil_main.hpp) with the skate's facts
// (plants/skate_rotor/facts.hpp). Runs 10 s of (virtual) time, prints the runtime report and the
// outcome, and exits 0 when the skate stayed upright with the controller never dropping to the
// safe state.
#include "../common/sil_main.hpp"
#include "attractor/plants/skate_rotor/facts.hpp"

int main() { return app::sil_main<attractor::plants::SkateRotorFacts<float>>(); }
