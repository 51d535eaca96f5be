// SPDX-License-Identifier: Apache-2.0
// The group SE(2) as the planar nonholonomic systems use it (paper 000 §3.3–§3.5): algebra
// coordinates ξ = (ξθ, ξx, ξy), dual μ = (μθ, μx, μy), and the element stored as
// (R ∈ R^{2×2} column-major, x, y), R = [[cos θ, −sin θ], [sin θ, cos θ]].
#pragma once

#include <cmath>

#include "attractor/core/types.hpp"

namespace attractor {

// ad*_ξ μ = (−μy ξx + μx ξy, μy ξθ, −μx ξθ): the minus Lie–Poisson bracket (paper 000 eq. (48)).
template <class S>
Vec3<S> se2_ad_star(const Vec3<S>& xi, const Vec3<S>& mu) {
  return Vec3<S>(-mu[2] * xi[1] + mu[1] * xi[2], mu[2] * xi[0], -mu[1] * xi[0]);
}

// g·ξ for g = (R, x, y) at g[0..5]: Ṙ = R [[0, −ω], [ω, 0]] (column 0 = ω R col 1, column 1 =
// −ω R col 0) with ω = ξθ, and (ẋ, ẏ) = R (ξx, ξy). Writes d[0..5].
template <class S, class G, class Out>
void se2_group_velocity(const G& g, const Vec3<S>& xi, Out& d) {
  d[0] = g[2] * xi[0];
  d[1] = g[3] * xi[0];
  d[2] = -g[0] * xi[0];
  d[3] = -g[1] * xi[0];
  d[4] = g[0] * xi[1] + g[2] * xi[2];
  d[5] = g[1] * xi[1] + g[3] * xi[2];
}

// The same with Ṙ = R (ω^ − W) for a symmetric 2×2 W (the RᵀR − I rows' weights of the feedback
// field, lie_group_model.hpp): one product in place of R ω^ − R W.
template <class S, class G, class Out>
void se2_group_velocity(const G& g, const Vec3<S>& xi, const Mat<S, 2, 2>& W, Out& d) {
  const S a00 = -W(0, 0), a10 = xi[0] - W(1, 0), a01 = -xi[0] - W(0, 1), a11 = -W(1, 1);
  d[0] = g[0] * a00 + g[2] * a10;
  d[1] = g[1] * a00 + g[3] * a10;
  d[2] = g[0] * a01 + g[2] * a11;
  d[3] = g[1] * a01 + g[3] * a11;
  d[4] = g[0] * xi[1] + g[2] * xi[2];
  d[5] = g[1] * xi[1] + g[3] * xi[2];
}

// The stored element at heading θ and position (x, y), into s[0..5].
template <class S, class Out>
void se2_element(S theta, S x, S y, Out& s) {
  const S c = std::cos(theta), sn = std::sin(theta);
  s[0] = c, s[1] = sn, s[2] = -sn, s[3] = c, s[4] = x, s[5] = y;
}

}  // namespace attractor
