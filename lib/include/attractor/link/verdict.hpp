// SPDX-License-Identifier: Apache-2.0
// What the firmware made of the frame an actuator frame answers (one byte of the actuator
// payload, link/frame_layout.hpp): the host reads per answer whether its sensor frame was used,
// so the runner checks each answer against the fault it injected. Every verdict but `rejected`
// answers a decodable sensor frame and names its tick; `rejected` answers an undecodable segment
// (noise, a corrupt frame), which names no frame: its tick is the newest tick the firmware used,
// never one the host still waits for (docs/hil.md "Answers").
#pragma once

#include <cstdint>

namespace attractor::link {

enum class Verdict : std::uint8_t {
  fresh = 0,         // used: the controller ran on it
  rejected = 1,      // not a decodable sensor frame (LinkError): names no frame
  repeated = 2,      // its sequence number did not advance (duplicated, reordered)
  late = 3,          // its tick index did not pass the newest sample used (an old sample)
  implausible = 4,   // decodable and in range, but physically impossible (Wire::plausible)
  wild = 5,          // its sequence or tick index outside the window (link/hil_link.hpp): not used
  non_finite = 6,    // decodable, a NaN or Inf in a value: refused, the sample held
  out_of_range = 7,  // decodable, a value beyond its wire range: refused, the sample held
  held = 8,          // the link passed it, the controller refused it (beyond its own limits): held
};
inline constexpr std::uint8_t kMaxVerdict = std::uint8_t(Verdict::held);

constexpr const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::fresh: return "fresh";
    case Verdict::rejected: return "rejected";
    case Verdict::repeated: return "repeated";
    case Verdict::late: return "late";
    case Verdict::implausible: return "implausible";
    case Verdict::wild: return "wild";
    case Verdict::non_finite: return "non_finite";
    case Verdict::out_of_range: return "out_of_range";
    case Verdict::held: return "held";
  }
  return "unknown";
}

}  // namespace attractor::link
