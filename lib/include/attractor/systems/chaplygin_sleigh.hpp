// SPDX-License-Identifier: Apache-2.0
// The Chaplygin sleigh: a rigid body on the plane resting on a knife edge that cannot slide
// sideways, its centre of mass a distance a ahead of the edge along the blade (paper 000 §3.3,
// eqs. (48)–(55); Bloch, Nonholonomic Mechanics, §1.7), as the Lie-group extension of
// nonholonomic/lie_group_extension.hpp on SE(2), reduced (Π only) or with the group embedded
// (R ∈ R^{2×2} and the position):
//
//   𝕀 = [[I + ma², 0, ma], [0, m, 0], [ma, 0, m]],  h = (Πθ − aΠy)²/(2I) + (Πx² + Πy²)/(2m)
//   e = (ma, 0, −(I + ma²))/√(mI(I + ma²))           (unit in 𝕀; constraint maΠθ = (I + ma²)Πy)
//   h̃ = Πθ²/(2(I + ma²)) + Πx²/(2m)                   (eq. (50))
//   ad*_ξ μ = (−μy ξx + μx ξy, μy ξθ, −μx ξθ)         (eq. (52b), minus Lie–Poisson bracket (48))
//   reduced field (53b): Π̇ = (−ΠxΠy/m, ΠθΠy/(I + ma²), −aΠxΠy/(I + ma²))
//   group (53a): θ̇ = Πθ/(I + ma²), (ẋ, ẏ) = R (Πx/m, 0); here Ṙ = R ω^, ω = θ̇, (ẋ, ẏ) = R (ξ̃x, ξ̃y).
//
// State layout: reduced x = (Πθ, Πx, Πy), N = 3; embedded x = (R column-major (4), x, y, Πθ, Πx,
// Πy), N = 9 with R = [[cos θ, −sin θ], [sin θ, cos θ]]. Invariants: row 0 J = ⟨Π, e⟩ constraint
// (target 0), row 1 h̃ (default) or h energy (§3.3's V uses h̃), embedded rows 2..4 RᵀR − I (one
// gain group, target 0). Paper gains (k1 on J, k2 on h̃) map to K = (k1, k2[, k0 × 3]).
// The group rows give §3.1's (k0/4)‖RᵀR − I‖² with R-gradient +k0 R(RᵀR − I) (eqs. (36), (37));
// the gradient printed below (58), −k0 R(RᵀR − I), has the wrong sign.
//
// (53b) holds off the constraint set too: it is the extension (52b) itself, not only its
// restriction (asserted in host-tests/unit/nonholonomic).
#pragma once

#include <cmath>
#include <type_traits>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/lie_group_extension.hpp"
#include "attractor/nonholonomic/se2.hpp"

namespace attractor {

// The sleigh's facts (core/facts.hpp). §3.3 gives no experiment; the documented case (the host
// tests'): m = I = 1, a = 0.5, at the rest pose, Π0 = (1, 1, Πy on the constraint) = (1, 1, 0.4),
// h = 1e-3, all gains 50, t in [0, 20]. With m, I > 0, I + m a² > 0 holds for every a.
struct ChaplyginSleighParamFacts {
  static constexpr facts::Param params[] = {
      {"m", "kg", 1, facts::positive(), "mass"},
      {"I", "kg m^2", 1, facts::positive(), "moment of inertia about the centre of mass"},
      {"a", "m", 0.5, facts::any_finite(), "centre of mass ahead of the blade's contact point"}};
};
// With the pose (R, x, y) embedded.
struct ChaplyginSleighFacts : ChaplyginSleighParamFacts {
  static constexpr const char* states[] = {"R11", "R21", "R12", "R22", "x", "y", "Pi_theta", "Pi_x", "Pi_y"};
  static constexpr facts::Invariant invariants[] = {{"J", facts::InvariantKind::constraint, "the blade constraint"},
                                                    {"h", facts::InvariantKind::energy, "the extended energy h~"},
                                                    {"O11", facts::InvariantKind::group, "(R^T R - I)_11"},
                                                    {"O12", facts::InvariantKind::group, "(R^T R - I)_12"},
                                                    {"O22", facts::InvariantKind::group, "(R^T R - I)_22"}};
  static constexpr double x0[] = {1, 0, 0, 1, 0, 0, 1, 1, 0.4};
  static constexpr facts::Case documented = {
      "documented", "paper 000 §3.3 (no experiment: the host tests')", x0, 1e-3, 20, "feedback-euler", 50};
};
// Reduced to the body momentum Π.
struct ChaplyginSleighReducedFacts : ChaplyginSleighParamFacts {
  static constexpr const char* states[] = {"Pi_theta", "Pi_x", "Pi_y"};
  static constexpr facts::Invariant invariants[] = {{"J", facts::InvariantKind::constraint, "the blade constraint"},
                                                    {"h", facts::InvariantKind::energy, "the extended energy h~"}};
  static constexpr double x0[] = {1, 1, 0.4};
  static constexpr facts::Case documented = {
      "documented", "paper 000 §3.3 (no experiment: the host tests')", x0, 1e-3, 20, "feedback-euler", 50};
};

template <class S>
struct ChaplyginSleighParams {
  S mass = S(facts::default_of<ChaplyginSleighParamFacts>(0));     // m
  S inertia = S(facts::default_of<ChaplyginSleighParamFacts>(1));  // I, about the centre of mass
  S offset = S(facts::default_of<ChaplyginSleighParamFacts>(2));   // a, contact point to centre of mass along the blade

