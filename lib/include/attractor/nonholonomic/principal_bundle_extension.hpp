// SPDX-License-Identifier: Apache-2.0
// The extension of a nonholonomic system on a trivial principal bundle Q = G × X (a symmetry
// group G and a shape X) from its constraint set to all of G × 𝔤* × T*X (paper 000 §2.3, with
// non-orthonormal constraints as in Remark 2.4), as a System (integrate/system.hpp). With
// z = (μ, p_x) ∈ R^{D+P}, the reduced mass tensor m(x) and E = [e_1 … e_K]:
//
//   constraint momenta  c_i = ⟨z, e_i(x)⟩                          (𝒞_red, §2.3)
//   Gram matrix         G_ij = e_iᵀ m e_j, C = G⁻¹                  (Remark 2.4; G = I in the paper)
//   extended energy     h̃ = ½ zᵀ m⁻¹ z − ½ cᵀ C c + V(x)             (eq. (23))
//   field               ġ = g·ξ̃, ẋ = ∂h̃/∂p_x, (ξ̃, ẋ) = ∂h̃/∂z = m⁻¹z − E C c   (eq. (24a))
//                       ż = (ad*_ξ̃ μ, −∂h̃/∂x) + m E λ̃                (eq. (24b), e_i♭ = m e_i)
//   multipliers         λ̃ = −C a,  a_l = ⟨(ad*_ξ̃ μ, −∂h̃/∂x), e_l⟩ + ⟨z, De_l ẋ⟩
//                                                                    (eq. (25): λ̃_l = {h̃, c_l}, bracket (19))
//
// so ċ = a + Gλ̃ = 0, and dh̃/dt = ⟨ξ̃, ad*_ξ̃ μ⟩ + (cᵀ − cᵀCG)λ̃ = 0 everywhere (Theorem 2.9).
// ∂h̃/∂x is formed as in cotangent_extension.hpp: with w = C c, u = E w, u♭ = m u,
//   ∂h̃/∂x = ∇_x ½zᵀm⁻¹z − ∇_x ½u♭ᵀm⁻¹u♭ |_{u♭ fixed} + Σ_i w_i De_iᵀ(u♭ − z) + ∇V.
// With a shape-dependent Gram matrix, h = h̃ + ½cᵀCc is a first integral only on the constraint
// set (as in §2.1), so the energy row should then be h̃ (Corollary 2.10 assumes orthonormal e_i).
// The group element is stored in an ambient space (R ∈ R^{n×n} first, then a translation), with
// RᵀR = I kept by feedback as one gain group (orthogonality_rows.hpp).
//
// State x = (g, x, μ, p_x) ∈ R^{G+P+D+P}; invariants F = (c_1..c_K, energy, RᵀR − I rows). The
// energy row is h̃ or h (energy_row.hpp).
#pragma once

#include "attractor/core/inline.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/energy_row.hpp"
#include "attractor/nonholonomic/model_feedback_gradient.hpp"
#include "attractor/nonholonomic/orthogonality_rows.hpp"
#include "attractor/nonholonomic/principal_bundle_model.hpp"
#include "attractor/nonholonomic/small_inverse.hpp"

namespace attractor {

template <class Model, EnergyRow Row = EnergyRow::extended>
class PrincipalBundleExtension {
  static_assert(check_principal_bundle_model<Model>(),
                "PrincipalBundleExtension<Model>: see nonholonomic/principal_bundle_model.hpp");

 public:
  using Scalar = typename Model::Scalar;
  using S = Scalar;
  static constexpr int D = Model::D;
  static constexpr int P = Model::P;
  static constexpr int K = Model::K;
  static constexpr int G = Model::G;
  static constexpr int Z = D + P;  // momentum z = (μ, p_x)
  static constexpr int n = Model::rotation_size;
  static constexpr int O = n > 0 ? OrthogonalityRows<S, (n > 0 ? n : 2)>::count : 0;  // RᵀR − I rows
  static constexpr int N = G + P + Z;
  static constexpr int M = K + 1 + O;
  static constexpr int shape_index = G;         // x in the state
  static constexpr int momentum_index = G + P;  // z = (μ, p_x) in the state
  static constexpr int energy_row = K;
  static constexpr int first_rotation_row = K + 1;
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  using Shape = Vec<S, P>;
  using Momentum = Vec<S, Z>;

