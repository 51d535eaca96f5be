// SPDX-License-Identifier: Apache-2.0
// The Suslov problem: a rigid body whose body angular velocity is constrained by one linear
// condition (paper 000 §3.1, eqs. (29)–(42); Bloch, Nonholonomic Mechanics, p. 394), as the Lie-
// group extension of nonholonomic/lie_group_extension.hpp on SO(3):
//
//   Ṙ = R ξ̃^,  ξ̃ = 𝕀⁻¹Π − (Π·e) e                       (eq. (33a))
//   Π̇ = Π × ξ̃ + λ̃ 𝕀e,  λ̃ = −e·(Π × 𝕀⁻¹Π)                 (eqs. (33b), (34))
//
// State layout x = (R column-major (9), Π (3)), N = 12. Invariants (M = 8):
//   row 0      J = Π·e                          constraint (eq. (35)), target 0
//   row 1      h̃ (default) or h                 energy (eqs. (32), (31)); h̃ is the paper's (36)
//   rows 2..7  RᵀR − I (diagonal / √2)          group, one gain group, target 0 (eq. (36), k0)
// The paper's gains k0, k1, k2 of eq. (36) map to K = (k1, k2, k0 × 6).
//
// The constraint vector e is settable: any nonzero vector, scaled here so that e·𝕀e = 1 (eq. (30))
// — the constraint set does not change, and J is then the paper's J. ad*_ξ μ = μ × ξ on so(3)*.
#pragma once

#include <cmath>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

#include <Eigen/Geometry>  // cross()
#include "attractor/nonholonomic/lie_group_extension.hpp"

namespace attractor {

// The Suslov problem's facts (core/facts.hpp): the inertia as its upper triangle (I11, I12, I13,
// I22, I23, I33), symmetric positive definite, and the constraint vector a (⟨ω, a⟩ = 0), nonzero.
// The paper's experiment (000 §3.1): 𝕀 = [[1,0,0],[0,1,1],[0,1,2]], a = e3, R0 = I, Π0 = (0,1,1)
// (on the constraint), feedback Euler, h = 1e-3, all gains 100, t in [0, 10].
struct SuslovFacts {
  static constexpr double inertia_default[] = {1, 0, 0, 1, 1, 2};
  static constexpr double a_default[] = {0, 0, 1};
  static constexpr facts::Param params[] = {
      {"inertia", "I11,I12,I13,I22,I23,I33", 0, facts::any_finite(),
       "body inertia [kg m^2], upper triangle row by row (symmetric positive definite)", 6, inertia_default},
      {"a", "A1,A2,A3", 0, facts::any_finite(), "constraint vector: <ω, a> = 0 (nonzero)", 3, a_default}};
  static constexpr const char* states[] = {"R11", "R21", "R31", "R12", "R22", "R32",
                                           "R13", "R23", "R33", "Pi1", "Pi2", "Pi3"};
  static constexpr facts::Invariant invariants[] = {{"J", facts::InvariantKind::constraint, "<I^-1 Π, a>, target 0"},
                                                    {"h", facts::InvariantKind::energy, "the extended energy h~"},
                                                    {"O11", facts::InvariantKind::group, "(R^T R - I)_11"},
                                                    {"O12", facts::InvariantKind::group, "(R^T R - I)_12"},
                                                    {"O13", facts::InvariantKind::group, "(R^T R - I)_13"},
                                                    {"O22", facts::InvariantKind::group, "(R^T R - I)_22"},
                                                    {"O23", facts::InvariantKind::group, "(R^T R - I)_23"},
                                                    {"O33", facts::InvariantKind::group, "(R^T R - I)_33"}};
  static constexpr double x0[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1};
  static constexpr facts::Case documented = {"paper", "paper 000 §3.1", x0, 1e-3, 10, "feedback-euler", 100};
  // Sylvester's criterion on the upper triangle v[0..5]; a = v[6..8] nonzero.
  template <class T>
  static constexpr facts::Refusal cross(const T* v) {
    const T d2 = v[0] * v[3] - v[1] * v[1];
    const T d3 =
        v[0] * (v[3] * v[5] - v[4] * v[4]) - v[1] * (v[1] * v[5] - v[4] * v[2]) + v[2] * (v[1] * v[4] - v[3] * v[2]);
    if (!(v[0] > T(0)) || !(d2 > T(0)) || !(d3 > T(0))) return facts::refused(0, "must be positive definite");
    if (!(v[6] * v[6] + v[7] * v[7] + v[8] * v[8] > T(0))) return facts::refused(1, "must be nonzero");
    return facts::accepted();
  }
};

template <class S>
struct SuslovParams {
  Mat3<S> inertia = (Mat3<S>() << 1, 0, 0, 0, 1, 1, 0, 1, 2).finished();  // 𝕀 (SuslovFacts)
  Vec3<S> constraint = Vec3<S>(0, -1, 1);                                 // e = 𝕀⁻¹a/√(a·𝕀⁻¹a), a = e3

