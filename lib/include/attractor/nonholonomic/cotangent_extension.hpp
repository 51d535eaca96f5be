// SPDX-License-Identifier: Apache-2.0
// The extension of a nonholonomic system on T*Q from its constraint set to all of T*Q (paper 000
// §2.1, with the non-orthonormal constraints of Remark 2.4), as a System (integrate/system.hpp):
//
//   constraint momenta  c_i = ⟨p, e_i(q)⟩                     (eq. (2))
//   Gram matrix         G_ij = ⟨e_i♭, e_j⟩ = e_iᵀ m e_j, C = G⁻¹  (Remark 2.4, C^{ℓi} and C_{ℓi})
//   extended energy     H̃ = ½⟨p, m⁻¹p⟩ − ½ cᵀ C c + V(q)       (eq. (10); eq. (5) when G = I)
//   field               q̇ = ∂H̃/∂p = m⁻¹p − E C c              (eq. (6a), modified per Remark 2.4)
//                       ṗ = −∂H̃/∂q + m E λ̃                     (eq. (6b), e_i♭ = m e_i)
//   multipliers         λ̃ = C b,  b_ℓ = {H̃, c_ℓ} = ⟨∂H̃/∂q, e_ℓ⟩ − ⟨p, De_ℓ ∂H̃/∂p⟩  (eqs. (7), (11))
//
// with E = [e_1 … e_K]. With w = C c, u = E w and u♭ = m u (the constraint part of p),
//   ∂H̃/∂q = ∇_q ½pᵀm⁻¹p − ∇_q ½u♭ᵀm⁻¹u♭ |_{u♭ fixed} + Σ_i w_i De_iᵀ(u♭ − p) + ∇V,
// which needs only the quadratic-form gradient of m⁻¹ (∂m = −m ∂(m⁻¹) m folds ∂G into it).
// Then ċ = −b + Gλ̃ = 0 and dH̃/dt = (cᵀ − wᵀG) λ̃ = 0 everywhere: the c_i and H̃ are first
// integrals of the extended field on all of T*Q (Theorem 2.2), not only on the constraint set.
//
// Paper correction (Remark 2.4 says all of §2.1 carries over): with a Gram matrix that varies
// with q, H = H̃ + ½ cᵀC(q)c is a first integral only on the constraint set, not everywhere
// (Corollary 2.3 needs C constant); the energy row should then be H̃. And off the constraint set
// the extension depends on how the e_i are scaled: rescaling e by s(q) adds a force ∝ c.
//
// State x = (q, p) ∈ R^{2Q}; invariants F = (c_1..c_K, energy, the model's extra integrals). The
// energy row is H̃ or H (energy_row.hpp). invariant_targets pins the constraint rows to 0.
#pragma once

#include "attractor/core/inline.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/cotangent_model.hpp"
#include "attractor/nonholonomic/energy_row.hpp"
#include "attractor/nonholonomic/model_feedback_gradient.hpp"
#include "attractor/nonholonomic/small_inverse.hpp"

namespace attractor {

template <class Model, EnergyRow Row = EnergyRow::extended>
class CotangentExtension {
  static_assert(check_cotangent_model<Model>(), "CotangentExtension<Model>: see nonholonomic/cotangent_model.hpp");

 public:
  using Scalar = typename Model::Scalar;
  using S = Scalar;
  static constexpr int Q = Model::Q;
  static constexpr int K = Model::K;
  static constexpr int E = extra_integrals_of<Model>;
  static constexpr int N = 2 * Q;
  static constexpr int M = K + 1 + E;
  static constexpr int energy_row = K;  // index of the energy row in F
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  using Config = Vec<S, Q>;

  CotangentExtension() = default;
  explicit CotangentExtension(const Model& model) : model_(model) {}
  const Model& model() const { return model_; }

