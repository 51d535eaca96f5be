// SPDX-License-Identifier: Apache-2.0
// attractor-sim sleigh-toda: paper 004 (the entry: sleigh_toda_entry.hpp).
#include "sleigh_toda_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::SleighTodaEntry);
