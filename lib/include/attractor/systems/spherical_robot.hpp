// SPDX-License-Identifier: Apache-2.0
// Spherical robot: a top-heavy ball of radius a rolling without slipping on a horizontal plane,
// driven by two internal rotors with spin axes E1, E2 mounted at the centre of mass (paper 004,
// "A Spherical Robot: Controlled Chaplygin's Sphere and Chaplygin's Top", eqs. (0.29)–(0.30),
// with the rotors written as in paper 003 (43)).
//
// API summary (allocation-free, float or double, the same cost for every state):
//   SphericalRobotParams<S>{radius, m, l, g, I1, I2, I3, J1, J2}   defaults: the reference robot
//   SphericalRobot<S>   explicit rolling dynamics in x = (Ω, Γ, θ̇) ∈ R⁸ (one 3×3 solve per call);
//                       member `torque` (u1, u2) held over a step, field(x, u) for an explicit one.
//                       Open-loop invariants (E, π1, π2, |Γ|², Jellett 𝒥) + analytic Jacobian:
//                       a System for Feedback<> (integrate/feedback.hpp); see
//                       spherical_robot_feedback() for the gains (𝒥 is monitored only when π = 0).
//   spherical_robot_initial_state(φ0, Ω, θ̇)   x with Γ = (0, sin φ0, cos φ0) (the §3 experiment)
//   Reconstruction of R and (x, y): systems/spherical_robot_pose.hpp.
//   The same system written differently, for cross-checks: the tests' multiplier form
//   (host-tests/support/spherical_robot_multipliers.hpp: nonholonomic Euler–Poincaré eq. (17) of
//   paper 003 with λ eliminated numerically, an 8×8 LDLT per call) and
//   systems/spherical_robot_hamel.hpp (a HamelRotorModel for the generic controlled Lagrangian).
//
// Conventions. Body frame at the geometric centre C, E3 the symmetry axis; R maps body to space.
// Ω = (RᵀṘ)^∨. Γ = Rᵀe3 is the UPWARD vertical seen from the body (upright: Γ = E3). The centre
// of mass sits at l E3 (l > 0: top-heavy); the contact point at −aΓ; r := aΓ + lE3 runs from the
// contact point to the CM. Rotor a spins about E_a with axial inertia J_a, angle θ_a relative to
// the shell; h := (J1θ̇1, J2θ̇2, 0). 𝕀 = diag(I1, I2, I3) is the inertia of the whole robot about
// the CM with the rotors locked. u_a is the motor torque on rotor a; the shell feels −u_a.
//
// Reduced Lagrangian (paper 003 (43) form, constant metric):
//   ℓ = ½Ω·(𝕀−J)Ω + ½Σ_a J_a(Ω_a+θ̇_a)² + ½m|Y + lΩ×E3|² − m g l Γ3,   Y = Rᵀẋ_C,
// rolling constraint Y = aΩ×Γ (contact point at rest; annihilators ψ^a = (a e_a×Γ, e_a)).
//
// Explicit equations (Newton–Euler about the CM with the contact force eliminated; this is
// paper 004 (0.29)–(0.30) with a constant ρ_c = l E3, the slides' "a_g" read as g):
//   ṙ = aΓ×Ω,
//   f = −Ω×(𝕀Ω + h) − m r×(Ω×ṙ) − m r×(Ω×(Ω×r)) − m g r×Γ,
//   (A(Γ) − J) Ω̇ = f − (u1, u2, 0),   A(Γ) = 𝕀 + m(|r|²𝟙 − r rᵀ)  (inertia about the contact),
//   Γ̇ = Γ×Ω,   θ̈_a = u_a/J_a − Ω̇_a   (J_a(Ω̇_a + θ̈_a) = u_a, (0.30)).
// The 3×3 system is solved by the adjugate (fixed cost; its determinant is the singularity test).
// Checked against the multiplier form (paper 003 (17)) and the Hamel form (paper 003 (44)) to
// ~1e-13 at random states (host-tests/unit/spherical_robot/spherical_robot_model_test.cpp).
//
// Open-loop invariants (u = 0), all verified along RK4 trajectories:
//   E = ½Ω·𝕀Ω + Ω·h + ½ΣJ_aθ̇_a² + ½m|Ω×r|² + m g l Γ3,   π_a = J_a(Ω_a + θ̇_a) (rotor angles are
//   cyclic), |Γ|², and the Jellett integral 𝒥 = ⟨𝕀Ω + h, r⟩, conserved only when π = 0 and
//   I1 − J1 = I2 − J2 (then 𝕀Ω + h = (𝕀 − J)Ω: the rotors do not turn in space and the robot is
//   a Routh sphere with axisymmetric inertia 𝕀 − J). With π ≠ 0, d𝒥/dt = l π·(Ω×E3) (derived;
//   checked numerically in the tests).
#pragma once

