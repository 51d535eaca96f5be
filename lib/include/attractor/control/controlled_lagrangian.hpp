// SPDX-License-Identifier: Apache-2.0
// Controlled Lagrangians for nonholonomic Euler–Poincaré systems with advected parameters and s
// internal rotors (paper 003 §6: (43)–(53), Prop. 13, Remark 14). Generic, fixed-size,
// allocation-free; every call costs the same.
//
// A HamelRotorModel describes the system (paper 003 §4, §6):
//   using Scalar;
//   static constexpr int algebra_dim;       // n = dim 𝔰 (ξ ∈ 𝔰)
//   static constexpr int constraint_count;  // r = number of constraints (corank of 𝔡(Γ))
//   static constexpr int rotor_count;       // s = number of rotors
//   static constexpr int advected_dim;      // k = dim X* (advected parameter Γ)
// (below, n, r, s, k and q = n − r are the paper's shorthands for these in the formulas)
//   Mat<S,n,n> G;  Mat<S,n,s> Gia;  Mat<S,s,s> Gab;               constant metric blocks (43)
//   Mat<S,n,n>   basis(Γ)                 ℰ(Γ), columns ℰ_1..ℰ_n; the first n−r span 𝔡(Γ) (22)
//   Mat<S,n,n-r> basis_rate(Γ, Γ̇)         d/dt ℰ_α = Dℰ_α(Γ)·Γ̇ for α = 1..n−r
//   Vec<S,n>     ad_star(ξ, μ)            ad*_ξ μ (pairing ⟨ad*_ξ μ, η⟩ = ⟨μ, [ξ, η]⟩)
//   Vec<S,k>     advected_rate(ξ, Γ)      Γ̇ = −ξΓ (17b)
//   Vec<S,n>     potential_force(Γ)       𝐊(δℓ/δΓ, Γ) = −𝐊(∂U/∂Γ, Γ) (17a), (44a)
//
// The equations of motion (44) are solved here in the equivalent form obtained by pairing (17a)
// with ℰ_α (the multiplier terms vanish on 𝔡; the ⟨μ, ℰ̇_α⟩ terms of Theorem 9 cancel between
// ṗ_α and ℱ): with ξ = ℰ_𝔡 v, ξ̇ = ℰ̇_𝔡 v + ℰ_𝔡 v̇, μ = 𝔾ξ + 𝔾_ia θ̇,
//   ℰ_𝔡ᵀ (𝔾 ξ̇ + 𝔾_ia θ̈) = ℰ_𝔡ᵀ (ad*_ξ μ + 𝐊),     𝔾_ai ξ̇ + 𝔾_ab θ̈ = u      (44a), (44b).
//
// Matching (52): τ = −σ⁻¹ 𝔾_ai (s×n), ρ⁻¹ = 𝔾_ab⁻¹ − σ⁻¹.
// Law (53): u = 𝔾_ab (𝒯ℱvv − 𝒯 v̇) = −𝔾_ab τ ξ̇ = 𝔾_ab σ⁻¹ 𝔾_ai ξ̇ (proof in Appendix A.3).
// Remark 14 (v̇ eliminated): substituting the law into (44) gives
//   ℰ_𝔡ᵀ 𝔾̃ ℰ_𝔡 v̇ = ℰ_𝔡ᵀ (ad*_ξ μ + 𝐊 − 𝔾̃ ℰ̇_𝔡 v),   𝔾̃ = 𝔾 − 𝔾_ia ρ⁻¹ 𝔾_ai,
// a q×q linear solve (q = n−r) with the closed-loop metric 𝔾̃ — for the rotor skate 𝔾̃_11 =
// I1 + ml² + J1²/σ, the modified inertia of (57). The law then is u = 𝔾_ab σ⁻¹ 𝔾_ai ξ̇.
#pragma once

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

// After types.hpp (which sets EIGEN_NO_MALLOC before Eigen/Core).
#include <Eigen/LU>

