// SPDX-License-Identifier: Apache-2.0
// attractor-sim nonholonomic-particle: paper 001 Example 1 (the entry: nonholonomic_particle_entry.hpp).
#include "nonholonomic_particle_entry.hpp"

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(attractor::sim::NonholonomicParticleEntry);
