// SPDX-License-Identifier: Apache-2.0
// The plausibility rule of a measured vertical, shared by the plant adapters whose frames carry
// the direction Γ (Plausibility::unit_vertical, link/table_wire.hpp): Γ is a unit vector
// (paper 003 and 004: |Γ| = 1), so a reading with | |a| − 1 | > kVerticalNormTolerance is
// physically impossible — a bias or gain error on the vertical channel — and the link counts it
// `implausible` and holds the last sample (link/hil_link.hpp). What this cannot see: an offset
// perpendicular to Γ changes |a| only at second order (|Γ + b| ≈ 1 + |b|²/2, so up to |b| ≈ 0.46
// passes), and any gyro or speed bias (no redundancy in one frame).
#pragma once

#include "attractor/link/sensor_frame.hpp"

namespace attractor::link {

// 0.1: ten standard deviations of |a| under the runner's --noise 0.01 (the component along Γ).
template <class S>
inline constexpr S kVerticalNormTolerance = S(0.1);

template <class S>
bool unit_vertical_plausible(const SensorReading<S>& r) {
  const S n2 = r.vertical.squaredNorm();  // compare squares: no sqrt
  const S lo = S(1) - kVerticalNormTolerance<S>, hi = S(1) + kVerticalNormTolerance<S>;
  return n2 >= lo * lo && n2 <= hi * hi;
}

}  // namespace attractor::link
