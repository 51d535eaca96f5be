// SPDX-License-Identifier: Apache-2.0
// The Chaplygin sphere: a ball of radius a and mass m whose centre of mass is its geometric
// centre, with distinct principal moments I1, I2, I3 about it, rolling without slipping on a
// horizontal plane (paper 004, "Chaplygin Sphere"; Chaplygin 1903, Borisov–Mamaev 2002). Gravity
// acts through the contact point and does no work, so it does not enter.
//
// Body frame at the centre, Ω the body angular velocity, Γ the upward vertical seen from the body
// (the conventions of systems/spherical_robot.hpp). Rolling: the centre moves at aΩ×Γ (body),
// so with d = m a² the angular momentum about the contact point is
//   M = A(Γ) Ω,   A(Γ) = B − d ΓΓᵀ,   B = diag(I1 + d, I2 + d, I3 + d),
// (on |Γ| = 1, A = I + d(|Γ|²𝟙 − ΓΓᵀ), the inertia about the contact point). That vector is
// fixed in space (the contact and gravity forces pass through the contact point, whose velocity
// is parallel to the centre's), so the reduced equations are
//   Ṁ = M × Ω,   Γ̇ = Γ × Ω,
// integrated here in x = (Ω, Γ) ∈ R⁶ (the state the robot and the user think in):
//   Ω̇ = A⁻¹ (M × Ω + d (Γ·Ω) Γ×Ω)      (Ȧ Ω = −d (Γ·Ω) Γ̇, since Γ̇·Ω = 0),
// A⁻¹ by Sherman–Morrison: A⁻¹y = B⁻¹y + d (Γ·B⁻¹y) B⁻¹Γ / s,  s = 1 − d Γ·B⁻¹Γ, positive while
// |Γ|² < 1 + min I_i / d (so on |Γ| = 1, where the feedback holds the state); beyond, the field
// is non-finite or meaningless, which a run reports as a blow-up.
//
// The slides write the Lagrangian in Euler angles (θ, φ, ψ) and the centre (x, y) with a = 1;
// their constraints ẋ − θ̇ sin φ + ψ̇ cos φ sin θ = 0, ẏ + θ̇ cos φ + ψ̇ sin φ sin θ = 0 are
// ẋ = a ω_y, ẏ = −a ω_x for the space rate ω of the z-x-z angles, i.e. the rolling condition
// above (checked numerically in host-tests/unit/lie_flows/chaplygin_sphere_test.cpp).
//
// Invariants (M = 4), first integrals of the field on all of R⁶ (A as defined, not only on
// |Γ| = 1; checked by the conformance harness):
//   row 0  |Γ|²          the vertical is a unit vector, target 1      (constraint)
//   row 1  H = ½ Ω·M     energy, = ½Ω·IΩ + ½m|aΩ×Γ|² on |Γ| = 1        (energy)
//   row 2  K = M·Γ       the nonholonomic momentum: the component of the angular momentum
//                        about the contact point along the vertical (the slides' one-component
//                        momentum map of the SE(2) symmetry)            (momentum)
//   row 3  |M|²          its length (M is fixed in space)              (momentum)
// Invariant measure (Chaplygin): ρ(M, Γ) = s^(−1/2) d³M d³Γ, hence in x = (Ω, Γ), with
// d³M = det A d³Ω = det B · s d³Ω, ρ(x) ∝ s^(1/2): log_density(x) = ½ log s (checked against
// the divergence of the field, integrate/measure.hpp).
//
// The spherical robot with l = 0 and rotor momenta π = 0 is this sphere with inertia
// diag(I1 − J1, I2 − J2, I3): with π = 0 the rotors keep still in space (𝕀Ω + h = (𝕀 − J)Ω).
#pragma once

#include <cmath>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"

// After types.hpp (which sets EIGEN_NO_MALLOC before Eigen/Core).
#include <Eigen/Geometry>

