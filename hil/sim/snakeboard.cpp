// SPDX-License-Identifier: Apache-2.0
// attractor-sim snakeboard: paper 001 Example 2 (the entry: snakeboard_entry.hpp).
#include "snakeboard_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::SnakeboardEntry);
