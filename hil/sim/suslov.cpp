// SPDX-License-Identifier: Apache-2.0
// attractor-sim suslov: paper 000 §3.1 (the entry: suslov_entry.hpp).
#include "suslov_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::SuslovEntry);
