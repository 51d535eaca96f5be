// SPDX-License-Identifier: Apache-2.0
// attractor-sim rolling-disk: paper 000 §3.4 (the entry: rolling_disk_entry.hpp).
#include "rolling_disk_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::RollingDiskEntry);