#include <cmath>
#include <limits>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/solve3.hpp"
#include "attractor/core/types.hpp"
#include "attractor/geometry/so3.hpp"
#include "attractor/integrate/feedback.hpp"

// After types.hpp (which sets EIGEN_NO_MALLOC before Eigen/Core).
#include <Eigen/Geometry>

namespace attractor {

// Physical parameters; defaults are the reference robot of the project's experiment.
template <class S>
struct SphericalRobotParams {
  S radius = S(0.20);                          // a: ball radius [m]
  S m = S(4.0);                                // total mass, rotors included [kg]
  S l = S(0.05);                               // centre C -> centre of mass along E3 [m]; > 0 top-heavy
  S g = S(9.81);                               // [m/s²]
  S I1 = S(0.10), I2 = S(0.10), I3 = S(0.08);  // 𝕀 about the CM, rotors locked [kg m²]
  S J1 = S(0.01), J2 = S(0.01);                // rotor axial inertias about E1, E2 [kg m²]

  // non_finite for NaN/Inf; invalid_parameter unless a > 0, m > 0, g >= 0, I_i > 0,
  // 0 < J_a < I_a (the shell keeps a positive inertia about the rotor axis), |l| < a
  // (the centre of mass inside the ball).
  Error validate() const {
    const S v[9] = {radius, m, l, g, I1, I2, I3, J1, J2};
    for (const S x : v)
      if (!is_finite(x)) return Error::non_finite;
    if (!(radius > S(0)) || !(m > S(0)) || !(g >= S(0)) || !(I1 > S(0)) || !(I2 > S(0)) || !(I3 > S(0)) ||
        !(J1 > S(0)) || !(J2 > S(0)) || !(J1 < I1) || !(J2 < I2) || !(l < radius) || !(-l < radius))
      return Error::invalid_parameter;
    return Error::none;
  }

  Vec3<S> inertia() const { return Vec3<S>(I1, I2, I3); }          // diagonal of 𝕀
  Vec3<S> rotor_inertia() const { return Vec3<S>(J1, J2, S(0)); }  // diagonal of J
  // I_P,a = 𝕀_aa − J_a + m(a+l)²: the pitch inertia about the contact point with the rotor
  // free, the denominator of the fall rate and of the stability range (spherical-robot.md).
  S pivot_inertia(int axis) const {
    const S d = radius + l;
    return (axis == 0 ? I1 - J1 : I2 - J2) + m * d * d;
  }
};

// Explicit rolling dynamics. x = (Ω, Γ, θ̇): Ω body rate, Γ upward vertical in the body, θ̇ rotor
// rates relative to the shell.
template <class S>
struct SphericalRobot {
  using Scalar = S;
  static constexpr int N = 8;  // (Ω, Γ, θ̇)
  static constexpr int M = 5;  // E, π1, π2, |Γ|², 𝒥
  using State = Vec<S, 8>;
  SphericalRobotParams<S> p{};
  Vec<S, 2> torque = Vec<S, 2>::Zero();  // (u1, u2) [N m], zero-order hold over a step

  static Vec3<S> omega(const State& x) { return x.template segment<3>(0); }
  static Vec3<S> vertical(const State& x) { return x.template segment<3>(3); }
  static Vec<S, 2> rotor_rates(const State& x) { return x.template segment<2>(6); }

