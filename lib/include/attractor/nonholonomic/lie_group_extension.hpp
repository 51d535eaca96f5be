// SPDX-License-Identifier: Apache-2.0
// The extension of a nonholonomic system on a Lie group G (left-invariant constraints, kinetic
// energy only) from its constraint set to all of G × 𝔤* (paper 000 §2.2, with non-orthonormal
// constraint vectors as in Remark 2.4), as a System (integrate/system.hpp):
//
//   constraint momenta  c_i = ⟨μ, e_i⟩                        (𝒞_red, §2.2)
//   Gram matrix         G_ij = ⟨𝕀 e_i, e_j⟩, C = G⁻¹          (Remark 2.4; G = I in the paper)
//   extended energy     h̃ = ½⟨μ, 𝕀⁻¹μ⟩ − ½ cᵀ C c              (eq. (16))
//   field               ġ = g·ξ̃,  ξ̃ = δh̃/δμ = 𝕀⁻¹μ − E C c    (eq. (17a))
//                       μ̇ = ad*_ξ̃ μ + 𝕀 E λ̃                   (eq. (17b))
//   multipliers         λ̃ = −C Eᵀ ad*_ξ̃ μ                      (eq. (18): λ̃_i = {h̃, ⟨μ,e_i⟩}₋)
//
// so ċ = Eᵀ ad*_ξ̃ μ + G λ̃ = 0 and dh̃/dt = ⟨ξ̃, ad*_ξ̃ μ⟩ + ξ̃ᵀ𝕀Eλ̃ = 0 + (cᵀ − cᵀCG)λ̃ = 0
// everywhere (Theorem 2.6). The group element is stored in an ambient space (R ∈ R^{n×n} first,
// then any translation part), and RᵀR = I is kept by feedback: its rows
// (orthogonality_rows.hpp) form one gain group with target 0.
//
// State x = (g, μ) ∈ R^{G+D}; invariants F = (c_1..c_K, energy, the model's extra integrals,
// RᵀR − I rows). The energy row is h̃ or h (energy_row.hpp).
#pragma once

#include "attractor/core/inline.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/energy_row.hpp"
#include "attractor/nonholonomic/lie_group_model.hpp"
#include "attractor/nonholonomic/orthogonality_rows.hpp"
#include "attractor/nonholonomic/small_inverse.hpp"

namespace attractor {

namespace detail {
template <class S, int n>
struct rotation_rows {
  static constexpr int count = OrthogonalityRows<S, n>::count;
};
template <class S>
struct rotation_rows<S, 0> {
  static constexpr int count = 0;
};
}  // namespace detail

template <class Model, EnergyRow Row = EnergyRow::extended>
class LieGroupExtension {
  static_assert(check_lie_group_model<Model>(), "LieGroupExtension<Model>: see nonholonomic/lie_group_model.hpp");

 public:
  using Scalar = typename Model::Scalar;
  using S = Scalar;
  static constexpr int D = Model::D;
  static constexpr int K = Model::K;
  static constexpr int G = Model::G;
  static constexpr int n = Model::rotation_size;
  static constexpr int O = detail::rotation_rows<S, n>::count;  // RᵀR − I rows
  static constexpr int E = extra_integrals_of<Model>;
  static constexpr int N = G + D;
  static constexpr int M = K + 1 + E + O;
  static constexpr int energy_row = K;
  static constexpr int first_rotation_row = K + 1 + E;
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  using Algebra = Vec<S, D>;

  LieGroupExtension() = default;
  explicit LieGroupExtension(const Model& model) : model_(model) { cache(); }
  const Model& model() const { return model_; }

  static Algebra momentum(const State& x) { return x.template tail<D>(); }

  // ξ̃ = 𝕀⁻¹μ − E C c (eq. (17a)).
  Algebra extended_velocity(const Algebra& mu) const { return Iinv_ * mu - E_ * (C_ * (E_.transpose() * mu)); }

  // λ̃ = −C Eᵀ ad*_ξ̃ μ (eq. (18)).
  Vec<S, K> multipliers(const Algebra& mu) const {
    return -C_ * (E_.transpose() * model_.ad_star(extended_velocity(mu), mu));
  }

  // The public field and fused hooks are each one call with their helpers inlined into it
  // (ATTRACTOR_FLATTEN, core/inline.hpp): their cost does not depend on the caller's file.
  ATTRACTOR_FLATTEN State field(const State& x) const { return field(Parts(*this, x), x); }

