// SPDX-License-Identifier: Apache-2.0
// The 3D Chaplygin sleigh with an oscillating mass (paper 004, "The 3D Chaplygin Sleigh with an
// Oscillating Mass", Lagrangian (0.28)): a free rigid body (mass M, principal moments I1, I2, I3)
// whose body velocity has no third component, Ω⁶ = 0, carrying a point mass m that slides on
// its third body axis at displacement r, held by a spring U(r) = ½ k r² (the slides leave U
// open; its choice does not affect the measure).
//
// Body velocity ξ = (Ω¹, Ω², Ω³ | Ω⁴, Ω⁵, Ω⁶) ∈ se(3) (angular | linear). (0.28):
//   L = ½ Σ I_i (Ω^i)² + ½M |V|² + ½m [(Ω⁴ + Ω²r)² + (Ω⁵ − Ω¹r)² + (Ω⁶ + ṙ)²] − U(r).
// The momenta p_a = ∂L/∂Ω^a (a = 1..5) on Ω⁶ = 0 are linear in Ω with r-dependent blocks:
//   p1 = (I1 + mr²)Ω¹ − mrΩ⁵,  p5 = (M + m)Ω⁵ − mrΩ¹,
//   p2 = (I2 + mr²)Ω² + mrΩ⁴,  p4 = (M + m)Ω⁴ + mrΩ²,   p3 = I3Ω³,
// each 2×2 block with determinant I_i(M + m) + Mmr² > 0, inverted in closed form.
//
// Reduced equations in x = (r, ṙ, p1, …, p5) ∈ R⁷ (the slides' list; the multiplier of Ω⁶ = 0
// only enters ṗ6, which is not a state):
//   m r̈ = −∂U_a/∂r,  U_a(r; p) = ½ Σ p_a Ω^a(r, p) + U(r)   (amended potential, p held),
//       = m [(Ω⁴ + rΩ²)Ω² − (Ω⁵ − rΩ¹)Ω¹] − k r;
//   ṗ1 = −Ω²p3 + Ω³p2 − mΩ⁵ṙ,   ṗ2 = −Ω³p1 + Ω¹p3 + mΩ⁴ṙ,
//   ṗ3 = −Ω¹p2 + Ω²p1 − Ω⁴p5 + Ω⁵p4,   ṗ4 = Ω³p5 − mΩ²ṙ,   ṗ5 = −Ω³p4 + mΩ¹ṙ.
// The ṗ equations are the slides' as printed (they are the se(3) Euler–Poincaré equations
// Π̇ = Π×Ω + P×V, Ṗ = P×Ω with P3 = mṙ on the constraint). The slides write r̈ = −∂U_a/∂r: the
// shape metric of (0.28) is m ṙ²/2, so it is m r̈ (the slides' form holds for m = 1 only);
// followed here. Both are checked against a Lagrange–d'Alembert computation with the
// multiplier of Ω⁶ = 0 (host-tests/unit/lie_flows/sleigh_oscillating_mass_test.cpp), and the
// energy below is a first integral only with the centrifugal terms of r̈.
//
// Invariant (M = 1): row 0 E = ½ Σ p_a Ω^a + ½ m ṙ² + U(r), energy. Measure: div X = 0 in
// (r, ṙ, p) — ṙ' does not depend on r, r̈ not on ṙ, and the ṗ_a's own-momentum derivatives
// cancel in pairs by the symmetry of the blocks' inverses — the volume preservation the slides
// derive from Theorem 0.7; log_density is 0 (checked numerically, integrate/measure.hpp).
#pragma once

#include <cmath>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

// The sleigh's facts (core/facts.hpp). The slides give no numbers; the documented case:
// I = (1, 1.5, 2), M = 1, m = 0.5, k = 4, (r, ṙ) = (0.3, 0), p = (0.5, 0.3, 0.8, 1, 0.2), T = 20.
// k = 0 (no spring: the mass slides freely along the axis) is a valid sleigh.
struct SleighOscillatingMassFacts {
  static constexpr facts::Param params[] = {{"I1", "kg m^2", 1, facts::positive(), "body principal moment"},
                                            {"I2", "kg m^2", 1.5, facts::positive(), "body principal moment"},
                                            {"I3", "kg m^2", 2, facts::positive(), "body principal moment"},
                                            {"M", "kg", 1, facts::positive(), "body mass"},
                                            {"m", "kg", 0.5, facts::positive(), "oscillating mass"},
                                            {"k", "N/m", 4, facts::non_negative(), "spring stiffness, U = k r^2/2"}};
  static constexpr int principal_moments[] = {0, 1, 2};  // I1, I2, I3: warned on the triangle inequality
  static constexpr const char* states[] = {"r", "rdot", "p1", "p2", "p3", "p4", "p5"};
  static constexpr facts::Invariant invariants[] = {{"E", facts::InvariantKind::energy, "the energy"}};
  static constexpr double x0[] = {0.3, 0, 0.5, 0.3, 0.8, 1, 0.2};
  static constexpr facts::Case documented = {
      "documented", "paper 004 (0.28) (the slides give no numbers)", x0, 1e-3, 20, "feedback-rk4", 10};
};

