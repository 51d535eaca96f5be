// SPDX-License-Identifier: Apache-2.0
// attractor-sim chaplygin-sphere-pose: paper 004's sphere with where it rolls (the entry:
// chaplygin_sphere_pose_entry.hpp).
#include "chaplygin_sphere_pose_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::ChaplyginSpherePoseEntry);
