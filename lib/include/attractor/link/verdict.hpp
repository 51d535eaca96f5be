// SPDX-License-Identifier: Apache-2.0
// What the firmware made of the frame an actuator frame answers (one byte of the actuator
// payload, link/frame_layout.hpp): the host reads per answer whether its sensor frame was used,
// so the runner checks each answer against the fault it injected and knows an answer to a
// rejected segment (whose tick index the firmware could not read) from a stray one.
#pragma once

#include <cstdint>

namespace attractor::link {

enum class Verdict : std::uint8_t {
  fresh = 0,        // used: the controller ran on it
  rejected = 1,     // not a decodable sensor frame (LinkError); the answer's tick is a guess
  repeated = 2,     // its sequence number did not advance (duplicated, reordered)
  late = 3,         // its tick index did not pass the newest sample used (an old sample)
  implausible = 4,  // decodable and in range, but physically impossible (Wire::plausible)
  wild = 5,         // its sequence or tick index outside the window (link/hil_link.hpp): not used
};
inline constexpr std::uint8_t kMaxVerdict = std::uint8_t(Verdict::wild);

constexpr const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::fresh: return "fresh";
    case Verdict::rejected: return "rejected";
    case Verdict::repeated: return "repeated";
    case Verdict::late: return "late";
    case Verdict::implausible: return "implausible";
    case Verdict::wild: return "wild";
  }
  return "unknown";
}

}  // namespace attractor::link
