// SPDX-License-Identifier: Apache-2.0
// The closed-form body momentum of the Suslov problem (paper 000 §3.1) for any inertia 𝕀 and
// constraint ⟨ω, a⟩ = 0, ω = 𝕀⁻¹Π. The paper gives it for its case only (Π = (−tanh t, sech t,
// sech t)); the general one: in an orthonormal right-handed frame (u, v, â) of the constraint
// plane with u, v the principal axes of 𝕀 restricted to it (A = u·𝕀u, B = v·𝕀v, u·𝕀v = 0) and
// c_u = u·𝕀â, c_v = v·𝕀â, the projected equations 𝕀ω̇ = 𝕀ω × ω + λâ read
//   A ω̇_u = −γ ω_v,  B ω̇_v = γ ω_u,  γ = c_u ω_u + c_v ω_v,
// so the energy h = (A ω_u² + B ω_v²)/2 is kept; with ω_u = √(2h/A) cos ψ, ω_v = √(2h/B) sin ψ,
// ψ̇ = γ/√(AB) = κ cos(ψ − ψ*), and φ = ψ − ψ* obeys φ̇ = κ cos φ: sin φ = tanh(κt + atanh sin φ0),
// cos φ = sign(cos φ0) sech(κt + atanh sin φ0). The paper's case is A = B = 1, c = (0, 1).
// Checked against an accurate integration by the CLI test tools.cli.suslov_exact_general.
// Host-only.
#pragma once

#include <Eigen/Cholesky>
#include <cmath>

#include "attractor/core/types.hpp"

namespace attractor::sim {

// Π(t) from Π0 (its component off the constraint plane is dropped).
inline Vec3<double> suslov_momentum(const Mat3<double>& I, const Vec3<double>& a, const Vec3<double>& Pi0, double t) {
  const Vec3<double> ah = a.normalized();
  const Vec3<double> u0 = ah.unitOrthogonal(), v0 = ah.cross(u0);
  // A principal axis of the symmetric [[p, q], [q, r]] (𝕀 on the plane in the basis u0, v0): at
  // the angle θ = atan2(2q, p − r)/2 from u0 (any principal axis serves the derivation above).
  const double p = u0.dot(I * u0), q = 0.5 * (u0.dot(I * v0) + v0.dot(I * u0)), r = v0.dot(I * v0);
  const double theta = 0.5 * std::atan2(2 * q, p - r);
  const Vec3<double> u = std::cos(theta) * u0 + std::sin(theta) * v0;
  const Vec3<double> v = ah.cross(u);  // right-handed: u × v = â
  const double A = u.dot(I * u), B = v.dot(I * v), cu = u.dot(I * ah), cv = v.dot(I * ah);
  const Vec3<double> w0 = I.ldlt().solve(Pi0);
  const double wu = w0.dot(u), wv = w0.dot(v);
  const double h = 0.5 * (A * wu * wu + B * wv * wv);
  if (!(h > 0)) return Vec3<double>::Zero();
  const double su = std::sqrt(2 * h / A), sv = std::sqrt(2 * h / B);
  const double psi0 = std::atan2(wv / sv, wu / su);
  const double al = cu * su, be = cv * sv;
  const double kappa = std::sqrt(al * al + be * be) / std::sqrt(A * B), psi_star = std::atan2(be, al);
  const double phi0 = psi0 - psi_star;
  double s = std::sin(phi0), c = std::cos(phi0);
  if (std::abs(s) < 1) {  // |sin φ0| = 1: φ = ±π/2 is a rest point of φ̇ = κ cos φ
    const double z = kappa * t + std::atanh(s);
    s = std::tanh(z), c = (c < 0 ? -1.0 : 1.0) / std::cosh(z);
  }
  const double psi = std::atan2(s, c) + psi_star;
  const Vec3<double> w = su * std::cos(psi) * u + sv * std::sin(psi) * v;
  return I * w;
}

}  // namespace attractor::sim
