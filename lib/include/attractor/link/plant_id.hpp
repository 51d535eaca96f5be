// SPDX-License-Identifier: Apache-2.0
// Which plant a HIL firmware controls, carried in its hello answer (link/hello_frame.hpp): the
// host refuses a firmware of another plant before the first tick (attractor-hil, exit 11). The
// plants and their numbers are the plant registry's (plants/registry.hpp); each wire mapping
// names its plant (kPlant in each plants/<plant>/wire.hpp). 0 is no plant
// (a host that only listens).
#pragma once

#include <cstdint>

#include "attractor/plants/registry.hpp"

namespace attractor::link {

#define ATTRACTOR_PLANT_ID_ENUMERATOR(e, n, name, text) e = (n),
enum class PlantId : std::uint8_t { none = 0, ATTRACTOR_PLANTS(ATTRACTOR_PLANT_ID_ENUMERATOR) };
#undef ATTRACTOR_PLANT_ID_ENUMERATOR

// The largest registered number: the hello decoder refuses anything above it.
constexpr std::uint8_t max_plant_id() {
#define ATTRACTOR_PLANT_ID_NUMBER(e, n, name, text) n,
  const int numbers[] = {0, ATTRACTOR_PLANTS(ATTRACTOR_PLANT_ID_NUMBER)};
#undef ATTRACTOR_PLANT_ID_NUMBER
  int m = 0;
  for (int n : numbers) m = n > m ? n : m;
  return std::uint8_t(m);
}
inline constexpr std::uint8_t kMaxPlantId = max_plant_id();

#define ATTRACTOR_PLANT_ID_NAME(e, n, name, text) \
  case PlantId::e: return name;
constexpr const char* to_string(PlantId p) {
  switch (p) {
    // clang-format off
    case PlantId::none: return "none";
    ATTRACTOR_PLANTS(ATTRACTOR_PLANT_ID_NAME)
      // clang-format on
  }
  return "unknown";
}
#undef ATTRACTOR_PLANT_ID_NAME

// What the plant is, in a few words (docs/wire.md's plant table).
#define ATTRACTOR_PLANT_ID_TEXT(e, n, name, text) \
  case PlantId::e: return text;
constexpr const char* description(PlantId p) {
  switch (p) {
    // clang-format off
    case PlantId::none: return "no plant (a host that only listens)";
    ATTRACTOR_PLANTS(ATTRACTOR_PLANT_ID_TEXT)
      // clang-format on
  }
  return "unknown";
}
#undef ATTRACTOR_PLANT_ID_TEXT

}  // namespace attractor::link
