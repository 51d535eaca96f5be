// SPDX-License-Identifier: Apache-2.0
// attractor-sim falling-disk: paper 004 (the entry: falling_disk_entry.hpp).
#include "falling_disk_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::FallingDiskEntry);
