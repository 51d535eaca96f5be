// SPDX-License-Identifier: Apache-2.0
// attractor-sim roller-racer: paper 000 §3.5 (the entry: roller_racer_entry.hpp).
#include "roller_racer_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::RollerRacerEntry);
