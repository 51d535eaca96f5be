// SPDX-License-Identifier: Apache-2.0
// A knife edge (a blade that cannot slide sideways) on a plane inclined by α (paper 000 §3.2;
// Bloch, Nonholonomic Mechanics, §1.6), as the cotangent-bundle extension of
// nonholonomic/cotangent_extension.hpp:
//
//   H = (px² + py²)/(2m) + pφ²/(2J) − m g x sin α,  constraint px sin φ − py cos φ = 0,
//   e = (sin φ, −cos φ, 0)/√m  (unit in the metric m = diag(m, m, J)),
//   H̃ = (px cos φ + py sin φ)²/(2m) + pφ²/(2J) − m g x sin α   (paper §3.2, eq. before (44)).
//
// State layout x = (x, y, φ, px, py, pφ), N = 6. Invariants (M = 3):
//   row 0  J1 = (px sin φ − py cos φ)/√m     constraint, target 0
//   row 1  H̃ (default) or H                  energy (the paper's V uses H̃; Remark 3.7 uses H)
//   row 2  J2 = pφ                           momentum
// The paper's gains (k1, k2, k3) of its V map to K = (k1, k3, k2).
// Paper correction: §3.2 calls J2 = pφ a first integral of the extended system (44); it is one
// only on the constraint set. Off it ṗφ = −∂H̃/∂φ = u J1/√m with u = px cos φ + py sin φ (J1 and
// H̃ are first integrals everywhere). The feedback is unaffected: J1 is pulled to 0.
//
// exact_state() is the closed-form solution (φ = φ0 + ωt, ω = pφ/J; the speed along the blade
// v obeys v̇ = g sin α cos φ). Paper misprint: §3.2 states x(t) = 1 − cos t and φ(t) = t for
// m = J = g = 1, α = π/6, pφ(0) = 0.5; the equations give φ = t/2 and x = (1 − cos t)/2 (y is as
// printed). Checked against an accurate integration in host-tests/unit/nonholonomic.
#pragma once

#include <cmath>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/inline.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/cotangent_extension.hpp"

namespace attractor {

// The knife edge's facts (core/facts.hpp): parameters, states, invariants, the paper's experiment.
struct KnifeEdgeFacts {
  static constexpr facts::Param params[] = {
      {"m", "kg", 1, facts::positive(), "mass"},
      {"J", "kg m^2", 1, facts::positive(), "moment of inertia about the vertical"},
      {"g", "m/s^2", 1, facts::non_negative(), "gravity"},
      {"alpha", "rad", 0.52359877559829876, facts::any_finite(), "inclination"}};
  static constexpr const char* states[] = {"x", "y", "phi", "px", "py", "pphi"};
  static constexpr facts::Invariant invariants[] = {
      {"J1", facts::InvariantKind::constraint, "(px sin phi - py cos phi)/sqrt(m): no sideways slip"},
      {"H", facts::InvariantKind::energy, "the extended energy H~"},
      {"J2", facts::InvariantKind::momentum, "p_phi, the spin about the vertical"}};
  static constexpr double x0[] = {0, 0, 0, 0, 0, 0.5};
  // Paper 000 §3.2: feedback Euler, h = 1e-3, k1 = k2 = k3 = 1000, t in [0, 200]. The step
  // check's bound refuses these gains (h * stiffness up to 4.5, Euler's limit 2); the paper's run
  // stays bounded.
  static constexpr facts::Case documented = {"paper", "paper 000 §3.2", x0,      1e-3, 200, "feedback-euler",
                                             1000,    nullptr,          nullptr, true};
};

template <class S>
struct KnifeEdgeParams {
  S mass = S(facts::default_of<KnifeEdgeFacts>(0));         // m
  S inertia = S(facts::default_of<KnifeEdgeFacts>(1));      // J, about the vertical axis through the contact point
  S gravity = S(facts::default_of<KnifeEdgeFacts>(2));      // g
  S inclination = S(facts::default_of<KnifeEdgeFacts>(3));  // α = π/6

  Error validate() const {
    const S v[] = {mass, inertia, gravity, inclination};
    return facts::error_of(facts::check<KnifeEdgeFacts>(v));
  }
};

// The model of cotangent_model.hpp; q = (x, y, φ).
template <class S>
struct KnifeEdgeModel {
  using Scalar = S;
  static constexpr int Q = 3, K = 1, extra_integrals = 1;
  static constexpr bool constant_mass = true;  // midpoint_lagrangian.hpp: explicit discrete steps
  KnifeEdgeParams<S> prm{};

