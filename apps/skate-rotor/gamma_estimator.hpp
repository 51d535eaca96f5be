// Attitude estimate for the skate: the upward vertical Γ seen from the body, propagated with
// the gyro (Γ̇ = Γ × Ω, paper 003 eq. (21)) and fused with a measured vertical (accelerometer
// direction) by a complementary term κ(Γ_meas − (Γ·Γ_meas)Γ): the part of the pull tangent to
// the sphere, so the fused field still conserves |Γ|² exactly and the feedback only removes
// rounding drift. Integrated as a feedback integrator
// (paper 000 §2.4) with invariants |Γ|² = 1 and Γ₁ = 0 (the skate's blade constraint keeps
// the vertical in the body's E2–E3 plane, paper 003 §5), so float32 RK4 keeps both without
// normalization or projection.
#pragma once

#include "attractor/core/types.hpp"
#include "attractor/integrate/feedback.hpp"

namespace attractor {

template <class S>
struct FusedGamma {
  using Scalar = S;
  static constexpr int N = 3;  // Γ ∈ R³ (ambient)
  static constexpr int M = 2;  // |Γ|², Γ₁
  Vec3<S> omega = Vec3<S>::Zero();     // gyro: body angular velocity Ω over the step [rad/s]
  Vec3<S> measured = Vec3<S>::Zero();  // measured vertical (unit or not; only its direction pulls)
  S kappa = S(0);                      // fusion rate [1/s]; 0 = pure gyro propagation

  Vec3<S> field(const Vec3<S>& G) const {
    return G.cross(omega) + kappa * (measured - G.dot(measured) * G);
  }
  Vec<S, 2> invariants(const Vec3<S>& G) const { return Vec<S, 2>(G.squaredNorm(), G[0]); }
  Mat<S, 2, 3> invariants_jacobian(const Vec3<S>& G) const {
    Mat<S, 2, 3> J;
    J << S(2) * G[0], S(2) * G[1], S(2) * G[2], S(1), S(0), S(0);
    return J;
  }
};

}  // namespace attractor