  // 𝕀 finite, symmetric positive definite; e finite and nonzero.
  Error validate() const {
    if (!all_finite(inertia) || !all_finite(constraint)) return Error::non_finite;
    if (!is_symmetric_positive_definite<S, 3>(inertia)) return Error::invalid_parameter;
    if (!(constraint.squaredNorm() > S(0))) return Error::invalid_parameter;
    return Error::none;
  }
};

// The model of lie_group_model.hpp.
template <class S>
struct SuslovModel {
  using Scalar = S;
  static constexpr int D = 3, K = 1, G = 9, rotation_size = 3;
  Mat3<S> I = Mat3<S>::Identity(), Iinv = Mat3<S>::Identity();
  Vec3<S> e = Vec3<S>::UnitX();

  Mat3<S> locked_inertia() const { return I; }
  Mat3<S> inverse_locked_inertia() const { return Iinv; }
  Vec3<S> ad_star(const Vec3<S>& xi, const Vec3<S>& mu) const { return mu.cross(xi); }
  Mat<S, 3, 1> constraint_vectors() const { return e; }
  // Ṙ = R ξ^ (eq. (33a)), column-major.
  Vec<S, 9> group_velocity(const Vec<S, 9>& g, const Vec3<S>& xi) const { return rotate(g, hat(xi)); }
  // Ṙ = R (ξ^ − W): the feedback field's R ξ^ − k R (RᵀR − I) (paper 000 eq. (37)) as one product.
  Vec<S, 9> group_velocity(const Vec<S, 9>& g, const Vec3<S>& xi, const Mat3<S>& W) const {
    return rotate(g, hat(xi) - W);
  }

 private:
  static Mat3<S> hat(const Vec3<S>& xi) {
    Mat3<S> h;
    h << S(0), -xi[2], xi[1], xi[2], S(0), -xi[0], -xi[1], xi[0], S(0);
    return h;
  }
  static Vec<S, 9> rotate(const Vec<S, 9>& g, const Mat3<S>& A) {
    const Mat3<S> Rd = Eigen::Map<const Mat3<S>>(g.data()) * A;
    return Eigen::Map<const Vec<S, 9>>(Rd.data());
  }
};

template <class S, EnergyRow Row = EnergyRow::extended>
struct Suslov : LieGroupExtension<SuslovModel<S>, Row> {
  using Base = LieGroupExtension<SuslovModel<S>, Row>;
  using Params = SuslovParams<S>;
  using typename Base::State;

  Suslov() = default;
  explicit Suslov(const SuslovModel<S>& m) : Base(m) {}

  static Result<Suslov> make(const Params& prm = Params{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    SuslovModel<S> m;
    m.I = prm.inertia;
    m.Iinv = small_inverse<S, 3>(prm.inertia);
    m.e = prm.constraint / std::sqrt(prm.constraint.dot(prm.inertia * prm.constraint));  // eq. (30)
    return Suslov(m);
  }

  // x = (R, Π).
  static State state(const Mat3<S>& R, const Vec3<S>& Pi) {
    State x;
    x.template head<9>() = Eigen::Map<const Vec<S, 9>>(R.data());
    x.template tail<3>() = Pi;
    return x;
  }
};

}  // namespace attractor
