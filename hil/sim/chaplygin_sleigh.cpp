// SPDX-License-Identifier: Apache-2.0
// attractor-sim chaplygin-sleigh and chaplygin-sleigh-reduced: paper 000 §3.3, with the pose and
// reduced (the entries: chaplygin_sleigh_entry.hpp).
#include "chaplygin_sleigh_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::SleighEntry);
ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::SleighReducedEntry);
