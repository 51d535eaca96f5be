// SPDX-License-Identifier: Apache-2.0
// Upright stabilization of the reaction-wheel pendulum (systems/reaction_wheel_pendulum.hpp) by a
// controlled Lagrangian: the generic matching (paper 003 Prop. 13, (52)–(53), Remark 14)
// specialized by hand to n = s = 1, r = 0, with its stability range checked before a law exists.
//
//   auto law = ReactionWheelLaw<float>::make(params, sigma);  // Result; refuses σ outside the range
//   if (!law) -> law.error() == Error::outside_stability_range / invalid_parameter / non_finite
//   float u = law->torque(x);                // x = (Ω, Γ1, Γ2, θ̇); NaN/Inf in x -> NaN u (passed on)
//   reaction_wheel_stability_range(params)   // lower = −I_w²/𝕀, upper = 0
//
// Derivation (𝕀 = I_p + m_w l_w², 𝔾 = 𝕀 + I_w, 𝔾_ia = 𝔾_ab = I_w, 𝐊 = M g Γ1, ad* = 0):
//  1. Matching (52): τ = −σ⁻¹ 𝔾_ai = −I_w/σ;  ρ⁻¹ = 𝔾_ab⁻¹ − σ⁻¹ = 1/I_w − 1/σ.
//  2. Closed-loop metric (Remark 14): 𝔾̃ = 𝔾 − 𝔾_ia ρ⁻¹ 𝔾_ai = 𝕀 + I_w − I_w²(1/I_w − 1/σ)
//     = 𝕀 + I_w²/σ, and the closed loop is 𝔾̃ Ω̇ = M g Γ1: a pendulum of inertia 𝔾̃.
//  3. Law (53): u = 𝔾_ab σ⁻¹ 𝔾_ai Ω̇ = (I_w²/σ) Ω̇ = (I_w²/σ) M g Γ1 / 𝔾̃, in closed form
//        u = k · M g Γ1,   k = I_w² / (σ𝕀 + I_w²).
//     Check on the plant: 𝕀 Ω̇ = M g Γ1 − u = (1 − k) M g Γ1 and 1 − k = σ𝕀/(σ𝕀 + I_w²), so
//     Ω̇ = M g Γ1 σ/(σ𝕀 + I_w²) = M g Γ1/𝔾̃, the same closed loop.
//  4. Conserved: the controlled rotor momentum π̃ = ρ(θ̇ + Ω + τΩ) = ρ(θ̇ + (1 − I_w/σ) Ω) (49),
//     (51b), and the controlled energy E = ½ 𝔾̃ Ω² + ½ π̃²/ρ + M g Γ2.
//  5. Range. Linearized at upright (Γ1 ≈ φ): 𝔾̃ φ̈ = M g φ, eigenvalues ±√(M g/𝔾̃) and 0 (π̃).
//     Stable (all on the imaginary axis; ½ 𝔾̃ Ω² + M g cos φ has a strict maximum at upright, a
//     Lyapunov function up to sign) iff 𝔾̃ < 0 ⇔ σ < 0 and I_w²/|σ| > 𝕀:
//        −I_w²/𝕀 < σ < 0   (open; the analogue of the skate's (58)).
//     There k > 1: the wheel more than cancels gravity. σ > 0 or σ < −I_w²/𝕀 gives 𝔾̃ > 0 and a
//     real positive eigenvalue; σ = −I_w²/𝕀 makes 𝔾̃ = 0 and k infinite (singular).
#pragma once

#include <limits>

#include "attractor/control/sigma_range.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/systems/reaction_wheel_pendulum.hpp"

