// SPDX-License-Identifier: Apache-2.0
// attractor-sim nonholonomic-oscillator: paper 000 §3.7 (the entry: nonholonomic_oscillator_entry.hpp).
#include "nonholonomic_oscillator_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::NonholonomicOscillatorEntry);
