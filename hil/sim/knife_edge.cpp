// SPDX-License-Identifier: Apache-2.0
// attractor-sim knife-edge: paper 000 §3.2 (the entry: knife_edge_entry.hpp).
#include "knife_edge_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::KnifeEdgeEntry);