namespace attractor {

// −I_w²/𝕀 < σ < 0 (open interval), step 5 above.
template <class S>
SigmaRange<S> reaction_wheel_stability_range(const ReactionWheelParams<S>& p) {
  return {-p.I_w * p.I_w / p.body_inertia(), S(0)};
}

template <class S>
class ReactionWheelLaw {
 public:
  // Checked factory: Error::non_finite / invalid_parameter for bad parameters or σ,
  // Error::outside_stability_range for σ outside the range.
  static Result<ReactionWheelLaw> make(const ReactionWheelParams<S>& p, S sigma) {
    const Error e = p.validate();
    if (e != Error::none) return e;
    if (!is_finite(sigma)) return Error::non_finite;
    if (!reaction_wheel_stability_range(p).contains(sigma)) return Error::outside_stability_range;
    return build(p, sigma);
  }
  // For experiments outside the range (showing the loss of stability). Still refuses invalid
  // parameters, σ = 0 (no law), and the singular σ = −I_w²/𝕀 (𝔾̃ = 0) and σ = I_w (ρ infinite).
  static Result<ReactionWheelLaw> make_unchecked(const ReactionWheelParams<S>& p, S sigma) {
    const Error e = p.validate();
    if (e != Error::none) return e;
    if (!is_finite(sigma)) return Error::non_finite;
    if (sigma == S(0)) return Error::invalid_parameter;
    return build(p, sigma);
  }

  ReactionWheelLaw() = default;

  // u = k M g Γ1 (step 3). A non-finite x gives a non-finite u on purpose: the runtime's NaN-output
  // trip must see it, not a 0.
  S torque(const Vec<S, 4>& x) const { return gain_ * mg_ * x[1]; }
  // Ω̇ = M g Γ1 / 𝔾̃, the closed-loop acceleration the law produces (Remark 14).
  S closed_loop_omega_dot(const Vec<S, 4>& x) const { return mg_ * x[1] / G_tilde_; }

  S sigma() const { return sigma_; }
  S gain() const { return gain_; }                    // k
  S closed_loop_inertia() const { return G_tilde_; }  // 𝔾̃ = 𝕀 + I_w²/σ
  S rho() const { return rho_; }                      // ρ of (52)
  const ReactionWheelParams<S>& params() const { return p_; }
  // π̃ = ρ(θ̇ + (1 − I_w/σ) Ω), conserved by the closed loop.
  S controlled_rotor_momentum(const Vec<S, 4>& x) const { return rho_ * (x[3] + (S(1) - p_.I_w / sigma_) * x[0]); }
  // Wheel rate that makes π̃ vanish.
  S zero_momentum_rotor_rate(S Om) const { return (p_.I_w / sigma_ - S(1)) * Om; }
  // E = ½ 𝔾̃ Ω² + ½ π̃²/ρ + M g Γ2, conserved by the closed loop.
  S controlled_energy(const Vec<S, 4>& x) const {
    const S pi = controlled_rotor_momentum(x);
    return S(0.5) * G_tilde_ * x[0] * x[0] + S(0.5) * pi * pi / rho_ + mg_ * x[2];
  }

 private:
  static Result<ReactionWheelLaw> build(const ReactionWheelParams<S>& p, S sigma) {
    ReactionWheelLaw L;
    L.p_ = p;
    L.sigma_ = sigma;
    L.mg_ = p.gravity_moment();
    const S Iw2 = p.I_w * p.I_w;
    const S den = sigma * p.body_inertia() + Iw2;  // σ 𝔾̃
    const S eps64 = S(64) * std::numeric_limits<S>::epsilon();
    if (!is_finite(den) || !(den > eps64 * Iw2 || den < -eps64 * Iw2)) return Error::singular;
    const S rho_inv = S(1) / p.I_w - S(1) / sigma;  // 1/ρ; zero at σ = I_w
    if (!(rho_inv > eps64 / p.I_w || rho_inv < -eps64 / p.I_w)) return Error::singular;
    L.gain_ = Iw2 / den;
    L.G_tilde_ = den / sigma;
    L.rho_ = S(1) / rho_inv;
    if (!is_finite(L.gain_) || !is_finite(L.G_tilde_) || !is_finite(L.rho_)) return Error::singular;
    return L;
  }

  ReactionWheelParams<S> p_{};
  S sigma_{-1};
  S mg_{0};
  S gain_{0};
  S G_tilde_{-1};
  S rho_{1};
};

// Continuous closed loop: x = (Ω, Γ1, Γ2, θ̇), u = law(x) at every stage.
template <class S>
struct ReactionWheelClosedLoop {
  ReactionWheelPendulum<S> plant{};
  ReactionWheelLaw<S> law{};
  Vec<S, 4> operator()(const Vec<S, 4>& x) const { return plant.field(x, law.torque(x)); }
};

}  // namespace attractor