namespace attractor {

namespace detail {
// A⁻¹ column by column (vector right-hand sides keep Eigen's solve free of heap temporaries, as EIGEN_NO_MALLOC
// requires).
template <class S, int D>
bool inverse_by_columns(const Mat<S, D, D>& A, Mat<S, D, D>& Ainv) {
  const Eigen::PartialPivLU<Mat<S, D, D>> lu(A);
  for (int c = 0; c < D; ++c) Ainv.col(c) = lu.solve(Vec<S, D>(Vec<S, D>::Unit(c)));
  // PartialPivLU does not report singularity: check the residual instead.
  const S err = (A * Ainv - Mat<S, D, D>::Identity()).cwiseAbs().maxCoeff();
  return all_finite(Ainv) && err < S(1e-3);
}
}  // namespace detail

// State rates of the rotor-controlled system (44) for a given torque u.
template <class Model>
struct HamelRotorRates {
  using S = typename Model::Scalar;
  Vec<S, Model::algebra_dim - Model::constraint_count> v_dot;  // v̇^α
  Vec<S, Model::rotor_count> theta_ddot;  // θ̈^a (rotor angular accelerations relative to the body)
  Vec<S, Model::advected_dim> Gamma_dot;  // Γ̇
};

namespace detail {
// The elimination solve both the plant (44) and the law (Remark 14) need, written once: with
// ξ = ℰ_𝔡 v, ξ̇ = ℰ̇_𝔡 v + ℰ_𝔡 v̇ and μ = 𝔾ξ + 𝔾_ia θ̇,
//   (ℰ_𝔡ᵀ 𝕄 ℰ_𝔡) v̇ = ℰ_𝔡ᵀ (ad*_ξ μ + 𝐊 + f_extra − 𝕄 ℰ̇_𝔡 v),
// 𝕄 = 𝔾 − 𝔾_ia 𝔾_ab⁻¹ 𝔾_ai and f_extra = −𝔾_ia 𝔾_ab⁻¹ u for the plant (θ̈ eliminated),
// 𝕄 = 𝔾̃ and f_extra = 0 for the closed loop. A q×q LU solve with a vector right-hand side.
template <class Model>
struct ReducedRates {
  using S = typename Model::Scalar;
  Vec<S, Model::algebra_dim - Model::constraint_count> v_dot;
  Vec<S, Model::algebra_dim> xi_dot;
  Vec<S, Model::advected_dim> Gamma_dot;
};
template <class Model>
ReducedRates<Model> reduced_rates(const Model& mdl,
                                  const Mat<typename Model::Scalar, Model::algebra_dim, Model::algebra_dim>& metric,
                                  const Vec<typename Model::Scalar, Model::algebra_dim - Model::constraint_count>& v,
                                  const Vec<typename Model::Scalar, Model::advected_dim>& Gamma,
                                  const Vec<typename Model::Scalar, Model::rotor_count>& theta_dot,
                                  const Vec<typename Model::Scalar, Model::algebra_dim>& extra_force) {
  using S = typename Model::Scalar;
  constexpr int n = Model::algebra_dim, q = Model::algebra_dim - Model::constraint_count;
  const Mat<S, n, n> E = mdl.basis(Gamma);
  const Mat<S, n, q> Ed = E.template leftCols<q>();
  const Vec<S, n> xi = Ed * v;
  ReducedRates<Model> out;
  out.Gamma_dot = mdl.advected_rate(xi, Gamma);
  const Mat<S, n, q> Ed_dot = mdl.basis_rate(Gamma, out.Gamma_dot);
  const Vec<S, n> mu = mdl.G * xi + mdl.Gia * theta_dot;
  const Vec<S, n> f = mdl.ad_star(xi, mu) + mdl.potential_force(Gamma) + extra_force;
  const Mat<S, q, q> A = Ed.transpose() * metric * Ed;
  const Vec<S, q> b = Ed.transpose() * (f - metric * (Ed_dot * v));
  out.v_dot = Eigen::PartialPivLU<Mat<S, q, q>>(A).solve(b);
  out.xi_dot = Ed_dot * v + Ed * out.v_dot;
  return out;
}
}  // namespace detail

// Plant (44): given (v, Γ, θ̇) and the rotor torques u, the rates. Generic over the model.
template <class Model>
HamelRotorRates<Model> hamel_rotor_rates(
    const Model& mdl, const Vec<typename Model::Scalar, Model::algebra_dim - Model::constraint_count>& v,
    const Vec<typename Model::Scalar, Model::advected_dim>& Gamma,
    const Vec<typename Model::Scalar, Model::rotor_count>& theta_dot,
    const Vec<typename Model::Scalar, Model::rotor_count>& u) {
  using S = typename Model::Scalar;
  constexpr int n = Model::algebra_dim, s = Model::rotor_count;
  Mat<S, s, s> Gab_inv;
  (void)detail::inverse_by_columns<S, s>(mdl.Gab, Gab_inv);  // 𝔾_ab is checked where a law is made
  // Eliminate θ̈ = 𝔾_ab⁻¹(u − 𝔾_ai ξ̇):  ℰ_𝔡ᵀ M0 ξ̇ = ℰ_𝔡ᵀ(ad* μ + 𝐊 − 𝔾_ia 𝔾_ab⁻¹ u)
  const Mat<S, n, n> M0 = mdl.G - mdl.Gia * Gab_inv * mdl.Gia.transpose();
  const Vec<S, n> extra = -(mdl.Gia * (Gab_inv * u));
  const detail::ReducedRates<Model> rr = detail::reduced_rates(mdl, M0, v, Gamma, theta_dot, extra);
  HamelRotorRates<Model> out;
  out.v_dot = rr.v_dot;
  out.Gamma_dot = rr.Gamma_dot;
  out.theta_ddot = Gab_inv * (u - mdl.Gia.transpose() * rr.xi_dot);
  return out;
}

// The generic controlled-Lagrangian law (52)/(53) with v̇ eliminated (Remark 14).
template <class Model>
class ControlledLagrangian {
 public:
  using S = typename Model::Scalar;
  // The paper's symbols (header comment) as shorthands in the formulas below.
  static constexpr int n = Model::algebra_dim, r = Model::constraint_count, s = Model::rotor_count,
                       k = Model::advected_dim, q = n - r;
  using Sigma = Mat<S, s, s>;

