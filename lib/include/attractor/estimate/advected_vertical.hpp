// SPDX-License-Identifier: Apache-2.0
// The advected vertical Γ (paper 003 eq. (21), third line: Γ̇ = Γ × Ω) as a feedback-integrator
// system for attitude estimation (paper 000 §2.4): Ω is a measured body rate held over the step.
//
// The invariants |Γ|² (= 1) and Γ1 (= 0, the skate's pitch constancy (19)) are not both
// preserved by this field when Ω is measured (Γ1' = (E1×Γ)·Ω = v4 ≠ 0 with noise), so wrap it in
// Feedback with reference (1, 0):
//   Feedback<AdvectedGamma<float>> fb(AdvectedGamma<float>{}, Vec<float,2>(1, 0), gains);
//   fb.system().omega = gyro;  rk4_step(fb, Gamma, h);
// estimate/vertical_estimator.hpp packages this as a component (configure, update, reset).
#pragma once

#include <Eigen/Geometry>  // cross()

#include "attractor/core/types.hpp"

namespace attractor {

template <class S>
struct AdvectedGamma {
  using Scalar = S;
  static constexpr int N = 3;
  static constexpr int M = 2;
  Vec3<S> omega = Vec3<S>::Zero();  // body angular velocity Ω over the step [rad/s]
  // Optional fusion with a measured vertical (accelerometer direction): the pull
  // κ(Γm − (Γ·Γm)Γ) is the part of κ(Γm − Γ) tangent to the sphere, so the field still
  // conserves |Γ|² and the feedback only removes rounding drift. κ = 0: pure propagation.
  Vec3<S> measured = Vec3<S>::Zero();
  S kappa = S(0);  // fusion rate [1/s]
  Vec3<S> field(const Vec3<S>& G) const { return G.cross(omega) + kappa * (measured - G.dot(measured) * G); }
  Vec3<S> operator()(const Vec3<S>& G) const { return field(G); }
  Vec<S, 2> invariants(const Vec3<S>& G) const { return Vec<S, 2>(G.squaredNorm(), G[0]); }
  Mat<S, 2, 3> invariants_jacobian(const Vec3<S>& G) const {
    Mat<S, 2, 3> J;
    J << S(2) * G[0], S(2) * G[1], S(2) * G[2], S(1), S(0), S(0);
    return J;
  }
  // Fused grad V = DF^T K (F − F0) = 2 e0 Γ + e1 E1 (integrate/system.hpp; paper 000 eq. (6)).
  Vec3<S> feedback_gradient(const Vec3<S>& G, const Vec<S, 2>& F0, const Vec<S, 2>& K) const {
    Vec3<S> g = (S(2) * K[0] * (G.squaredNorm() - F0[0])) * G;
    g[0] += K[1] * (G[0] - F0[1]);
    return g;
  }
};

}  // namespace attractor
