// SPDX-License-Identifier: Apache-2.0
// The plant registry: one line per plant that a HIL firmware can control, read by the link's
// plant-id table (link/plant_id.hpp: the enumerator, its number in the hello answer, the name
// attractor-hil's --plant gives it, the wire reference's description). A new plant adds one line
// here, with the next number, and its host simulation in hil/hil-run/plant_registry.hpp. Numbers
// are wire data: never renumber a plant, never reuse a number. 0 is no plant (link/plant_id.hpp).
#pragma once

// X(enumerator, number, name, what it is: the wire reference's text, docs/wire.md)
#define ATTRACTOR_PLANTS(X)                                                                 \
  X(skate_rotor, 1, "skate", "paper 003 §7.3's rotor skate")                                \
  X(spherical_robot, 2, "spherical-robot", "the spherical robot (docs/spherical-robot.md)") \
  X(wheel_pendulum, 3, "wheel-pendulum", "the reaction-wheel pendulum (docs/reaction-wheel-pendulum.md)")
