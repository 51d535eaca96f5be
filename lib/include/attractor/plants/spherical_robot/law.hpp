// SPDX-License-Identifier: Apache-2.0
// Rotor stabilization of the spherical robot's upright rest state (Ω = 0, Γ = E3, θ̇ = 0) by the
// controlled-Lagrangian law: paper 003 Prop. 13 (matching (52)), law (53) with Ω̇ eliminated as in
// Remark 14, applied to systems/spherical_robot.hpp; the stability range is the analogue of
// paper 003 (58) with l -> a + l (the pitch inertia measured from the contact point).
//
// Firmware API (float, 1 kHz ISR; every call costs the same, no allocation, no loops on data):
//   auto law = SphericalRobotLaw<float>::make(params, sigma);   // Result; refuses σ outside the range
//   if (!law) -> Error::outside_stability_range / invalid_parameter (l <= 0 too) / non_finite
//   auto exp = SphericalRobotLaw<float>::make_unchecked(params, sigma);  // any finite σ except the
//                                     // singular ones (σ = 0, σ = J_a, Ĩ_P,a = 0)
//   Vec<float,2> u = law->torque(x);  // x = (Ω gyro, Γ estimate, θ̇ rotor encoders); NaN/Inf in x
//                                     // or a singular closed-loop matrix -> u = 0 (safe state)
//   saturate(u[a], limit)             // control/saturation.hpp, or SphericalRobotClosedLoop::torque_limit
//   spherical_robot_stability_range(params, axis)   // −J_a²/I_P,a < σ_a < 0
//   law->closed_loop_energy(x), closed_loop_jellett(x), controlled_rotor_momenta(x)   monitoring
//
// Matching (paper 003 (52)) for this robot: 𝔾_ia = J_a(e_a, 0), so τ^a = −(J_a/σ_a)(e_a, 0) and
// ρ_a = J_aσ_a/(σ_a − J_a). 𝒯^a_α = −(J_a/σ_a)δ^a_α does not depend on Γ and has no Y-part, so
// the ℱ-term of (53) vanishes and
//   u_a = (J_a²/σ_a) Ω̇_a =: k_a Ω̇_a                                     (53)
// (the structure of the skate's (56)). Eliminating Ω̇ (Remark 14) with the plant's
// (A(Γ) − J)Ω̇ = f − u gives the state feedback
//   (A(Γ) − J + K) Ω̇ = f(Ω, Γ, h),   K = diag(k1, k2, 0),   u = (k1Ω̇1, k2Ω̇2).
// k_a, ρ_a and the closed-loop inertia are computed at configuration in closed form (build());
// the ISR then needs one 3×3 solve. host-tests/unit/spherical_robot/spherical_robot_control_test.cpp
// shows that the generic matching code (ControlledLagrangian<SphericalRobotHamel>,
// control/controlled_lagrangian.hpp: its 3×3 Hamel solve with the closed-loop metric 𝔾̃) and this
// closed form agree.
//
// Closed loop (derived, checked numerically): π̃_a = J_aΩ_a + ρ_aθ̇_a is conserved, and then
// 𝕀Ω + h = ĨΩ + β with Ĩ = diag(I1 − J1 + k1, I2 − J2 + k2, I3) and the constant body gyrostat
// β_a = (1 − J_a/σ_a)π̃_a: the closed loop is the rotor-free rolling ball with inertia Ĩ (plus β).
// Its invariants: Ẽ = ½Ω·Ã(Γ)Ω + m g l Γ3 with Ã = Ĩ + m(|r|²𝟙 − r rᵀ) (for any π̃: β does no
// work), π̃, |Γ|², and 𝒥̃ = ⟨ĨΩ, r⟩ when π̃ = 0 and Ĩ1 = Ĩ2 (Jellett of that ball).
//
// Stability (energy–Casimir, as in paper 003 App. A.4): with Ĩ_P,a = I_P,a + J_a²/σ_a and
// I_P,a = I_a − J_a + m(a+l)², the upright is Lyapunov stable iff l > 0 and
//   −J_a²/I_P,a < σ_a < 0  ⇔  k_a < −I_P,a  ⇔  Ĩ_P,a < 0.
// The per-axis condition is what the linearization needs (elliptic, ±i√(mgl/|Ĩ_P,a|)); the
// energy–Casimir proof uses 𝒥̃ and so needs I1 − J1 = I2 − J2, J1 = J2, σ1 = σ2 and π̃ = 0
// (lyapunov_certified() says whether it applies). Inside the range det Ã(Γ) ≠ 0 for every Γ (the
// torque never becomes singular); −I_P < k < −(I⊥ − J) makes Ã singular at a finite tilt.
#pragma once