namespace attractor {

// The sphere's facts (core/facts.hpp). The slides give no numbers; the documented case: a = m = 1
// (the slides' constraints take a = 1), I = (0.3, 0.4, 0.5), Ω0 = (1, 0.5, 2), Γ0 = (0.6, 0, 0.8),
// gains 1 (|M|² has the steepest gradient, 2AM: h * stiffness ~0.05), t in [0, 20].
// `principal_moments`: the parameters that are a rigid body's principal moments (a triangle
// inequality holds for every real body; the simulator warns when it does not).
struct ChaplyginSphereFacts {
  static constexpr facts::Param params[] = {
      {"a", "m", 1, facts::positive(), "ball radius"},
      {"m", "kg", 1, facts::positive(), "mass"},
      {"I1", "kg m^2", 0.3, facts::positive(), "principal moment about the centre"},
      {"I2", "kg m^2", 0.4, facts::positive(), "principal moment about the centre"},
      {"I3", "kg m^2", 0.5, facts::positive(), "principal moment about the centre"}};
  static constexpr int principal_moments[] = {2, 3, 4};
  static constexpr const char* states[] = {"W1", "W2", "W3", "G1", "G2", "G3"};
  static constexpr facts::Invariant invariants[] = {
      {"G", facts::InvariantKind::constraint, "|Gamma|^2, target 1"},
      {"H", facts::InvariantKind::energy, "the energy"},
      {"K", facts::InvariantKind::momentum, "M.Gamma, the nonholonomic momentum"},
      {"M2", facts::InvariantKind::momentum, "|M|^2"}};
  static constexpr double x0[] = {1, 0.5, 2, 0.6, 0, 0.8};
  static constexpr facts::Case documented = {
      "documented", "paper 004 (the slides give no numbers)", x0, 1e-3, 20, "feedback-rk4", 1};
};

template <class S>
struct ChaplyginSphereParams {
  S radius = S(facts::default_of<ChaplyginSphereFacts>(0));  // a [m] (the slides' constraints take a = 1)
  S mass = S(facts::default_of<ChaplyginSphereFacts>(1));    // m [kg]
  S I1 = S(facts::default_of<ChaplyginSphereFacts>(2)), I2 = S(facts::default_of<ChaplyginSphereFacts>(3)),
    I3 = S(facts::default_of<ChaplyginSphereFacts>(4));  // principal moments about the centre [kg m²]

  // non_finite for NaN/Inf; invalid_parameter unless a > 0, m > 0 and every I_i > 0. Equal
  // moments are accepted (the ball is then a Routh/Chaplygin degenerate case, still valid).
  Error validate() const {
    const S v[5] = {radius, mass, I1, I2, I3};
    if (const Error e = facts::error_of(facts::check<ChaplyginSphereFacts>(v)); e != Error::none) return e;
    if (!is_finite(mass * radius * radius)) return Error::non_finite;
    return Error::none;
  }
};

template <class S>
struct ChaplyginSphere {
  using Scalar = S;
  static constexpr int N = 6;  // (Ω, Γ)
  static constexpr int M = 4;  // |Γ|², H, K, |M|²
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;

  ChaplyginSphereParams<S> p{};
  S d = S(1);                                   // m a²
  Vec3<S> B = Vec3<S>(S(1.3), S(1.4), S(1.5));  // I + d

