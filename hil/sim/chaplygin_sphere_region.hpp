// SPDX-License-Identifier: Apache-2.0
// Sample states of the set a Chaplygin-sphere run can reach (systems/chaplygin_sphere.hpp), for
// check_step and --gains auto: the level set of all four first integrals through x0, not a box
// around it. On it |Γ| = 1, and M (fixed in space) has the length |M0| and the component K0 along
// the vertical, so in the body M = K0 Γ + r (cos φ e1 + sin φ e2) with r = sqrt(|M0|² − K0²) and
// e1, e2 ⊥ Γ; the energy ½ M·A(Γ)⁻¹M = H0 picks the angles φ (a trigonometric polynomial of
// degree 2 in φ: at most 4 of them). Γ runs over a near-uniform grid of the sphere, each φ is
// bracketed on a grid and bisected, and Ω = A(Γ)⁻¹M. Host-only, double.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "attractor/systems/chaplygin_sphere.hpp"

namespace attractor::sim {

constexpr int kSphereRegionDirections = 240;  // vertical directions Γ (Fibonacci grid)
constexpr int kSphereRegionAngles = 96;       // brackets of φ per direction
// x0, up to 4 states per direction, and the box samples added when the level set is degenerate.
constexpr std::size_t kSphereRegionSamples = 1 + 4 * kSphereRegionDirections + 6;

// The energy of the state with vertical G and contact momentum Mc.
inline double sphere_energy_at(const ChaplyginSphere<double>& sys, const Vec3<double>& G, const Vec3<double>& Mc) {
  return 0.5 * Mc.dot(sys.solve(G, Mc));
}

// The samples; states past the found ones repeat x0. Where the level set has (almost) no
// M-circle (M parallel to Γ, r ≈ 0) or fewer than 8 states were found, the box around x0 (|Ω| up
// to sqrt(2H / min I) along each body axis, Γ along and across) is added: conservative, as before.
inline std::array<Vec<double, 6>, kSphereRegionSamples> sphere_reachable_samples(const ChaplyginSphere<double>& sys,
                                                                                 const Vec<double, 6>& x0) {
  using V3 = Vec3<double>;
  using Sys = ChaplyginSphere<double>;
  std::array<Vec<double, 6>, kSphereRegionSamples> out;
  out.fill(x0);
  const Vec<double, 4> F = sys.invariants(x0);
  const double H0 = F[1], K0 = F[2], r2 = F[3] - K0 * K0;
  const double r = r2 > 0 ? std::sqrt(r2) : 0;
  std::size_t n = 1;
  const double golden = M_PI * (3 - std::sqrt(5.0));
  for (int i = 0; i < kSphereRegionDirections && r > 1e-12 * (1 + std::sqrt(F[3])); ++i) {
    const double z = 1 - (2 * i + 1.0) / kSphereRegionDirections, rho = std::sqrt(1 - z * z);
    const V3 G(rho * std::cos(golden * i), rho * std::sin(golden * i), z);
    const V3 e1 = G.unitOrthogonal(), e2 = G.cross(e1);
    auto momentum = [&](double phi) { return V3(K0 * G + r * (std::cos(phi) * e1 + std::sin(phi) * e2)); };
    auto excess = [&](double phi) { return sphere_energy_at(sys, G, momentum(phi)) - H0; };
    double a = 0, fa = excess(0);
    int found = 0;
    for (int k = 1; k <= kSphereRegionAngles && found < 4; ++k) {
      const double b = 2 * M_PI * k / kSphereRegionAngles, fb = excess(b);
      if ((fa <= 0) != (fb <= 0)) {
        double lo = a, hi = b, flo = fa;
        for (int it = 0; it < 60; ++it) {
          const double mid = 0.5 * (lo + hi), fm = excess(mid);
          if ((fm <= 0) == (flo <= 0))
            lo = mid, flo = fm;
          else
            hi = mid;
        }
        const V3 Mc = momentum(0.5 * (lo + hi));
        out[n++] = Sys::state(sys.solve(G, Mc), G);
        ++found;
      }
      a = b, fa = fb;
    }
  }
  if (n < 8) {
    const double w = std::sqrt(2 * sys.energy(x0) / std::min({sys.p.I1, sys.p.I2, sys.p.I3}));
    for (int i = 0; i < 3; ++i) {
      out[n++] = Sys::state(w * V3::Unit(i), V3::Unit(i));
      out[n++] = Sys::state(w * V3::Unit(i), V3::Unit((i + 1) % 3));
    }
  }
  return out;
}

}  // namespace attractor::sim