#include <cmath>
#include <limits>

#include "attractor/control/saturation.hpp"
#include "attractor/control/sigma_range.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/systems/spherical_robot.hpp"

namespace attractor {

// −J_a²/I_P,a < σ_a < 0 for rotor a (0 or 1), I_P,a = I_a − J_a + m(a+l)².
template <class S>
SigmaRange<S> spherical_robot_stability_range(const SphericalRobotParams<S>& p, int axis = 0) {
  const S J = axis == 0 ? p.J1 : p.J2;
  return {-J * J / p.pivot_inertia(axis), S(0)};
}

template <class S>
class SphericalRobotLaw {
 public:
  using State = Vec<S, 8>;
  using Torque = Vec<S, 2>;

  // Checked factories: Error::non_finite / invalid_parameter for bad parameters or σ (and l <= 0:
  // the range is derived for the top-heavy robot; a bottom-heavy one is stable without control),
  // Error::outside_stability_range for any σ_a outside its range.
  static Result<SphericalRobotLaw> make(const SphericalRobotParams<S>& p, S sigma) {
    return make(p, Vec<S, 2>(sigma, sigma));
  }
  static Result<SphericalRobotLaw> make(const SphericalRobotParams<S>& p, const Vec<S, 2>& sigma) {
    const Error e = p.validate();
    if (e != Error::none) return e;
    if (!all_finite(sigma)) return Error::non_finite;
    if (!(p.l > S(0))) return Error::invalid_parameter;
    if (!spherical_robot_stability_range(p, 0).contains(sigma[0]) ||
        !spherical_robot_stability_range(p, 1).contains(sigma[1]))
      return Error::outside_stability_range;
    return build(p, sigma);
  }
  // For experiments outside the range (showing the loss of stability). Still refuses invalid
  // parameters, σ_a = 0 (no law), σ_a = J_a (ρ infinite) and Ĩ_P,a = 0 (singular upright).
  static Result<SphericalRobotLaw> make_unchecked(const SphericalRobotParams<S>& p, S sigma) {
    return make_unchecked(p, Vec<S, 2>(sigma, sigma));
  }
  static Result<SphericalRobotLaw> make_unchecked(const SphericalRobotParams<S>& p, const Vec<S, 2>& sigma) {
    const Error e = p.validate();
    if (e != Error::none) return e;
    if (!all_finite(sigma)) return Error::non_finite;
    if (sigma[0] == S(0) || sigma[1] == S(0)) return Error::invalid_parameter;
    return build(p, sigma);
  }

  SphericalRobotLaw() = default;

  // Ω̇ of the closed loop, (A(Γ) − J + K)Ω̇ = f(Ω, Γ, h) (Remark 14). ok = false when the matrix is
  // singular (|det| below a tolerance relative to its upright value) or the result non-finite.
  Vec3<S> closed_loop_omega_dot(const State& x, bool& ok) const {
    const Vec3<S> Om = plant_.omega(x), G = plant_.vertical(x);
    const Vec3<S> f =
        plant_.rate_terms(Om, G, p_.inertia().cwiseProduct(Om) + plant_.rotor_momentum_vector(plant_.rotor_rates(x)));
    S det;
    const Vec3<S> wd = detail::solve3_adjugate<S>(closed_loop_matrix(G), f, det);
    ok = all_finite(x) && is_finite(det) && (det > det_tol_ || det < -det_tol_) && all_finite(wd);
    return wd;
  }
  // u_a = k_a Ω̇_a (53). Non-finite state or singular closed-loop matrix -> u = 0.
  Torque torque(const State& x) const {
    bool ok;
    return torque(x, ok);
  }
  Torque torque(const State& x, bool& ok) const {
    const Vec3<S> wd = closed_loop_omega_dot(x, ok);
    const Torque u(k_[0] * wd[0], k_[1] * wd[1]);
    ok = ok && all_finite(u);
    return ok ? u : Torque::Zero();
  }

  // Ã(Γ) = A(Γ) − J + K = Ĩ + m(|r|²𝟙 − r rᵀ) and its determinant (sign change = singular torque).
  Mat3<S> closed_loop_matrix(const Vec3<S>& G) const {
    Mat3<S> Mx = plant_.contact_inertia(G);
    Mx.diagonal() += I_tilde_ - p_.inertia();
    return Mx;
  }
  S closed_loop_determinant(const Vec3<S>& G) const { return closed_loop_matrix(G).determinant(); }