  // Matching conditions (52). Refuses a non-finite or singular σ (σ⁻¹ needed), a singular 𝔾_ab,
  // and σ = 𝔾_ab (ρ infinite). No stability check here: that is system specific (e.g. (58)).
  static Result<ControlledLagrangian> make(const Model& mdl, const Sigma& sigma) {
    if (!all_finite(sigma) || !all_finite(mdl.G) || !all_finite(mdl.Gia) || !all_finite(mdl.Gab))
      return Error::non_finite;
    ControlledLagrangian c;
    c.mdl_ = mdl;
    c.sigma_ = sigma;
    Mat<S, s, s> Gab_inv;
    if (!detail::inverse_by_columns<S, s>(sigma, c.sigma_inv_)) return Error::singular;
    if (!detail::inverse_by_columns<S, s>(mdl.Gab, Gab_inv)) return Error::singular;
    c.tau_ = -c.sigma_inv_ * mdl.Gia.transpose();  // (52) τ^a_i = −σ^{ab} 𝔾_bi
    c.rho_inv_ = Gab_inv - c.sigma_inv_;           // (52) σ^{ab} + ρ^{ab} = 𝔾^{ab}
    if (!detail::inverse_by_columns<S, s>(c.rho_inv_, c.rho_)) return Error::singular;
    c.G_tilde_ = mdl.G - mdl.Gia * c.rho_inv_ * mdl.Gia.transpose();
    c.gain_ = mdl.Gab * c.sigma_inv_ * mdl.Gia.transpose();  // u = gain ξ̇
    return c;
  }

  ControlledLagrangian() = default;

  // u (53) at (v, Γ, θ̇). θ̇ enters through μ = 𝔾ξ + 𝔾_ia θ̇ in ad*_ξ μ (it does not for the skate).
  Vec<S, s> control(const Vec<S, q>& v, const Vec<S, k>& Gamma, const Vec<S, s>& theta_dot) const {
    Vec<S, q> vd;
    return control(v, Gamma, theta_dot, vd);
  }
  // Same, also returning the closed-loop v̇ used (Remark 14).
  Vec<S, s> control(const Vec<S, q>& v, const Vec<S, k>& Gamma, const Vec<S, s>& theta_dot, Vec<S, q>& v_dot) const {
    const detail::ReducedRates<Model> rr =
        detail::reduced_rates(mdl_, G_tilde_, v, Gamma, theta_dot, Vec<S, n>(Vec<S, n>::Zero()));
    v_dot = rr.v_dot;
    return gain_ * rr.xi_dot;
  }

  const Model& model() const { return mdl_; }
  const Sigma& sigma() const { return sigma_; }
  const Mat<S, s, n>& tau() const { return tau_; }                     // τ of (52)
  const Mat<S, s, s>& rho() const { return rho_; }                     // ρ of (52)
  const Mat<S, n, n>& closed_loop_metric() const { return G_tilde_; }  // 𝔾̃ = 𝔾 − 𝔾_ia ρ⁻¹ 𝔾_ai

  // Controlled rotor momentum π̃ = ρ(θ̇ + 𝔾_ab⁻¹𝒢_aα v + 𝒯 v) (49); conserved by the closed loop (51b).
  Vec<S, s> controlled_rotor_momentum(const Vec<S, q>& v, const Vec<S, k>& Gamma, const Vec<S, s>& theta_dot) const {
    const Mat<S, n, q> Ed = mdl_.basis(Gamma).template leftCols<q>();
    Mat<S, s, s> Gab_inv;
    (void)detail::inverse_by_columns<S, s>(mdl_.Gab, Gab_inv);  // checked in make()
    const Vec<S, n> xi = Ed * v;
    return rho_ * (theta_dot + Gab_inv * (mdl_.Gia.transpose() * xi) + tau_ * xi);
  }

 private:
  Model mdl_{};
  Sigma sigma_ = Sigma::Zero();
  Sigma sigma_inv_ = Sigma::Zero();
  Mat<S, s, n> tau_ = Mat<S, s, n>::Zero();
  Mat<S, s, s> rho_ = Mat<S, s, s>::Zero();
  Mat<S, s, s> rho_inv_ = Mat<S, s, s>::Zero();
  Mat<S, n, n> G_tilde_ = Mat<S, n, n>::Zero();
  Mat<S, s, n> gain_ = Mat<S, s, n>::Zero();
};

}  // namespace attractor
