// SPDX-License-Identifier: Apache-2.0
// The falling rolling disk (paper 004, "The Falling Rolling Disk" and its momentum equations in
// "Examples"): a disk of mass m, radius R, moments of inertia A (about a diameter) and B (about
// its axis) rolling without sliding on a horizontal plane. Coordinates (x, y) the contact point,
// φ the heading, ψ the spin angle, r the tilt from the vertical (r = 0 upright). On the
// constraints ẋ = −Rψ̇ cos φ, ẏ = −Rψ̇ sin φ the slides' Lagrangian has ξ = η = 0 and reduces to
//
//   L_c = ½(mR² + A) ṙ² + ½ A cos²r φ̇² + ½(mR² + B)(φ̇ sin r + ψ̇)² − mgR cos r.
//
// With the nonholonomic momenta p1 = ∂L_c/∂φ̇ = A cos²r φ̇ + (mR² + B) ω sin r and
// p2 = ∂L_c/∂ψ̇ = (mR² + B) ω (ω = φ̇ sin r + ψ̇, the spin about the axis):
//
//   φ̇ = (p1 − p2 sin r)/(A cos²r),  ψ̇ = p2/(mR² + B) − φ̇ sin r
//   ṗ1 = mR²(−sin r/(A cos r) p1 + (cos r/(mR² + B) + sin²r/(A cos r)) p2) ṙ     (as printed)
//   ṗ2 = mR²(−p1/(A cos r) + sin r/(A cos r) p2) ṙ                              (as printed)
//   (mR² + A) r̈ = −A cos r sin r φ̇² + p2 φ̇ cos r + mgR sin r                   (shape equation)
//
// The momentum equations are the φ and ψ rows of the constrained Lagrange–d'Alembert equations
// (the slides' form with B^b_αβ): ṗ1 = mR² ṙ ψ̇ cos r, ṗ2 = −mR² ṙ φ̇ cos r, which, written in
// (p1, p2), are the printed ones — no misprint. The shape equation is r̈ = −∂E/∂r / (mR² + A) at
// fixed p, and the energy E = ½(mR² + A)ṙ² + ½(p1 − p2 sin r)²/(A cos²r) + ½p2²/(mR² + B) +
// mgR cos r is conserved (dE/dt = mR² ṙ cos r (φ̇ψ̇ − ψ̇φ̇) = 0).
//
// Reduced volume: the trace terms ∂ṗ1/∂p1 + ∂ṗ2/∂p2 = mR²ṙ(−sin r + sin r)/(A cos r) cancel, ṙ
// does not depend on r and r̈ not on ṙ, so the field has divergence 0 in (r, ṙ, p1, p2): the
// invariant density is the shape metric g = mR² + A, a constant (the slides' conclusion). The
// measure check (integrate/measure.hpp) takes div X by differences, with log_density = log g.
//
// State x = (x, y, φ, ψ, r, ṙ, p1, p2, vx, vy), N = 10: the contact point's velocity (vx, vy) is
// stored so that the constraints are monitored rows; its field v̇ = d/dt(−Rψ̇ (cos φ, sin φ)) makes
// them first integrals everywhere. Invariants (M = 3): c1 = vx + Rψ̇ cos φ, c2 = vy + Rψ̇ sin φ
// (constraints, target 0), E (energy). Valid while |r| < π/2 (the disk not flat).
#pragma once

#include <cmath>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

