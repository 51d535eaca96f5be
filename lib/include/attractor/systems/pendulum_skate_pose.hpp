// SPDX-License-Identifier: Apache-2.0
// Reconstruction of the pendulum skate's attitude R and blade position x from its body rates
// (paper 003 §2.1: s⁻¹ṡ = (Ω^, Y), so Ṙ = R Ω^, ẋ = R Y; Γ = Rᵀe3), for plotting the path.
#pragma once

#include <cmath>

#include "attractor/core/types.hpp"
#include "attractor/geometry/so3.hpp"
#include "attractor/systems/pendulum_skate.hpp"

namespace attractor {

// ---------------------------------------------------------------------------------------------
// Reconstruction: Ṙ = R Ω^, ẋ = R Y (§2.1, s⁻¹ṡ = (Ω^, Y)); Γ = Rᵀ e3.
template <class S>
struct SkatePose {
  Mat3<S> R = Mat3<S>::Identity();  // body -> spatial
  Vec3<S> x = Vec3<S>::Zero();      // blade contact point in the spatial frame (x3 = 0)
};

// R with Rᵀe3 = Γ (Γ1 = 0 assumed) and blade direction R E1 at angle `heading` from e1.
template <class S>
SkatePose<S> skate_pose_from_gamma(const Vec3<S>& Gamma, S heading = S(0), const Vec3<S>& x0 = Vec3<S>::Zero()) {
  const S phi = std::atan2(Gamma[1], Gamma[2]);  // R = Rz(heading) Rx(phi) gives Rᵀe3 = (0, sin φ, cos φ)
  SkatePose<S> P;
  P.R = exp_so3(Vec3<S>(S(0), S(0), heading)) * exp_so3(Vec3<S>(phi, S(0), S(0)));
  P.x = x0;
  return P;
}

// One step of the reconstruction from the body rates at the start (Ω0, Y0) and end (Ω1, Y1) of a
// step: R ← R exp(h (Ω0+Ω1)/2), x ← x + h (R0 Y0 + R1 Y1)/2 (second order, stays on SO(3)).
template <class S>
void advance_pose(SkatePose<S>& P, const Vec3<S>& Omega0, const Vec3<S>& Y0, const Vec3<S>& Omega1, const Vec3<S>& Y1,
                  S h) {
  const Mat3<S> R0 = P.R;
  P.R = R0 * exp_so3(Vec3<S>(S(0.5) * h * (Omega0 + Omega1)));
  P.x += (S(0.5) * h) * (R0 * Y0 + P.R * Y1);
}

}  // namespace attractor