  // Everything the field, the energy and their gradients share at one state.
  struct Terms {
    Mat<S, Q, Q> m, minv;
    Mat<S, Q, K> e;      // E = [e_1 … e_K]
    Mat<S, Q, Q> De[K];  // De_i
    Mat<S, K, K> C;      // inverse Gram matrix
    Vec<S, K> c;         // constraint momenta ⟨p, e_i⟩
    Vec<S, Q> dHq, dHp;  // ∂H̃/∂q, ∂H̃/∂p
    S H_ext;             // H̃
  };

  Terms terms(const State& x) const {
    const Config q = x.template head<Q>(), p = x.template tail<Q>();
    Terms t;
    t.m = model_.mass(q);
    t.minv = model_.inverse_mass(q);
    t.e = model_.constraint_fields(q);
    for (int i = 0; i < K; ++i) t.De[i] = model_.constraint_derivative(q, i);
    t.C = small_inverse<S, K>(Mat<S, K, K>(t.e.transpose() * t.m * t.e));
    t.c = t.e.transpose() * p;
    const Vec<S, K> w = t.C * t.c;
    const Config u = t.e * w, u_flat = t.m * u;
    const Config minv_p = t.minv * p;
    t.dHp = minv_p - u;
    t.dHq = model_.kinetic_gradient(q, p) - model_.kinetic_gradient(q, u_flat) + model_.potential_gradient(q);
    const Config r = u_flat - p;
    for (int i = 0; i < K; ++i) t.dHq += w[i] * (t.De[i].transpose() * r);
    t.H_ext = S(0.5) * p.dot(minv_p) - S(0.5) * t.c.dot(w) + model_.potential(q);
    return t;
  }

  // λ̃ = C b (eqs. (7), (11)).
  Vec<S, K> multipliers(const Terms& t, const State& x) const {
    const Config p = x.template tail<Q>();
    Vec<S, K> b;
    for (int l = 0; l < K; ++l) b[l] = t.dHq.dot(t.e.col(l)) - p.dot(t.De[l] * t.dHp);
    return t.C * b;
  }

  // The extended field (6), Remark 2.4. It and the fused hooks below are each one call with their
  // helpers inlined into it (ATTRACTOR_FLATTEN, core/inline.hpp), whatever the caller's file.
  ATTRACTOR_FLATTEN State field(const State& x) const { return field(terms(x), x); }
  State field(const Terms& t, const State& x) const {
    State dx;
    dx.template head<Q>() = t.dHp;
    dx.template tail<Q>() = -t.dHq + t.m * (t.e * multipliers(t, x));
    return dx;
  }

  // Fused grad V = DFᵀ K (F − F0) (integrate/system.hpp): the model's own when it writes one out
  // (model_feedback_gradient.hpp; energy row H̃ only), else the rows of invariants_jacobian()
  // weighted by w = K∘(F − F0), from one terms(x) (the generic path evaluates it for F and
  // again for DF) and without the M×N matrix.
  ATTRACTOR_ALWAYS_INLINE State feedback_gradient(const State& x, const Invariants& F0, const Invariants& gain) const {
    if constexpr (model_gradient) {
      return model_.feedback_gradient(x, F0, gain);
    } else {
      return terms_feedback_gradient(x, F0, gain);
    }
  }
  State feedback_gradient(const Terms& t, const State& x, const Invariants& F0, const Invariants& gain) const {
    const Config q = x.template head<Q>(), p = x.template tail<Q>();
    const Vec<S, K> w_c = gain.template head<K>().cwiseProduct(t.c - F0.template head<K>());
    State g;
    g.template tail<Q>() = t.e * w_c;
    Config gq = Config::Zero();
    for (int i = 0; i < K; ++i) gq += w_c[i] * (t.De[i].transpose() * p);
    if constexpr (Row == EnergyRow::extended) {
      const S w_h = gain[K] * (t.H_ext - F0[K]);
      gq += w_h * t.dHq;
      g.template tail<Q>() += w_h * t.dHp;
    } else {
      const Config minv_p = t.minv * p;
      const S w_h = gain[K] * ((S(0.5) * p.dot(minv_p) + model_.potential(q)) - F0[K]);
      gq += w_h * (model_.kinetic_gradient(q, p) + model_.potential_gradient(q));
      g.template tail<Q>() += w_h * minv_p;
    }
    g.template head<Q>() = gq;
    if constexpr (E > 0) {
      const Vec<S, E> w_E = gain.template tail<E>().cwiseProduct(model_.first_integrals(q, p) - F0.template tail<E>());
      g += model_.first_integrals_jacobian(q, p).transpose() * w_E;
    }
    return g;
  }
  // Fused X − grad V: the field (one flattened call) minus the model's gradient, inlined into the
  // caller as a hand-written system's hooks are (a flattened call around both compiled to more
  // instructions); or field and gradient from the same terms(x).
  ATTRACTOR_ALWAYS_INLINE State feedback_field(const State& x, const Invariants& F0, const Invariants& gain) const {
    if constexpr (model_gradient) {
      return field(x) - model_.feedback_gradient(x, F0, gain);
    } else {
      return terms_feedback_field(x, F0, gain);
    }
  }