  // ---- closed-loop invariants, for monitoring --------------------------------------------
  // π̃_a = J_aΩ_a + ρ_aθ̇_a (paper 003 (49), (51b)).
  Vec<S, 2> controlled_rotor_momenta(const State& x) const {
    return Vec<S, 2>(p_.J1 * x[0] + rho_[0] * x[6], p_.J2 * x[1] + rho_[1] * x[7]);
  }
  // Ẽ = ½Ω·Ã(Γ)Ω + m g l Γ3.
  S closed_loop_energy(const State& x) const {
    const Vec3<S> Om = plant_.omega(x), G = plant_.vertical(x);
    return S(0.5) * Om.dot(closed_loop_matrix(G) * Om) + p_.m * p_.g * p_.l * G[2];
  }
  // 𝒥̃ = ⟨ĨΩ, r⟩ (conserved when π̃ = 0 and Ĩ1 = Ĩ2).
  S closed_loop_jellett(const State& x) const {
    return I_tilde_.cwiseProduct(plant_.omega(x)).dot(plant_.contact_arm(plant_.vertical(x)));
  }
  // θ̇_a = (J_a/σ_a − 1)Ω_a makes π̃ = 0 (the proof's level set).
  Vec<S, 2> zero_momentum_rotor_rates(const Vec3<S>& Omega) const {
    return Vec<S, 2>((p_.J1 / sigma_[0] - S(1)) * Omega[0], (p_.J2 / sigma_[1] - S(1)) * Omega[1]);
  }
  // Constant body gyrostat β_a = (1 − J_a/σ_a)π̃_a of the matched ball.
  Vec3<S> gyrostat(const State& x) const {
    const Vec<S, 2> pt = controlled_rotor_momenta(x);
    return Vec3<S>((S(1) - p_.J1 / sigma_[0]) * pt[0], (S(1) - p_.J2 / sigma_[1]) * pt[1], S(0));
  }

  const SphericalRobotParams<S>& params() const { return p_; }
  const Vec<S, 2>& sigma() const { return sigma_; }
  const Vec<S, 2>& gain() const { return k_; }                     // k_a = J_a²/σ_a
  const Vec<S, 2>& rho() const { return rho_; }                    // ρ_a = J_aσ_a/(σ_a − J_a)
  const Vec3<S>& closed_loop_inertia() const { return I_tilde_; }  // diagonal of Ĩ
  // Ĩ_P,a = I_P,a + k_a (< 0 inside the range); closed-loop frequency √(mgl/|Ĩ_P,a|).
  S closed_loop_pivot_inertia(int axis) const { return p_.pivot_inertia(axis) + k_[axis]; }
  S closed_loop_frequency(int axis = 0) const {
    return std::sqrt(p_.m * p_.g * p_.l / std::fabs(closed_loop_pivot_inertia(axis)));
  }
  // The energy–Casimir proof applies (axisymmetric closed loop); see the header comment.
  bool lyapunov_certified() const {
    return p_.l > S(0) && I_tilde_[0] == I_tilde_[1] && p_.J1 == p_.J2 && sigma_[0] == sigma_[1] &&
           closed_loop_pivot_inertia(0) < S(0);
  }

 private:
  static Result<SphericalRobotLaw> build(const SphericalRobotParams<S>& p, const Vec<S, 2>& sigma) {
    // Matching (52) and law (53) in closed form. For 𝔾_ia = J_a(e_a, 0) and 𝔾_ab = diag(J_a):
    // τ^a = −(J_a/σ_a)(e_a, 0), so (53) u = −𝔾_ab τ ξ̇ gives k_a = J_a²/σ_a; σ⁻¹ + ρ⁻¹ = 𝔾_ab⁻¹ gives
    // ρ_a = J_aσ_a/(σ_a − J_a) (infinite at σ_a = J_a: refused below); 𝔾̃ = 𝔾 − 𝔾_ia ρ⁻¹ 𝔾_ai
    // changes 𝔾_ΩΩ = 𝕀 + ml²(𝟙 − E3E3ᵀ) by −J_a + k_a on the diagonal, so without the CM offset
    // term Ĩ = diag(I1 − J1 + k1, I2 − J2 + k2, I3). The generic matching code
    // (ControlledLagrangian<SphericalRobotHamel>) gives the same k, ρ, 𝔾̃ and torque
    // (spherical_robot_control_test.cpp, GenericLawEqualsClosedForm); the closed form spares the
    // firmware its 6×6 construction.
    SphericalRobotLaw L;
    L.p_ = p;
    L.plant_.p = p;
    L.sigma_ = sigma;
    const Vec<S, 2> J(p.J1, p.J2);
    L.k_ = Vec<S, 2>(J[0] * J[0] / sigma[0], J[1] * J[1] / sigma[1]);
    L.rho_ = Vec<S, 2>(J[0] * sigma[0] / (sigma[0] - J[0]), J[1] * sigma[1] / (sigma[1] - J[1]));
    L.I_tilde_ = Vec3<S>(p.I1 - J[0] + L.k_[0], p.I2 - J[1] + L.k_[1], p.I3);
    if (!all_finite(L.k_) || !all_finite(L.rho_) || !all_finite(L.I_tilde_)) return Error::singular;
    // Ĩ_P,a = 0: Ã(E3) singular, the law's gain is infinite at the upright.
    const S up = L.closed_loop_pivot_inertia(0) * L.closed_loop_pivot_inertia(1) * p.I3;
    const S scale = (p.pivot_inertia(0) * p.pivot_inertia(1)) * p.I3;
    if (!(std::fabs(up) > S(64) * std::numeric_limits<S>::epsilon() * scale)) return Error::singular;
    L.det_tol_ = S(1024) * std::numeric_limits<S>::epsilon() * std::fabs(up);
    return L;
  }

