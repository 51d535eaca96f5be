// SPDX-License-Identifier: Apache-2.0
// attractor-sim sleigh-oscillating-mass: paper 004 (the entry: sleigh_oscillating_mass_entry.hpp).
#include "sleigh_oscillating_mass_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::SleighOscillatingMassEntry);