  S extended_energy(const State& x) const { return terms(x).H_ext; }  // H̃, eq. (10)
  S energy(const State& x) const {                                    // H, eq. (1)
    const Config q = x.template head<Q>(), p = x.template tail<Q>();
    return S(0.5) * p.dot(model_.inverse_mass(q) * p) + model_.potential(q);
  }

  Invariants invariants(const State& x) const {
    const Config q = x.template head<Q>(), p = x.template tail<Q>();
    Invariants F;
    F.template head<K>() = model_.constraint_fields(q).transpose() * p;
    F[K] = Row == EnergyRow::extended ? extended_energy(x) : energy(x);
    if constexpr (E > 0) F.template tail<E>() = model_.first_integrals(q, p);
    return F;
  }

  // DF: grad c_i = (De_iᵀ p, e_i); grad H̃ = (∂H̃/∂q, ∂H̃/∂p); grad H = (∇_q ½pᵀm⁻¹p + ∇V, m⁻¹p).
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    const Config q = x.template head<Q>(), p = x.template tail<Q>();
    Mat<S, M, N> J;
    const Terms t = terms(x);
    for (int i = 0; i < K; ++i) {
      J.row(i).template head<Q>() = (t.De[i].transpose() * p).transpose();
      J.row(i).template tail<Q>() = t.e.col(i).transpose();
    }
    if constexpr (Row == EnergyRow::extended) {
      J.row(K).template head<Q>() = t.dHq.transpose();
      J.row(K).template tail<Q>() = t.dHp.transpose();
    } else {
      J.row(K).template head<Q>() = (model_.kinetic_gradient(q, p) + model_.potential_gradient(q)).transpose();
      J.row(K).template tail<Q>() = (t.minv * p).transpose();
    }
    if constexpr (E > 0) J.template bottomRows<E>() = model_.first_integrals_jacobian(q, p);
    return J;
  }

  // The constraint rows are held at 0, the energy and extra integrals at their start values.
  Invariants invariant_targets(const Invariants& F_at_x0) const {
    Invariants F0 = F_at_x0;
    F0.template head<K>().setZero();
    return F0;
  }

 private:
  static constexpr bool model_gradient = Row == EnergyRow::extended && has_model_feedback_gradient_v<Model, N, M>;

  ATTRACTOR_FLATTEN State terms_feedback_gradient(const State& x, const Invariants& F0, const Invariants& gain) const {
    return feedback_gradient(terms(x), x, F0, gain);
  }
  ATTRACTOR_FLATTEN State terms_feedback_field(const State& x, const Invariants& F0, const Invariants& gain) const {
    const Terms t = terms(x);
    return field(t, x) - feedback_gradient(t, x, F0, gain);
  }
  Model model_{};
};

}  // namespace attractor