  SphericalRobotParams<S> p_{};
  SphericalRobot<S> plant_{};  // the model the law eliminates Ω̇ with
  Vec<S, 2> sigma_ = Vec<S, 2>::Constant(S(-1));
  Vec<S, 2> k_ = Vec<S, 2>::Zero();
  Vec<S, 2> rho_ = Vec<S, 2>::Zero();
  Vec3<S> I_tilde_ = Vec3<S>::Ones();
  S det_tol_{0};
};

// Continuous closed loop: x = (Ω, Γ, θ̇), u = law(x) saturated at every stage. Also a System for
// Feedback<> (integrate/feedback.hpp) with the closed-loop invariants (Ẽ, π̃1, π̃2, |Γ|², 𝒥̃) and
// their analytic Jacobian; they are invariants only while the torque is not saturated, and 𝒥̃
// only when π̃ = 0 and Ĩ1 = Ĩ2.
template <class S>
struct SphericalRobotClosedLoop {
  using Scalar = S;
  static constexpr int N = 8, M = 5;
  SphericalRobot<S> plant{};  // may differ from the law's model (mismatch studies)
  SphericalRobotLaw<S> law{};
  S torque_limit = std::numeric_limits<S>::max();  // |u_a| <= limit (saturate())

  Vec<S, 2> torque(const Vec<S, 8>& x) const {
    const Vec<S, 2> u = law.torque(x);
    return Vec<S, 2>(saturate(u[0], torque_limit), saturate(u[1], torque_limit));
  }
  Vec<S, 8> field(const Vec<S, 8>& x) const { return plant.field(x, torque(x)); }
  Vec<S, 8> operator()(const Vec<S, 8>& x) const { return field(x); }

  Vec<S, 5> invariants(const Vec<S, 8>& x) const {
    const Vec<S, 2> pt = law.controlled_rotor_momenta(x);
    Vec<S, 5> F;
    F << law.closed_loop_energy(x), pt[0], pt[1], x.template segment<3>(3).squaredNorm(), law.closed_loop_jellett(x);
    return F;
  }
  Mat<S, 5, 8> invariants_jacobian(const Vec<S, 8>& x) const {
    const SphericalRobotParams<S>& p = law.params();
    const SphericalRobot<S> model{p};
    const Vec3<S> Om = model.omega(x), G = model.vertical(x), r = model.contact_arm(G);
    const Vec3<S>& It = law.closed_loop_inertia();
    Mat<S, 5, 8> J = Mat<S, 5, 8>::Zero();
    // dẼ: ∂/∂Ω = Ã(Γ)Ω; ∂/∂Γ = a m(|Ω|²r − (Ω·r)Ω) + m g l E3
    J.template block<1, 3>(0, 0) = (law.closed_loop_matrix(G) * Om).transpose();
    J.template block<1, 3>(0, 3) = (p.radius * p.m * (Om.squaredNorm() * r - Om.dot(r) * Om)).transpose();
    J(0, 5) += p.m * p.g * p.l;
    // dπ̃_a = J_a dΩ_a + ρ_a dθ̇_a
    J(1, 0) = p.J1;
    J(1, 6) = law.rho()[0];
    J(2, 1) = p.J2;
    J(2, 7) = law.rho()[1];
    J.template block<1, 3>(3, 3) = S(2) * G.transpose();
    // d𝒥̃: ∂/∂Ω = Ĩr, ∂/∂Γ = aĨΩ
    J.template block<1, 3>(4, 0) = It.cwiseProduct(r).transpose();
    J.template block<1, 3>(4, 3) = p.radius * It.cwiseProduct(Om).transpose();
    return J;
  }
};

}  // namespace attractor
