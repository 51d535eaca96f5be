// SPDX-License-Identifier: Apache-2.0
// apps/skate-rotor-hil: the same skate-rotor controller as apps/skate-rotor (float, 1 kHz), with
// the plant on the host over the HIL link (link::HilLink with link::SkateRotorWire). Wiring
// only: the generic HIL app (apps/common/hil_main.hpp, which says how the link, boots and resets
// work) with the skate's facts (plants/skate_rotor/facts.hpp). Run by the host runner
// (hil/hil-run: attractor-hil, --plant skate, the default).
#include "../common/hil_main.hpp"
#include "attractor/plants/skate_rotor/facts.hpp"

int main() { return app::hil_main<attractor::plants::SkateRotorFacts<float>>(); }
