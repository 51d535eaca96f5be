// SPDX-License-Identifier: Apache-2.0
// The open interval of the controlled-Lagrangian parameter σ (paper 003 Prop. 13, (52)) inside
// which a rotor law stabilizes its equilibrium: the skate's (58), −J1²/(I1+ml²) < σ < 0
// (plants/skate_rotor/law.hpp), and the spherical robot's per-axis analogue
// (plants/spherical_robot/law.hpp).
#pragma once

namespace attractor {

template <class S>
struct SigmaRange {
  S lower{0};  // e.g. −J1²/(I1+ml²) for the skate
  S upper{0};  // 0 for both laws
  bool contains(S sigma) const { return sigma > lower && sigma < upper; }
};

}  // namespace attractor