  // r = aΓ + lE3, contact point -> centre of mass.
  Vec3<S> contact_arm(const Vec3<S>& G) const { return p.radius * G + Vec3<S>(S(0), S(0), p.l); }
  // A(Γ) = 𝕀 + m(|r|²𝟙 − r rᵀ): inertia about the contact point (parallel-axis theorem).
  Mat3<S> contact_inertia(const Vec3<S>& G) const {
    const Vec3<S> r = contact_arm(G);
    Mat3<S> A = p.m * (r.squaredNorm() * Mat3<S>::Identity() - r * r.transpose());
    A.diagonal() += p.inertia();
    return A;
  }
  // h = Jθ̇ (relative rotor angular momentum, body frame).
  Vec3<S> rotor_momentum_vector(const Vec<S, 2>& th) const { return Vec3<S>(p.J1 * th[0], p.J2 * th[1], S(0)); }
  // f(Ω, Γ, h) above: all of the angular-momentum balance about the contact point except the
  // Ω̇ and u terms. `body_momentum` is 𝕀Ω + h (the closed loop passes ĨΩ + β here).
  Vec3<S> rate_terms(const Vec3<S>& Om, const Vec3<S>& G, const Vec3<S>& body_momentum) const {
    const Vec3<S> r = contact_arm(G);
    const Vec3<S> rdot = p.radius * G.cross(Om);  // ṙ = aΓ̇ = aΓ×Ω
    return -Om.cross(body_momentum) - p.m * r.cross(Om.cross(rdot)) - p.m * r.cross(Om.cross(Om.cross(r))) -
           (p.m * p.g) * r.cross(G);
  }
  // Ω̇ for the torques u; det = det(A(Γ) − J) (positive for valid parameters).
  Vec3<S> omega_dot(const State& x, const Vec<S, 2>& u, S& det) const {
    const Vec3<S> Om = omega(x), G = vertical(x);
    const Vec3<S> f = rate_terms(Om, G, p.inertia().cwiseProduct(Om) + rotor_momentum_vector(rotor_rates(x)));
    Mat3<S> Mx = contact_inertia(G);
    Mx(0, 0) -= p.J1;
    Mx(1, 1) -= p.J2;
    return detail::solve3_adjugate<S>(Mx, f - Vec3<S>(u[0], u[1], S(0)), det);
  }

  State field(const State& x, const Vec<S, 2>& u) const {
    S det;
    const Vec3<S> wd = omega_dot(x, u, det);
    State d;
    d.template segment<3>(0) = wd;
    d.template segment<3>(3) = vertical(x).cross(omega(x));  // Γ̇ = Γ×Ω (paper 003 (17b))
    d[6] = u[0] / p.J1 - wd[0];                              // J_a(Ω̇_a + θ̈_a) = u_a (0.30)
    d[7] = u[1] / p.J2 - wd[1];
    return d;
  }
  State field(const State& x) const { return field(x, torque); }
  State operator()(const State& x) const { return field(x, torque); }

  // ---- open-loop invariants -------------------------------------------------------------
  S energy(const State& x) const {
    const Vec3<S> Om = omega(x), G = vertical(x), r = contact_arm(G);
    const Vec<S, 2> th = rotor_rates(x);
    const Vec3<S> h = rotor_momentum_vector(th);
    return S(0.5) * Om.dot(p.inertia().cwiseProduct(Om)) + Om.dot(h) +
           S(0.5) * (p.J1 * th[0] * th[0] + p.J2 * th[1] * th[1]) + S(0.5) * p.m * Om.cross(r).squaredNorm() +
           p.m * p.g * p.l * G[2];
  }
  // π_a = J_a(Ω_a + θ̇_a): absolute rotor angular momenta; π̇_a = u_a (paper 003 (44b)).
  Vec<S, 2> rotor_momenta(const State& x) const { return Vec<S, 2>(p.J1 * (x[0] + x[6]), p.J2 * (x[1] + x[7])); }
  // Jellett 𝒥 = ⟨𝕀Ω + h, r⟩ (Routh sphere; conserved when π = 0 and I1 − J1 = I2 − J2).
  S jellett(const State& x) const {
    const Vec3<S> Om = omega(x);
    return (p.inertia().cwiseProduct(Om) + rotor_momentum_vector(rotor_rates(x))).dot(contact_arm(vertical(x)));
  }

  Vec<S, 5> invariants(const State& x) const {
    const Vec<S, 2> pi = rotor_momenta(x);
    Vec<S, 5> F;
    F << energy(x), pi[0], pi[1], vertical(x).squaredNorm(), jellett(x);
    return F;
  }