// The falling disk's facts (core/facts.hpp). The slides give no numbers; the documented case: a
// uniform disk m = R = 1, A = 1/4, B = 1/2, g = 1, tilted r0 = 0.3 at rest in r, turning φ̇ = 1 and
// spinning ψ̇ = 3 (p1, p2 from those rates, v on the constraints), gains 1, t in [0, 20]. The tilt
// must stay below π/2 in magnitude (the disk not flat): `tilt` is that range, `tilt_rule` its text.
struct FallingDiskFacts {
  static constexpr facts::Param params[] = {
      {"m", "kg", 1, facts::positive(), "mass"},
      {"R", "m", 1, facts::positive(), "radius"},
      {"A", "kg m^2", 0.25, facts::positive(), "moment of inertia about a diameter"},
      {"B", "kg m^2", 0.5, facts::positive(), "moment of inertia about the axis"},
      {"g", "m/s^2", 1, facts::non_negative(), "gravity"}};
  static constexpr const char* states[] = {"x", "y", "phi", "psi", "r", "rdot", "p1", "p2", "vx", "vy"};
  static constexpr facts::Invariant invariants[] = {
      {"c1", facts::InvariantKind::constraint, "vx + R psi' cos phi, target 0"},
      {"c2", facts::InvariantKind::constraint, "vy + R psi' sin phi, target 0"},
      {"E", facts::InvariantKind::energy, "the energy"}};
  static constexpr facts::Range tilt = facts::between(-1.5707963267948966, 1.5707963267948966, true);
  static constexpr const char* tilt_rule = "|r| < pi/2";
  static constexpr double x0[] = {0, 0, 0, 0, 0.3, 0, 1.6890061706574788, 4.943280309992009, -2.9999999999999996, -0.0};
  static constexpr facts::Case documented = {
      "documented", "paper 004 (the slides give no numbers)", x0, 1e-3, 20, "feedback-rk4", 1};
};

template <class S>
struct FallingDiskParams {
  S mass = S(facts::default_of<FallingDiskFacts>(0));     // m
  S radius = S(facts::default_of<FallingDiskFacts>(1));   // R
  S A = S(facts::default_of<FallingDiskFacts>(2));        // moment of inertia about a diameter (uniform disk: mR²/4)
  S B = S(facts::default_of<FallingDiskFacts>(3));        // about the symmetry axis (uniform disk: mR²/2)
  S gravity = S(facts::default_of<FallingDiskFacts>(4));  // g

  Error validate() const {
    const S v[] = {mass, radius, A, B, gravity};
    return facts::error_of(facts::check<FallingDiskFacts>(v));
  }
};

template <class S>
struct FallingDisk {
  using Scalar = S;
  static constexpr int N = 10, M = 3;
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  enum Index { X = 0, Y, PHI, PSI, TILT, TILT_RATE, P1, P2, VX, VY };

  FallingDiskParams<S> prm{};
  S mR2 = S(1), Ib = S(1.5), Ir = S(1.25);  // mR², mR² + B, mR² + A (the shape metric g)

  static Result<FallingDisk> make(const FallingDiskParams<S>& p = FallingDiskParams<S>{}) {
    const Error err = p.validate();
    if (err != Error::none) return err;
    FallingDisk d;
    d.prm = p;
    d.mR2 = p.mass * p.radius * p.radius;
    d.Ib = d.mR2 + p.B, d.Ir = d.mR2 + p.A;
    if (!is_finite(d.Ib) || !is_finite(d.Ir)) return Error::invalid_parameter;
    return d;
  }

  // φ̇ and ψ̇ from (r, p1, p2).
  S heading_rate(const State& x) const {
    const S c = std::cos(x[TILT]);
    return (x[P1] - x[P2] * std::sin(x[TILT])) / (prm.A * c * c);
  }
  S spin_rate(const State& x) const { return x[P2] / Ib - heading_rate(x) * std::sin(x[TILT]); }

  State field(const State& x) const {
    const S r = x[TILT], rd = x[TILT_RATE], p1 = x[P1], p2 = x[P2];
    const S sr = std::sin(r), cr = std::cos(r), Acr = prm.A * cr;
    const S phid = (p1 - p2 * sr) / (Acr * cr), psid = p2 / Ib - phid * sr;
    const S p1d = mR2 * (-sr / Acr * p1 + (cr / Ib + sr * sr / Acr) * p2) * rd;
    const S p2d = mR2 * (-p1 / Acr + sr / Acr * p2) * rd;
    const S rdd = (-Acr * sr * phid * phid + p2 * phid * cr + prm.mass * prm.gravity * prm.radius * sr) / Ir;
    const S phidd = (p1d - p2d * sr - p2 * rd * cr) / (Acr * cr) + S(2) * phid * sr * rd / cr;
    const S psidd = p2d / Ib - phidd * sr - phid * rd * cr;
    const S cp = std::cos(x[PHI]), sp = std::sin(x[PHI]), R = prm.radius;
    State d;
    d << x[VX], x[VY], phid, psid, rd, rdd, p1d, p2d, -R * (psidd * cp - psid * phid * sp),
        -R * (psidd * sp + psid * phid * cp);
    return d;
  }

