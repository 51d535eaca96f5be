// SPDX-License-Identifier: Apache-2.0
// Which plant a HIL firmware controls, carried in its hello answer (link/hello_frame.hpp): the
// host refuses a firmware of another plant before the first tick (attractor-hil, exit 11). Each
// wire mapping names its plant (kPlant in link/skate_rotor_wire.hpp, spherical_robot_wire.hpp);
// a new plant on the link takes the next number. 0 is no plant (a host that only listens).
#pragma once

#include <cstdint>

namespace attractor::link {

enum class PlantId : std::uint8_t {
  none = 0,
  skate_rotor = 1,      // paper 003 §7.3's rotor skate
  spherical_robot = 2,  // the spherical robot (docs/spherical-robot.md)
};
inline constexpr std::uint8_t kMaxPlantId = std::uint8_t(PlantId::spherical_robot);

constexpr const char* to_string(PlantId p) {
  switch (p) {
    case PlantId::none: return "none";
    case PlantId::skate_rotor: return "skate";
    case PlantId::spherical_robot: return "spherical-robot";
  }
  return "unknown";
}

}  // namespace attractor::link