  Error validate() const {
    const S v[] = {mass, inertia, offset};
    return facts::error_of(facts::check<ChaplyginSleighParamFacts>(v));
  }
};

// The model of lie_group_model.hpp; Embedded stores (R, x, y) before Π.
template <class S, bool Embedded>
struct ChaplyginSleighModel {
  using Scalar = S;
  static constexpr int D = 3, K = 1, G = Embedded ? 6 : 0, rotation_size = Embedded ? 2 : 0;
  ChaplyginSleighParams<S> prm{};

  Mat3<S> locked_inertia() const {
    const S m = prm.mass, a = prm.offset;
    Mat3<S> I;
    I << prm.inertia + m * a * a, S(0), m * a, S(0), m, S(0), m * a, S(0), m;
    return I;
  }
  Mat3<S> inverse_locked_inertia() const {
    const S m = prm.mass, a = prm.offset, I = prm.inertia;
    Mat3<S> R;
    R << S(1) / I, S(0), -a / I, S(0), S(1) / m, S(0), -a / I, S(0), a * a / I + S(1) / m;
    return R;
  }
  Vec3<S> ad_star(const Vec3<S>& xi, const Vec3<S>& mu) const { return se2_ad_star(xi, mu); }
  Mat<S, 3, 1> constraint_vectors() const {
    const S m = prm.mass, a = prm.offset, Ia = prm.inertia + m * a * a;
    return Vec3<S>(m * a, S(0), -Ia) / std::sqrt(m * prm.inertia * Ia);
  }
  Vec<S, G> group_velocity(const Vec<S, G>& g, const Vec3<S>& xi) const {
    static_assert(Embedded, "the reduced sleigh has no group part");
    Vec<S, G> d;
    se2_group_velocity(g, xi, d);
    return d;
  }
  Vec<S, G> group_velocity(const Vec<S, G>& g, const Vec3<S>& xi, const Mat<S, 2, 2>& W) const {
    static_assert(Embedded, "the reduced sleigh has no group part");
    Vec<S, G> d;
    se2_group_velocity(g, xi, W, d);
    return d;
  }

  // ∇_Π V with the energy row h̃, written out (lie_group_model.hpp): paper 000 eq. (55),
  //   ∇_Π V = k1 (J − J0) e + k2 (h̃ − h̃0) ξ̃,  ξ̃ = ∂h̃/∂Π = (Πθ/(I + ma²), Πx/m, 0),
  //   h̃ = ½ (Πθ ξ̃θ + Πx ξ̃x)  (eq. (50)),
  // with the adapter's c = J, ξ̃ and e (its middle entry is 0). The adapter's dense E w + w_h ξ̃
  // also multiplies e's zero and ξ̃y (0 but for rounding: 𝕀⁻¹Π − e(e·Π) cancels in it).
  // The reduced sleigh's only: beside the R rows (embedded) GCC compiles the adapter's dense form to
  // fewer M4F instructions than this one (apps/bench, chaplygin_sleigh).
  template <class Inv, bool reduced = !Embedded, std::enable_if_t<reduced, int> = 0>
  void add_momentum_feedback_gradient(const Vec3<S>& mu, const Vec3<S>& xi, const Vec<S, 1>& c, const Mat<S, 3, 1>& e,
                                      const Inv& F0, const Inv& K, S sign, Vec3<S>& out) const {
    const S w1 = sign * K[0] * (c[0] - F0[0]);
    const S wh = sign * K[1] * (S(0.5) * (mu[0] * xi[0] + mu[1] * xi[1]) - F0[1]);
    out[0] += w1 * e(0, 0) + wh * xi[0];
    out[1] += wh * xi[1];
    out[2] += w1 * e(2, 0);
  }
};

template <class S, bool Embedded = true, EnergyRow Row = EnergyRow::extended>
struct ChaplyginSleigh : LieGroupExtension<ChaplyginSleighModel<S, Embedded>, Row> {
  using Base = LieGroupExtension<ChaplyginSleighModel<S, Embedded>, Row>;
  using Params = ChaplyginSleighParams<S>;
  using typename Base::State;

  ChaplyginSleigh() = default;
  explicit ChaplyginSleigh(const ChaplyginSleighModel<S, Embedded>& m) : Base(m) {}

  static Result<ChaplyginSleigh> make(const Params& prm = Params{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    ChaplyginSleighModel<S, Embedded> m;
    m.prm = prm;
    return ChaplyginSleigh(m);
  }

  // The state at heading θ, position (x, y) (ignored when reduced) and momentum Π.
  static State state(S theta, S x, S y, const Vec3<S>& Pi) {
    State s;
    if constexpr (Embedded) {
      se2_element(theta, x, y, s);
      s.template tail<3>() = Pi;
    } else {
      (void)theta, (void)x, (void)y;  // the reduced sleigh has no pose
      s = Pi;
    }
    return s;
  }
};

}  // namespace attractor