  S energy(const State& x) const {
    const S cr = std::cos(x[TILT]), u = x[P1] - x[P2] * std::sin(x[TILT]);
    return S(0.5) * Ir * x[TILT_RATE] * x[TILT_RATE] + S(0.5) * u * u / (prm.A * cr * cr) +
           S(0.5) * x[P2] * x[P2] / Ib + prm.mass * prm.gravity * prm.radius * cr;
  }

  Invariants invariants(const State& x) const {
    const S psid = spin_rate(x), R = prm.radius;
    return Invariants(x[VX] + R * psid * std::cos(x[PHI]), x[VY] + R * psid * std::sin(x[PHI]), energy(x));
  }

  // grad ψ̇ = (∂r, ∂p1, ∂p2) = (−cos r φ̇ − sin r ∂φ̇/∂r, −sin r/(A cos²r), 1/(mR² + B) + sin²r/(A cos²r)),
  // ∂φ̇/∂r = −p2/(A cos r) + 2 φ̇ tan r; grad E = (∂r: −p2 φ̇ cos r + A cos r sin r φ̇² − mgR sin r,
  // ∂ṙ: (mR² + A) ṙ, ∂p1: φ̇, ∂p2: ψ̇).
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    const S r = x[TILT], sr = std::sin(r), cr = std::cos(r), R = prm.radius;
    const S phid = heading_rate(x), psid = x[P2] / Ib - phid * sr;
    const S dphid_dr = -x[P2] / (prm.A * cr) + S(2) * phid * sr / cr;
    const S dpsi_dr = -cr * phid - sr * dphid_dr;
    const S dpsi_dp1 = -sr / (prm.A * cr * cr), dpsi_dp2 = S(1) / Ib + sr * sr / (prm.A * cr * cr);
    const S cp = std::cos(x[PHI]), sp = std::sin(x[PHI]);
    Mat<S, M, N> J = Mat<S, M, N>::Zero();
    J(0, PHI) = -R * psid * sp, J(0, TILT) = R * cp * dpsi_dr, J(0, P1) = R * cp * dpsi_dp1;
    J(0, P2) = R * cp * dpsi_dp2, J(0, VX) = S(1);
    J(1, PHI) = R * psid * cp, J(1, TILT) = R * sp * dpsi_dr, J(1, P1) = R * sp * dpsi_dp1;
    J(1, P2) = R * sp * dpsi_dp2, J(1, VY) = S(1);
    J(2, TILT) = -x[P2] * phid * cr + prm.A * cr * sr * phid * phid - prm.mass * prm.gravity * R * sr;
    J(2, TILT_RATE) = Ir * x[TILT_RATE], J(2, P1) = phid, J(2, P2) = psid;
    return J;
  }

  // Constraints held at 0, the energy at its start value.
  Invariants invariant_targets(const Invariants& F_at_x0) const { return Invariants(S(0), S(0), F_at_x0[2]); }

  // The invariant density of the reduced flow: the shape metric g = mR² + A (constant).
  S log_density(const State&) const { return std::log(Ir); }

  // The contact point's velocity on the constraints for the rest of x (vx, vy replaced).
  State on_constraint(State x) const {
    const S psid = spin_rate(x);
    x[VX] = -prm.radius * psid * std::cos(x[PHI]);
    x[VY] = -prm.radius * psid * std::sin(x[PHI]);
    return x;
  }
};

}  // namespace attractor