  PrincipalBundleExtension() = default;
  explicit PrincipalBundleExtension(const Model& model) : model_(model) {}
  const Model& model() const { return model_; }

  static Shape shape(const State& x) { return x.template segment<P>(shape_index); }
  static Momentum momentum(const State& x) { return x.template tail<Z>(); }

  // Everything the field, the energy and their gradients share at one state.
  struct Terms {
    Mat<S, Z, Z> m, minv;
    Mat<S, Z, K> e;      // E = [e_1 … e_K]
    Mat<S, Z, P> De[K];  // De_i
    Mat<S, K, K> C;      // inverse Gram matrix
    Vec<S, K> c;         // constraint momenta ⟨z, e_i⟩
    Shape dHx;           // ∂h̃/∂x
    Momentum dHz;        // ∂h̃/∂z = (ξ̃, ẋ)
    S H_ext;             // h̃
  };

  Terms terms(const State& s) const {
    const Shape x = shape(s);
    const Momentum z = momentum(s);
    Terms t;
    t.m = model_.mass(x);
    t.minv = model_.inverse_mass(x);
    t.e = model_.constraint_fields(x);
    for (int i = 0; i < K; ++i) t.De[i] = model_.constraint_derivative(x, i);
    t.C = small_inverse<S, K>(Mat<S, K, K>(t.e.transpose() * t.m * t.e));
    t.c = t.e.transpose() * z;
    const Vec<S, K> w = t.C * t.c;
    const Momentum u = t.e * w, u_flat = t.m * u;
    const Momentum minv_z = t.minv * z;
    t.dHz = minv_z - u;
    t.dHx = model_.kinetic_gradient(x, z) - model_.kinetic_gradient(x, u_flat) + model_.potential_gradient(x);
    const Momentum r = u_flat - z;
    for (int i = 0; i < K; ++i) t.dHx += w[i] * (t.De[i].transpose() * r);
    t.H_ext = S(0.5) * z.dot(minv_z) - S(0.5) * t.c.dot(w) + model_.potential(x);
    return t;
  }

  // The unconstrained part of ż: (ad*_ξ̃ μ, −∂h̃/∂x).
  Momentum free_rate(const Terms& t, const State& s) const {
    Momentum y;
    y.template head<D>() =
        model_.ad_star(Vec<S, D>(t.dHz.template head<D>()), Vec<S, D>(momentum(s).template head<D>()));
    y.template tail<P>() = -t.dHx;
    return y;
  }

  // λ̃ = −C a (eq. (25)).
  Vec<S, K> multipliers(const Terms& t, const State& s, const Momentum& free) const {
    const Momentum z = momentum(s);
    const Shape xdot = t.dHz.template tail<P>();
    Vec<S, K> a = t.e.transpose() * free;
    for (int l = 0; l < K; ++l) a[l] += z.dot(t.De[l] * xdot);
    return -(t.C * a);
  }

  // The extended field (24). It and the fused hooks below are each one call with their helpers
  // inlined into it (ATTRACTOR_FLATTEN, core/inline.hpp), whatever the caller's file.
  ATTRACTOR_FLATTEN State field(const State& s) const { return field(terms(s), s); }
  State field(const Terms& t, const State& s) const {
    State dx;
    if constexpr (G > 0) {
      dx.template head<G>() =
          model_.group_velocity(Vec<S, G>(s.template head<G>()), Vec<S, D>(t.dHz.template head<D>()));
    }
    momentum_field(t, s, dx);
    return dx;
  }

