// SPDX-License-Identifier: Apache-2.0
// attractor-sim heisenberg: paper 000 §3.6 (the entry: heisenberg_entry.hpp).
#include "heisenberg_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::HeisenbergEntry);