  static Result<ChaplyginSphere> make(const ChaplyginSphereParams<S>& prm = ChaplyginSphereParams<S>{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    ChaplyginSphere s;
    s.p = prm;
    s.d = prm.mass * prm.radius * prm.radius;
    s.B = Vec3<S>(prm.I1 + s.d, prm.I2 + s.d, prm.I3 + s.d);
    return s;
  }

  static State state(const Vec3<S>& Omega, const Vec3<S>& Gamma) {
    State x;
    x << Omega, Gamma;
    return x;
  }
  static Vec3<S> omega(const State& x) { return x.template head<3>(); }
  static Vec3<S> vertical(const State& x) { return x.template tail<3>(); }

  // M = A(Γ)Ω = BΩ − d (Γ·Ω) Γ: angular momentum about the contact point.
  Vec3<S> contact_momentum(const Vec3<S>& Om, const Vec3<S>& G) const {
    return B.cwiseProduct(Om) - (d * G.dot(Om)) * G;
  }
  // s = 1 − d Γ·B⁻¹Γ (= det A / det B).
  S schur(const Vec3<S>& G) const { return S(1) - d * G.dot(G.cwiseQuotient(B)); }
  // A(Γ)⁻¹ y (Sherman–Morrison).
  Vec3<S> solve(const Vec3<S>& G, const Vec3<S>& y) const {
    const Vec3<S> By = y.cwiseQuotient(B), BG = G.cwiseQuotient(B);
    return By + (d * G.dot(By) / schur(G)) * BG;
  }

  State field(const State& x) const {
    const Vec3<S> Om = omega(x), G = vertical(x);
    const Vec3<S> Mc = contact_momentum(Om, G);
    const Vec3<S> Gd = G.cross(Om);  // Γ̇ = Γ×Ω
    State dx;
    dx.template head<3>() = solve(G, Mc.cross(Om) + (d * G.dot(Om)) * Gd);
    dx.template tail<3>() = Gd;
    return dx;
  }

  S energy(const State& x) const {
    const Vec3<S> Om = omega(x);
    return S(0.5) * Om.dot(contact_momentum(Om, vertical(x)));
  }

  Invariants invariants(const State& x) const {
    const Vec3<S> Om = omega(x), G = vertical(x);
    const Vec3<S> Mc = contact_momentum(Om, G);
    Invariants F;
    F << G.squaredNorm(), S(0.5) * Om.dot(Mc), Mc.dot(G), Mc.squaredNorm();
    return F;
  }

  // ∂M/∂Ω = A, ∂M/∂Γ = −d((Γ·Ω)𝟙 + ΓΩᵀ).
  Mat<S, M, N> invariants_jacobian(const State& x) const {
    const Vec3<S> Om = omega(x), G = vertical(x);
    const Vec3<S> Mc = contact_momentum(Om, G);
    const S go = G.dot(Om);
    Mat<S, M, N> J;
    J.template block<1, 3>(0, 0).setZero();
    J.template block<1, 3>(0, 3) = S(2) * G.transpose();
    J.template block<1, 3>(1, 0) = Mc.transpose();              // ∂H/∂Ω = M
    J.template block<1, 3>(1, 3) = (-d * go * Om).transpose();  // ∂H/∂Γ = −d(Γ·Ω)Ω
    // K = ΩᵀBΓ − d (Γ·Ω)|Γ|²
    J.template block<1, 3>(2, 0) = (B.cwiseProduct(G) - (d * G.squaredNorm()) * G).transpose();
    J.template block<1, 3>(2, 3) = (B.cwiseProduct(Om) - (d * G.squaredNorm()) * Om - (S(2) * d * go) * G).transpose();
    // |M|²: 2 AM, 2 (∂M/∂Γ)ᵀM = −2d((Γ·Ω)M + (Γ·M)Ω)
    J.template block<1, 3>(3, 0) = (S(2) * contact_momentum(Mc, G)).transpose();
    J.template block<1, 3>(3, 3) = (-S(2) * d * (go * Mc + G.dot(Mc) * Om)).transpose();
    return J;
  }

  // The feedback reference: |Γ|² is pulled to 1, the others kept at F(x0).
  Invariants invariant_targets(const Invariants& F0) const {
    Invariants T = F0;
    T[0] = S(1);
    return T;
  }

  // log ρ of Chaplygin's invariant measure in x = (Ω, Γ) (header comment), up to a constant.
  S log_density(const State& x) const { return S(0.5) * std::log(schur(vertical(x))); }
};

}  // namespace attractor
