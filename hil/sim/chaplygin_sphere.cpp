// SPDX-License-Identifier: Apache-2.0
// attractor-sim chaplygin-sphere: paper 004 (the entry: chaplygin_sphere_entry.hpp).
#include "chaplygin_sphere_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::ChaplyginSphereEntry);