  // div X, exactly and cheaply (the measure checks, integrate/measure.hpp): the group part g·ξ̃
  // is linear in g with ξ̃ traceless (so(n), se(n)) and the translation moved by R alone, so it
  // adds nothing; the momentum part μ̇ = P ad*_ξ̃ μ, P = 1 − 𝕀E C Eᵀ, ξ̃ = Bμ (B symmetric), has
  // D(ad*_ξ̃ μ) = ad*_{B·} μ + ad*_ξ̃ · (ad* bilinear), whose trace under P is summed column by column.
  S divergence(const State& x) const {
    const Algebra mu = momentum(x);
    const Algebra xi = extended_velocity(mu);
    S div(0);
    for (int j = 0; j < D; ++j) {
      const Algebra ej = Algebra::Unit(j);
      const Algebra col = model_.ad_star(extended_velocity(ej), mu) + model_.ad_star(xi, ej);
      div += col[j] - IE_.row(j).dot(C_ * (E_.transpose() * col));
    }
    return div;
  }

  S extended_energy(const State& x) const {  // h̃, eq. (16)
    const Algebra mu = momentum(x);
    const Vec<S, K> c = E_.transpose() * mu;
    return S(0.5) * mu.dot(Iinv_ * mu) - S(0.5) * c.dot(C_ * c);
  }
  S energy(const State& x) const {  // h, eq. (13)
    const Algebra mu = momentum(x);
    return S(0.5) * mu.dot(Iinv_ * mu);
  }

  Invariants invariants(const State& x) const {
    Invariants F;
    F.template head<K>() = E_.transpose() * momentum(x);
    F[K] = Row == EnergyRow::extended ? extended_energy(x) : energy(x);
    if constexpr (E > 0) F.template segment<E>(K + 1) = model_.first_integrals(momentum(x));
    if constexpr (O > 0) F.template tail<O>() = OrthogonalityRows<S, n>::values(rotation(x));
    return F;
  }

  // DF: grad c_i = (0, e_i); grad h̃ = (0, ξ̃); grad h = (0, 𝕀⁻¹μ); RᵀR rows on the R entries.
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    Mat<S, M, N> J = Mat<S, M, N>::Zero();
    const Algebra mu = momentum(x);
    J.template topRightCorner<K, D>() = E_.transpose();
    J.row(K).template tail<D>() =
        (Row == EnergyRow::extended ? extended_velocity(mu) : Algebra(Iinv_ * mu)).transpose();
    if constexpr (E > 0) J.template block<E, D>(K + 1, G) = model_.first_integrals_jacobian(mu);
    if constexpr (O > 0) J.template bottomLeftCorner<O, n * n>() = OrthogonalityRows<S, n>::jacobian(rotation(x));
    return J;
  }

  // Fused grad V = DFᵀ K (F − F0) (integrate/system.hpp): the rows above weighted by
  // w = K∘(F − F0), without the M×N matrix and its zeros: E w_c + w_energy v on μ (v = ξ̃ for h̃,
  // 𝕀⁻¹μ for h) plus the extra integrals' Jacobianᵀ w_extra, R W on R (OrthogonalityRows::
  // feedback_weights), nothing on the rest of the group part.
  ATTRACTOR_FLATTEN State feedback_gradient(const State& x, const Invariants& F0, const Invariants& gain) const {
    const Parts P(*this, x);
    State g;
    if constexpr (G > 0) g.template head<G>().setZero();
    if constexpr (O > 0) {
      const auto R = rotation(x);
      const Mat<S, n, n> RW = R * rotation_weights(R, F0, gain);
      g.template head<n * n>() = Eigen::Map<const Vec<S, n * n>>(RW.data());
    }
    Algebra gm = Algebra::Zero();
    apply_momentum_gradient(P, F0, gain, S(1), gm);
    g.template tail<D>() = gm;
    return g;
  }
  // Fused X − grad V: 𝕀⁻¹μ, c, C c and ξ̃ computed once for the field and the gradient, and on
  // the rotation R (ξ̃^ − W) as one product where the model supplies the weighted group velocity
  // (lie_group_model.hpp), instead of R ξ̃^ − R W.
  ATTRACTOR_FLATTEN State feedback_field(const State& x, const Invariants& F0, const Invariants& gain) const {
    const Parts P(*this, x);
    State dx;
    if constexpr (G > 0) {
      const Vec<S, G> g = x.template head<G>();
      if constexpr (O > 0) {
        const Mat<S, n, n> W = rotation_weights(rotation(x), F0, gain);
        if constexpr (detail::lie_weighted_velocity<Model>::value) {
          dx.template head<G>() = model_.group_velocity(g, P.xi, W);
        } else {
          dx.template head<G>() = model_.group_velocity(g, P.xi);
          const Mat<S, n, n> RW = rotation(x) * W;
          dx.template head<n * n>() -= Eigen::Map<const Vec<S, n * n>>(RW.data());
        }
      } else {
        dx.template head<G>() = model_.group_velocity(g, P.xi);
      }
    }
    Algebra mdot = momentum_field(P);
    apply_momentum_gradient(P, F0, gain, S(-1), mdot);
    dx.template tail<D>() = mdot;
    return dx;
  }