  // Fused grad V = DFᵀ K (F − F0) (integrate/system.hpp): the rows of invariants_jacobian()
  // weighted by w = K∘(F − F0), from one terms(s) (the generic path evaluates it for F and again
  // for DF) and without the M×N matrix: on x Σ w_c,i De_iᵀ z + w_energy ∂/∂x, on z E w_c +
  // w_energy ∂/∂z, on R the RᵀR − I rows' R W (orthogonality_rows.hpp), nothing on the rest of g.
  // The model's own gradient instead when it writes one out (model_feedback_gradient.hpp).
  ATTRACTOR_ALWAYS_INLINE State feedback_gradient(const State& s, const Invariants& F0, const Invariants& gain) const {
    if constexpr (model_gradient) {
      return model_.feedback_gradient(s, F0, gain);
    } else {
      return terms_feedback_gradient(s, F0, gain);
    }
  }
  State feedback_gradient(const Terms& t, const State& s, const Invariants& F0, const Invariants& gain) const {
    State g;
    if constexpr (G > 0) g.template head<G>().setZero();
    if constexpr (O > 0) {
      const Mat<S, n, n> RW = rotation(s) * rotation_weights(rotation(s), F0, gain);
      g.template head<n * n>() = Eigen::Map<const Vec<S, n * n>>(RW.data());
    }
    Shape gx = Shape::Zero();
    Momentum gz = Momentum::Zero();
    apply_bundle_gradient(t, s, F0, gain, S(1), gx, gz);
    g.template segment<P>(shape_index) = gx;
    g.template tail<Z>() = gz;
    return g;
  }
  // Fused X − grad V: the field and the gradient from the same terms(s), and on R (ξ̃^ − W) as one
  // product where the model supplies the weighted group velocity (as lie_group_model.hpp); or the
  // field (one flattened call) minus the model's gradient, inlined as in cotangent_extension.hpp.
  ATTRACTOR_ALWAYS_INLINE State feedback_field(const State& s, const Invariants& F0, const Invariants& gain) const {
    if constexpr (model_gradient) {
      return field(s) - model_.feedback_gradient(s, F0, gain);
    } else {
      return terms_feedback_field(s, F0, gain);
    }
  }

  S extended_energy(const State& s) const { return terms(s).H_ext; }  // h̃, eq. (23)
  S energy(const State& s) const {                                    // h, eq. (20)
    const Shape x = shape(s);
    const Momentum z = momentum(s);
    return S(0.5) * z.dot(model_.inverse_mass(x) * z) + model_.potential(x);
  }

  Invariants invariants(const State& s) const {
    Invariants F;
    F.template head<K>() = model_.constraint_fields(shape(s)).transpose() * momentum(s);
    F[K] = Row == EnergyRow::extended ? extended_energy(s) : energy(s);
    if constexpr (O > 0) F.template tail<O>() = OrthogonalityRows<S, n>::values(rotation(s));
    return F;
  }

  // DF: grad c_i = (x: De_iᵀ z, z: e_i); grad h̃ = (x: ∂h̃/∂x, z: ∂h̃/∂z);
  // grad h = (x: ∇_x ½zᵀm⁻¹z + ∇V, z: m⁻¹z); RᵀR rows on the R entries.
  Mat<S, M, N> invariants_jacobian(const State& s) const {
    const Shape x = shape(s);
    const Momentum z = momentum(s);
    const Terms t = terms(s);
    Mat<S, M, N> J = Mat<S, M, N>::Zero();
    for (int i = 0; i < K; ++i) {
      J.row(i).template segment<P>(shape_index) = (t.De[i].transpose() * z).transpose();
      J.row(i).template tail<Z>() = t.e.col(i).transpose();
    }
    if constexpr (Row == EnergyRow::extended) {
      J.row(K).template segment<P>(shape_index) = t.dHx.transpose();
      J.row(K).template tail<Z>() = t.dHz.transpose();
    } else {
      J.row(K).template segment<P>(shape_index) =
          (model_.kinetic_gradient(x, z) + model_.potential_gradient(x)).transpose();
      J.row(K).template tail<Z>() = (t.minv * z).transpose();
    }
    if constexpr (O > 0) J.template bottomLeftCorner<O, n * n>() = OrthogonalityRows<S, n>::jacobian(rotation(s));
    return J;
  }

  // Constraint rows and RᵀR − I held at 0; the energy at its start value.
  Invariants invariant_targets(const Invariants& F_at_x0) const {
    Invariants F0 = Invariants::Zero();
    F0[K] = F_at_x0[K];
    return F0;
  }

  // The RᵀR − I rows share one gain (their sum of squares is the paper's ‖RᵀR − I‖²).
  static constexpr int gain_group(int row) { return row >= first_rotation_row ? first_rotation_row : row; }