  Mat3<S> mass(const Vec3<S>&) const { return Vec3<S>(prm.mass, prm.mass, prm.inertia).asDiagonal(); }
  Mat3<S> inverse_mass(const Vec3<S>&) const {
    return Vec3<S>(S(1) / prm.mass, S(1) / prm.mass, S(1) / prm.inertia).asDiagonal();
  }
  Vec3<S> kinetic_gradient(const Vec3<S>&, const Vec3<S>&) const { return Vec3<S>::Zero(); }  // m constant
  S potential(const Vec3<S>& q) const { return -prm.mass * prm.gravity * std::sin(prm.inclination) * q[0]; }
  Vec3<S> potential_gradient(const Vec3<S>&) const {
    return Vec3<S>(-prm.mass * prm.gravity * std::sin(prm.inclination), S(0), S(0));
  }
  Mat<S, 3, 1> constraint_fields(const Vec3<S>& q) const {
    return Vec3<S>(std::sin(q[2]), -std::cos(q[2]), S(0)) / std::sqrt(prm.mass);
  }
  Mat3<S> constraint_derivative(const Vec3<S>& q, int) const {
    Mat3<S> De = Mat3<S>::Zero();
    De(0, 2) = std::cos(q[2]) / std::sqrt(prm.mass);
    De(1, 2) = std::sin(q[2]) / std::sqrt(prm.mass);
    return De;
  }
  Vec<S, 1> first_integrals(const Vec3<S>&, const Vec3<S>& p) const { return Vec<S, 1>(p[2]); }  // J2 = pφ
  Mat<S, 1, 6> first_integrals_jacobian(const Vec3<S>&, const Vec3<S>&) const {
    Mat<S, 1, 6> J = Mat<S, 1, 6>::Zero();
    J(0, 5) = S(1);
    return J;
  }

  // Fused grad V = DFᵀ K (F − F0) with the energy row H̃, written out (paper 000 §3.2, the V of
  // (45) and its gradient (46), (47)); the adapter uses it for its feedback_gradient and
  // feedback_field (model_feedback_gradient.hpp). With u = px cos φ + py sin φ and
  // J1 = (px sin φ − py cos φ)/√m:
  //   ∇J1 = (0, 0, u, sin φ, −cos φ, 0)/√m,  ∇J2 = e_pφ,
  //   ∇H̃ = (−m g sin α, 0, −u J1/√m, u cos φ/m, u sin φ/m, pφ/J).
  // The adapter's generic terms carry the 3×3 De and m with their zeros; here only the nonzeros.
  ATTRACTOR_ALWAYS_INLINE Vec<S, 6> feedback_gradient(const Vec<S, 6>& x, const Vec3<S>& F0, const Vec3<S>& K) const {
    const S sn = std::sin(x[2]), cs = std::cos(x[2]), im = S(1) / prm.mass, ism = S(1) / std::sqrt(prm.mass);
    const S u = x[3] * cs + x[4] * sn, J1 = (x[3] * sn - x[4] * cs) * ism;
    const S mgs = prm.mass * prm.gravity * std::sin(prm.inclination);
    const S Ht = S(0.5) * (u * u * im + x[5] * x[5] / prm.inertia) - mgs * x[0];
    const S w1 = K[0] * (J1 - F0[0]), wh = K[1] * (Ht - F0[1]), w2 = K[2] * (x[5] - F0[2]);
    const S a = w1 * ism, b = wh * u * im;  // ∂φ: w1 u/√m − wh u J1/√m
    Vec<S, 6> g;
    g << -wh * mgs, S(0), (w1 - wh * J1) * ism * u, a * sn + b * cs, b * sn - a * cs, wh * x[5] / prm.inertia + w2;
    return g;
  }
};

template <class S, EnergyRow Row = EnergyRow::extended>
struct KnifeEdge : CotangentExtension<KnifeEdgeModel<S>, Row> {
  using Base = CotangentExtension<KnifeEdgeModel<S>, Row>;
  using Params = KnifeEdgeParams<S>;
  using typename Base::State;

  KnifeEdge() = default;
  explicit KnifeEdge(const KnifeEdgeModel<S>& m) : Base(m) {}

  static Result<KnifeEdge> make(const Params& prm = Params{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    KnifeEdgeModel<S> m;
    m.prm = prm;
    return KnifeEdge(m);
  }

  // The exact solution from an on-constraint x0 at time t (requires pφ ≠ 0: the blade turns).
  // With A = g sin α / ω and v0 the initial speed along the blade:
  //   v = v0 + A (sin φ − sin φ0),
  //   x = x0 + [(v0 − A sin φ0)(sin φ − sin φ0) + (A/2)(sin² φ − sin² φ0)] / ω,
  //   y = y0 + [(v0 − A sin φ0)(cos φ0 − cos φ) + A((φ − φ0)/2 − (sin 2φ − sin 2φ0)/4)] / ω.
  State exact_state(const State& x0, S t) const {
    const Params& P = this->model().prm;
    const S phi0 = x0[2], w = x0[5] / P.inertia, phi = phi0 + w * t;
    const S A = P.gravity * std::sin(P.inclination) / w;
    const S v0 = (x0[3] * std::cos(phi0) + x0[4] * std::sin(phi0)) / P.mass;
    const S B = v0 - A * std::sin(phi0), s0 = std::sin(phi0), s = std::sin(phi);
    const S v = B + A * s;
    State x;
    x[0] = x0[0] + (B * (s - s0) + S(0.5) * A * (s * s - s0 * s0)) / w;
    x[1] = x0[1] + (B * (std::cos(phi0) - std::cos(phi)) +
                    A * (S(0.5) * (phi - phi0) - S(0.25) * (std::sin(S(2) * phi) - std::sin(S(2) * phi0)))) /
                       w;
    x[2] = phi;
    x[3] = P.mass * v * std::cos(phi);
    x[4] = P.mass * v * std::sin(phi);
    x[5] = x0[5];
    return x;
  }
};

}  // namespace attractor