  // Constraint rows and RᵀR − I held at 0; the energy and extra integrals at their start values.
  Invariants invariant_targets(const Invariants& F_at_x0) const {
    Invariants F0 = Invariants::Zero();
    F0.template segment<1 + E>(K) = F_at_x0.template segment<1 + E>(K);
    return F0;
  }

  // The RᵀR − I rows share one gain (their sum of squares is the paper's ‖RᵀR − I‖²).
  static constexpr int gain_group(int row) { return row >= first_rotation_row ? first_rotation_row : row; }

  static Mat<S, (n > 0 ? n : 1), (n > 0 ? n : 1)> rotation(const State& x) {
    static_assert(n > 0, "rotation(): the model stores no rotation");
    return Eigen::Map<const Mat<S, n, n>>(x.data());
  }

 private:
  // What the field, the energy and their gradients share at one state (eqs. (16), (17a)).
  struct Parts {
    Algebra mu, Iinv_mu, xi;
    Vec<S, K> c, Cc;
    Parts(const LieGroupExtension& sys, const State& x)
        : mu(momentum(x)), Iinv_mu(sys.Iinv_ * mu), c(sys.E_.transpose() * mu), Cc(sys.C_ * c) {
      xi = Iinv_mu - sys.E_ * Cc;
    }
  };

  // ġ = g·ξ̃, μ̇ = ad*_ξ̃ μ + 𝕀 E λ̃ (eqs. (17), (18)).
  State field(const Parts& P, const State& x) const {
    State dx;
    if constexpr (G > 0) dx.template head<G>() = model_.group_velocity(Vec<S, G>(x.template head<G>()), P.xi);
    dx.template tail<D>() = momentum_field(P);
    return dx;
  }
  Algebra momentum_field(const Parts& P) const {
    const Algebra ad = model_.ad_star(P.xi, P.mu);
    return ad - IE_ * (C_ * (E_.transpose() * ad));
  }

  // The μ part of grad V, E w_c + w_energy v (+ the extra integrals' rows), subtracted from
  // `out` (sign −1: the feedback field, each term one fused multiply-subtract) or added (+1).
  // h̃ = ½⟨μ, ξ̃⟩, since ⟨μ, E C c⟩ = cᵀ C c (eq. (16)).
  // The model's own, written out with its zeros, when it has one (lie_group_model.hpp).
  void apply_momentum_gradient(const Parts& P, const Invariants& F0, const Invariants& gain, S sign,
                               Algebra& out) const {
    if constexpr (Row == EnergyRow::extended && detail::lie_momentum_gradient<Model, M>::value) {
      model_.add_momentum_feedback_gradient(P.mu, P.xi, P.c, E_, F0, gain, sign, out);
    } else {
      const bool extended = Row == EnergyRow::extended;
      const Algebra& v = extended ? P.xi : P.Iinv_mu;
      const Vec<S, K> w_c = sign * gain.template head<K>().cwiseProduct(P.c - F0.template head<K>());
      const S w_h = sign * gain[K] * (S(0.5) * P.mu.dot(v) - F0[K]);
      out += E_.lazyProduct(w_c);
      out += w_h * v;
      if constexpr (E > 0) {
        const Vec<S, E> w_e = sign * gain.template segment<E>(K + 1).cwiseProduct(model_.first_integrals(P.mu) -
                                                                                  F0.template segment<E>(K + 1));
        out += model_.first_integrals_jacobian(P.mu).transpose().lazyProduct(w_e);
      }
    }
  }

  // W with R W the RᵀR − I rows' share of grad V (orthogonality_rows.hpp).
  static Mat<S, (n > 0 ? n : 1), (n > 0 ? n : 1)> rotation_weights(const Mat<S, (n > 0 ? n : 1), (n > 0 ? n : 1)>& R,
                                                                   const Invariants& F0, const Invariants& gain) {
    return OrthogonalityRows<S, n>::feedback_weights(R, Vec<S, O>(gain.template tail<O>()),
                                                     Vec<S, O>(F0.template tail<O>()));
  }

  void cache() {
    Iinv_ = model_.inverse_locked_inertia();
    E_ = model_.constraint_vectors();
    IE_ = model_.locked_inertia() * E_;
    C_ = small_inverse<S, K>(Mat<S, K, K>(E_.transpose() * IE_));
  }

  Model model_{};
  Mat<S, D, D> Iinv_ = Mat<S, D, D>::Identity();
  Mat<S, D, K> E_ = Mat<S, D, K>::Zero();
  Mat<S, D, K> IE_ = Mat<S, D, K>::Zero();
  Mat<S, K, K> C_ = Mat<S, K, K>::Identity();
};

}  // namespace attractor