  static Mat<S, (n > 0 ? n : 1), (n > 0 ? n : 1)> rotation(const State& x) {
    static_assert(n > 0, "rotation(): the model stores no rotation");
    return Eigen::Map<const Mat<S, n, n>>(x.data());
  }

 private:
  static constexpr bool model_gradient = Row == EnergyRow::extended && has_model_feedback_gradient_v<Model, N, M>;

  ATTRACTOR_FLATTEN State terms_feedback_gradient(const State& s, const Invariants& F0, const Invariants& gain) const {
    return feedback_gradient(terms(s), s, F0, gain);
  }
  // X − grad V from one terms(s), with R (ξ̃^ − W) as one product where the model has it.
  ATTRACTOR_FLATTEN State terms_feedback_field(const State& s, const Invariants& F0, const Invariants& gain) const {
    const Terms t = terms(s);
    State dx;
    if constexpr (G > 0) {
      const Vec<S, G> g = s.template head<G>();
      const Vec<S, D> xi = t.dHz.template head<D>();
      if constexpr (O > 0) {
        const Mat<S, n, n> W = rotation_weights(rotation(s), F0, gain);
        if constexpr (detail::bundle_weighted_velocity<Model>::value) {
          dx.template head<G>() = model_.group_velocity(g, xi, W);
        } else {
          dx.template head<G>() = model_.group_velocity(g, xi);
          const Mat<S, n, n> RW = rotation(s) * W;
          dx.template head<n * n>() -= Eigen::Map<const Vec<S, n * n>>(RW.data());
        }
      } else {
        dx.template head<G>() = model_.group_velocity(g, xi);
      }
    }
    momentum_field(t, s, dx);
    Shape dxs = dx.template segment<P>(shape_index);
    Momentum dz = dx.template tail<Z>();
    apply_bundle_gradient(t, s, F0, gain, S(-1), dxs, dz);
    dx.template segment<P>(shape_index) = dxs;
    dx.template tail<Z>() = dz;
    return dx;
  }

  // ẋ and ż of the field (24) into dx: ẋ = ∂h̃/∂p_x, ż = (ad*_ξ̃ μ, −∂h̃/∂x) + m E λ̃.
  void momentum_field(const Terms& t, const State& s, State& dx) const {
    const Momentum free = free_rate(t, s);
    dx.template segment<P>(shape_index) = t.dHz.template tail<P>();
    dx.template tail<Z>() = free + t.m * (t.e * multipliers(t, s, free));
  }

  // The shape and momentum parts of grad V (the rows of invariants_jacobian() weighted by
  // w = K∘(F − F0)), added to gx, gz (sign +1) or subtracted (−1, the feedback field).
  void apply_bundle_gradient(const Terms& t, const State& s, const Invariants& F0, const Invariants& gain, S sign,
                             Shape& gx, Momentum& gz) const {
    const Shape x = shape(s);
    const Momentum z = momentum(s);
    const Vec<S, K> w_c = sign * gain.template head<K>().cwiseProduct(t.c - F0.template head<K>());
    gz += t.e * w_c;
    for (int i = 0; i < K; ++i) gx += w_c[i] * (t.De[i].transpose() * z);
    if constexpr (Row == EnergyRow::extended) {
      const S w_h = sign * gain[K] * (t.H_ext - F0[K]);
      gx += w_h * t.dHx;
      gz += w_h * t.dHz;
    } else {
      const Momentum minv_z = t.minv * z;
      const S w_h = sign * gain[K] * ((S(0.5) * z.dot(minv_z) + model_.potential(x)) - F0[K]);
      gx += w_h * (model_.kinetic_gradient(x, z) + model_.potential_gradient(x));
      gz += w_h * minv_z;
    }
  }

  // W with R W the RᵀR − I rows' share of grad V (orthogonality_rows.hpp).
  static Mat<S, (n > 0 ? n : 1), (n > 0 ? n : 1)> rotation_weights(const Mat<S, (n > 0 ? n : 1), (n > 0 ? n : 1)>& R,
                                                                   const Invariants& F0, const Invariants& gain) {
    return OrthogonalityRows<S, n>::feedback_weights(R, Vec<S, O>(gain.template tail<O>()),
                                                     Vec<S, O>(F0.template tail<O>()));
  }

  Model model_{};
};

}  // namespace attractor
