// SPDX-License-Identifier: Apache-2.0
// Rotor stabilization of the pendulum skate's sliding equilibrium: closed-form controlled-
// Lagrangian law (paper 003 Example 15, eq. (56)) and its stability range (Prop. 16, eq. (58)).
//
// Firmware API (float, 1 kHz ISR; every call costs the same, no allocation, no loops on data):
//   auto law = SkateRotorLaw<float>::make(params, sigma);   // Result; refuses σ outside (58)
//   if (!law) -> law.error() == Error::outside_stability_range / invalid_parameter / non_finite
//   auto exp = SkateRotorLaw<float>::make_unchecked(params, sigma);  // experiments: any finite σ ≠ 0
//                                                           // except the singular σ = −J1²/(I1+ml²)
//   float u = law->torque(zeta);            // ζ = (v1, v2, v3, Γ2, Γ3); NaN/Inf in ζ -> NaN u
//                                           // (passed on: the runtime's NaN-output trip zeroes it)
//   zeta = skate_zeta(Omega, Y, Gamma);     // (33) from gyro Ω, body velocity Y, estimated Γ
//   skate_rotor_stability_range(params)     // (58): lower = −J1²/(I1+ml²), upper = 0
//   Plant for SIL: PendulumSkateRotor<float> (systems/pendulum_skate_rotor.hpp);
//   Γ propagation: VerticalEstimator<float> (estimate/vertical_estimator.hpp);
//   torque limit: saturate(u, limit) (control/saturation.hpp).
//
// MISPRINT in (56), fixed here. The first equality u = (J1²/σ) v̇1 is the law (53) specialized
// (𝒯 = −(J1/σ)e1ᵀ, ℱ¹ = 0). The second equality substitutes the *uncontrolled* v̇1 = X/(I1+ml²).
// But v̇1 is the controlled acceleration: (44) gives (I1+ml²)v̇1 = X − u (see
// pendulum_skate_rotor.hpp), and eliminating v̇1 as Remark 14 prescribes gives
//   u = (J1²/σ) v̇1 = J1² X / (σ(I1+ml²) + J1²),  i.e.  v̇1 = X / (I1 + ml² + J1²/σ),
// exactly the skate with the modified inertia Ĩ1 = I1 + J1²/σ of (57). X uses 𝓘_i = I_i + J_i
// (the printed I2 − I3 equals 𝓘2 − 𝓘3 only when J2 = J3, as in §7.3). The printed form has the
// opposite sign for σ in (58) and makes the §7.3 skate fall at t ≈ 0.70 s; the corrected form keeps
// Γ3 > 0.99 for 10 s and agrees with the generic ControlledLagrangian to rounding (tests).
#pragma once

#include <limits>

#include "attractor/control/sigma_range.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"

namespace attractor {

// Prop. 16 (58): −J1²/(I1+ml²) < σ < 0 (open interval).
template <class S>
SigmaRange<S> skate_rotor_stability_range(const SkateRotorParams<S>& p) {
  return {-p.J1 * p.J1 / p.Ibar1(), S(0)};
}

template <class S>
class SkateRotorLaw {
 public:
  // Checked factory: Error::non_finite / invalid_parameter for bad parameters or σ,
  // Error::outside_stability_range for σ outside (58).
  static Result<SkateRotorLaw> make(const SkateRotorParams<S>& p, S sigma) {
    const Error e = p.validate();
    if (e != Error::none) return e;
    if (!is_finite(sigma)) return Error::non_finite;
    if (!skate_rotor_stability_range(p).contains(sigma)) return Error::outside_stability_range;
    return build(p, sigma);
  }
  // For experiments outside (58) (e.g. showing the loss of stability). Still refuses invalid
  // parameters, σ = 0 (no law) and the singular σ = −J1²/(I1+ml²) (Ĩ1 + ml² = 0).
  static Result<SkateRotorLaw> make_unchecked(const SkateRotorParams<S>& p, S sigma) {
    const Error e = p.validate();
    if (e != Error::none) return e;
    if (!is_finite(sigma)) return Error::non_finite;
    if (sigma == S(0)) return Error::invalid_parameter;
    return build(p, sigma);
  }

  SkateRotorLaw() = default;

  // u = (J1²/σ) v̇1 = k X(ζ), k = J1²/(σ(I1+ml²) + J1²) (corrected (56)). A non-finite ζ gives
  // a non-finite u on purpose: the caller (rt::Tick's NaN-output trip) must see it, not a 0.
  S torque(const Vec<S, 5>& zeta) const { return gain_ * locked_.roll_moment(zeta); }
  // The closed-loop acceleration v̇1 = X/(I1+ml²+J1²/σ) the law produces (Remark 14).
  S closed_loop_v1_dot(const Vec<S, 5>& zeta) const { return locked_.roll_moment(zeta) / Ibar1_tilde_; }

  S sigma() const { return sigma_; }
  S gain() const { return gain_; }  // k above
  // ν = −J1/σ, the gain of paper 003 Remark 17: (58) is ν > (I1+ml²)/J1.
  S rotor_gain_ratio() const { return -p_.J1 / sigma_; }
  S closed_loop_inertia() const { return Ibar1_tilde_; }  // I1 + ml² + J1²/σ (57)
  const SkateRotorParams<S>& params() const { return p_; }
  // Rotor rate that makes the controlled rotor momentum π̃ = J1 v1 + ρθ̇ vanish (Example 15).
  S zero_momentum_rotor_rate(S v1) const { return (p_.J1 / sigma_ - S(1)) * v1; }
  // π̃ (49) for the plant state x = (ζ, θ̇); conserved by the closed loop (51b).
  S controlled_rotor_momentum(const Vec<S, 6>& x) const {
    const S rho = p_.J1 / (S(1) - p_.J1 / sigma_);
    return p_.J1 * x[0] + rho * x[5];
  }

 private:
  static Result<SkateRotorLaw> build(const SkateRotorParams<S>& p, S sigma) {
    SkateRotorLaw L;
    L.p_ = p;
    L.sigma_ = sigma;
    L.locked_ = PendulumSkate<S>{p.locked()};  // X(ζ) with 𝓘_i = I_i + J_i
    const S den = sigma * p.Ibar1() + p.J1 * p.J1;
    // Ĩ1 + ml² = den/σ = 0 at the lower bound of (58): the law's gain J1²/den blows up there.
    const S tiny = S(64) * std::numeric_limits<S>::epsilon() * p.J1 * p.J1;
    if (!is_finite(den) || !(den > tiny || den < -tiny)) return Error::singular;
    L.gain_ = p.J1 * p.J1 / den;
    L.Ibar1_tilde_ = p.Ibar1() + p.J1 * p.J1 / sigma;
    if (!is_finite(L.gain_) || !is_finite(L.Ibar1_tilde_)) return Error::singular;
    return L;
  }

  SkateRotorParams<S> p_{};
  PendulumSkate<S> locked_{};
  S sigma_{-1};
  S gain_{0};
  S Ibar1_tilde_{1};
};

// Continuous closed loop (the paper's §7.3 simulation): x = (ζ, θ̇), u = law(ζ) at every stage.
template <class S>
struct SkateRotorClosedLoop {
  PendulumSkateRotor<S> plant{};
  SkateRotorLaw<S> law{};
  Vec<S, 6> operator()(const Vec<S, 6>& x) const { return plant.field(x, law.torque(Vec<S, 5>(x.template head<5>()))); }
};

}  // namespace attractor