  Mat<S, 5, 8> invariants_jacobian(const State& x) const {
    const Vec3<S> Om = omega(x), G = vertical(x), r = contact_arm(G);
    const Vec3<S> h = rotor_momentum_vector(rotor_rates(x));
    const Vec3<S> L = p.inertia().cwiseProduct(Om) + h;  // 𝕀Ω + h
    const Vec<S, 2> pi = rotor_momenta(x);
    Mat<S, 5, 8> J = Mat<S, 5, 8>::Zero();
    // dE: ∂/∂Ω = 𝕀Ω + h + m r×(Ω×r); ∂/∂Γ = a m (|Ω|²r − (Ω·r)Ω) + m g l E3; ∂/∂θ̇_a = π_a
    J.template block<1, 3>(0, 0) = (L + p.m * r.cross(Om.cross(r))).transpose();
    J.template block<1, 3>(0, 3) = (p.radius * p.m * (Om.squaredNorm() * r - Om.dot(r) * Om)).transpose();
    J(0, 5) += p.m * p.g * p.l;
    J(0, 6) = pi[0];
    J(0, 7) = pi[1];
    // dπ_a
    J(1, 0) = J(1, 6) = p.J1;
    J(2, 1) = J(2, 7) = p.J2;
    // d|Γ|²
    J.template block<1, 3>(3, 3) = S(2) * G.transpose();
    // d𝒥: ∂/∂Ω = 𝕀r, ∂/∂Γ = a(𝕀Ω + h), ∂/∂θ̇_a = J_a r_a
    J.template block<1, 3>(4, 0) = p.inertia().cwiseProduct(r).transpose();
    J.template block<1, 3>(4, 3) = p.radius * L.transpose();
    J(4, 6) = p.J1 * r[0];
    J(4, 7) = p.J2 * r[1];
    return J;
  }

  // ---- upright equilibrium --------------------------------------------------------------
  // Open-loop growth rate of the fall about axis a at Γ = E3: √(mgl/I_P,a) (linearization).
  S fall_rate(int axis = 0) const { return std::sqrt(p.m * p.g * p.l / p.pivot_inertia(axis)); }
};

// Initial state of the reference experiment: Γ = (0, sin φ0, cos φ0) (tilt φ0 about E1), Ω, θ̇.
template <class S>
Vec<S, 8> spherical_robot_initial_state(S phi0, const Vec3<S>& Omega, const Vec<S, 2>& rotor_rates) {
  Vec<S, 8> x;
  x << Omega, S(0), std::sin(phi0), std::cos(phi0), rotor_rates;
  return x;
}

// Tilt of the symmetry axis from the vertical, arccos Γ3 (Γ normalized; clamped for rounding).
template <class S>
S spherical_robot_tilt(const Vec<S, 8>& x) {
  const S n = x.template segment<3>(3).norm();
  S c = x[5] / n;
  c = c > S(1) ? S(1) : (c < S(-1) ? S(-1) : c);
  return std::acos(c);
}

// Feedback integrator for the open-loop robot (paper 000 §2): every monitored invariant pulled
// back at `rate` [1/s] at x0 (balanced_gains). The Jellett integral is monitored only when the
// rotor momenta vanish (|π| ≤ tol) and I1 − J1 = I2 − J2; otherwise its gain is 0 (it is not an
// invariant then). Torque must be zero: E and π are invariants of the open loop only.
template <class S>
Feedback<SphericalRobot<S>> spherical_robot_feedback(const SphericalRobot<S>& sys, const Vec<S, 8>& x0, S rate) {
  Vec<S, 5> K = balanced_gains(sys, x0, rate);
  const Vec<S, 2> pi = sys.rotor_momenta(x0);
  const S tol = S(64) * std::numeric_limits<S>::epsilon() * (S(1) + sys.p.J1 + sys.p.J2);
  if (!(pi.cwiseAbs().maxCoeff() <= tol) || sys.p.I1 - sys.p.J1 != sys.p.I2 - sys.p.J2) K[4] = S(0);
  return Feedback<SphericalRobot<S>>(sys, sys.invariants(x0), K);
}

}  // namespace attractor