template <class S>
struct SleighOscillatingMassParams {
  S I1 = S(facts::default_of<SleighOscillatingMassFacts>(0)), I2 = S(facts::default_of<SleighOscillatingMassFacts>(1)),
    I3 = S(facts::default_of<SleighOscillatingMassFacts>(2));  // principal moments of the body [kg m²]
  S M = S(facts::default_of<SleighOscillatingMassFacts>(3));   // body mass [kg]
  S m = S(facts::default_of<SleighOscillatingMassFacts>(4));   // oscillating mass [kg]
  S k = S(facts::default_of<SleighOscillatingMassFacts>(5));   // spring stiffness, U = ½ k r² [N/m]

  // non_finite for NaN/Inf; invalid_parameter outside the facts' ranges (I_i, M, m > 0, k >= 0).
  Error validate() const {
    const S v[6] = {I1, I2, I3, M, m, k};
    return facts::error_of(facts::check<SleighOscillatingMassFacts>(v));
  }
};

template <class S>
struct SleighOscillatingMass {
  using Scalar = S;
  static constexpr int N = 7;  // (r, ṙ, p1..p5)
  static constexpr int M = 1;  // E
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  using Rates = Vec<S, 5>;  // (Ω¹, Ω², Ω³, Ω⁴, Ω⁵)

  SleighOscillatingMassParams<S> p{};

  static Result<SleighOscillatingMass> make(
      const SleighOscillatingMassParams<S>& prm = SleighOscillatingMassParams<S>{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    SleighOscillatingMass s;
    s.p = prm;
    return s;
  }

  // Ω^a from (r, p): the two 2×2 blocks of the header comment, inverted, and Ω³ = p3/I3.
  Rates rates(const State& x) const {
    const S r = x[0], Mt = p.M + p.m, mr = p.m * r;
    const S a1 = p.I1 + mr * r, a2 = p.I2 + mr * r;
    const S det1 = a1 * Mt - mr * mr, det2 = a2 * Mt - mr * mr;
    Rates w;
    w[0] = (Mt * x[2] + mr * x[6]) / det1;  // [[a1, −mr], [−mr, Mt]]⁻¹ (p1, p5)
    w[4] = (mr * x[2] + a1 * x[6]) / det1;
    w[1] = (Mt * x[3] - mr * x[5]) / det2;  // [[a2, mr], [mr, Mt]]⁻¹ (p2, p4)
    w[3] = (-mr * x[3] + a2 * x[5]) / det2;
    w[2] = x[4] / p.I3;
    return w;
  }

  State field(const State& x) const {
    const Rates w = rates(x);
    const S r = x[0], rd = x[1], m = p.m;
    const S p1 = x[2], p2 = x[3], p3 = x[4], p4 = x[5], p5 = x[6];
    State dx;
    dx[0] = rd;
    dx[1] = (w[3] + r * w[1]) * w[1] - (w[4] - r * w[0]) * w[0] - p.k * r / m;
    dx[2] = -w[1] * p3 + w[2] * p2 - m * w[4] * rd;
    dx[3] = -w[2] * p1 + w[0] * p3 + m * w[3] * rd;
    dx[4] = -w[0] * p2 + w[1] * p1 - w[3] * p5 + w[4] * p4;
    dx[5] = w[2] * p5 - m * w[1] * rd;
    dx[6] = -w[2] * p4 + m * w[0] * rd;
    return dx;
  }

  S energy(const State& x) const {
    const Rates w = rates(x);
    return S(0.5) * w.dot(x.template tail<5>()) + S(0.5) * p.m * x[1] * x[1] + S(0.5) * p.k * x[0] * x[0];
  }
  Invariants invariants(const State& x) const { return Invariants(energy(x)); }

  // ∂E/∂p_a = Ω^a; ∂E/∂ṙ = mṙ; ∂E/∂r = −m[(Ω⁴ + rΩ²)Ω² − (Ω⁵ − rΩ¹)Ω¹] + k r = −m r̈.
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    const Rates w = rates(x);
    const S r = x[0];
    Mat<S, M, N> J;
    J(0, 0) = -p.m * ((w[3] + r * w[1]) * w[1] - (w[4] - r * w[0]) * w[0]) + p.k * r;
    J(0, 1) = p.m * x[1];
    J.template block<1, 5>(0, 2) = w.transpose();
    return J;
  }

  // The volume dr dṙ d⁵p is invariant: log ρ = 0.
  S log_density(const State&) const { return S(0); }
};

}  // namespace attractor
