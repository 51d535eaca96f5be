// SPDX-License-Identifier: Apache-2.0
// Reconstruction of the spherical robot's attitude R and the position of its centre on the plane
// from the body rate Ω (for plots of the path and for drift checks):
//   Ṙ = R Ω^,   ẋ_C = a (RΩ) × e3, i.e. ẋ = a ω_s2, ẏ = −a ω_s1 with ω_s = RΩ (rolling without
//   slipping: the contact point −a e3 below C is at rest), z_C ≡ a, and Γ = Rᵀ e3 at all times.
// Allocation-free, float or double.
#pragma once

#include <cmath>

#include "attractor/core/types.hpp"
#include "attractor/geometry/so3.hpp"

// After types.hpp (which sets EIGEN_NO_MALLOC before Eigen/Core).
#include <Eigen/Geometry>

namespace attractor {

template <class S>
struct SphericalRobotPose {
  Mat3<S> R = Mat3<S>::Identity();         // body -> spatial
  Vec<S, 2> position = Vec<S, 2>::Zero();  // (x, y) of the centre C on the plane [m]
};

// R with Rᵀe3 = Γ (Γ normalized here): the smallest rotation taking Γ to e3, then a yaw about e3.
// For Γ = (0, sin φ, cos φ) and yaw 0 this is the rotation about e1 by φ,
// R = [[1,0,0],[0,cos φ,−sin φ],[0,sin φ,cos φ]] (the experiment's R(0)).
template <class S>
SphericalRobotPose<S> spherical_robot_pose_from_gamma(const Vec3<S>& Gamma, S yaw = S(0),
                                                      const Vec<S, 2>& position = Vec<S, 2>::Zero()) {
  const Vec3<S> G = Gamma.normalized();
  const Vec3<S> axis = G.cross(Vec3<S>(S(0), S(0), S(1)));
  const S s = axis.norm();
  const S angle = std::atan2(s, G[2]);
  // Γ = −e3 (upside down): any horizontal axis does; take E1.
  const Vec3<S> w = s > S(0) ? Vec3<S>(axis * (angle / s)) : Vec3<S>(angle, S(0), S(0));
  SphericalRobotPose<S> P;
  P.R = exp_so3(Vec3<S>(S(0), S(0), yaw)) * exp_so3(w);
  P.position = position;
  return P;
}

// Velocity of the centre on the plane: a (RΩ) × e3 = a (ω_s2, −ω_s1).
template <class S>
Vec<S, 2> spherical_robot_centre_velocity(const Mat3<S>& R, const Vec3<S>& Omega, S radius) {
  const Vec3<S> ws = R * Omega;
  return Vec<S, 2>(radius * ws[1], -radius * ws[0]);
}

// One step from the body rates at the start (Ω0) and end (Ω1) of a step of length h:
// R ← R exp(h (Ω0+Ω1)/2) (stays on SO(3)), position by the trapezoidal rule (second order).
template <class S>
void advance_pose(SphericalRobotPose<S>& P, const Vec3<S>& Omega0, const Vec3<S>& Omega1, S radius, S h) {
  const Mat3<S> R0 = P.R;
  P.R = R0 * exp_so3(Vec3<S>(S(0.5) * h * (Omega0 + Omega1)));
  P.position += (S(0.5) * h) * (spherical_robot_centre_velocity(R0, Omega0, radius) +
                                spherical_robot_centre_velocity(P.R, Omega1, radius));
}

}  // namespace attractor
