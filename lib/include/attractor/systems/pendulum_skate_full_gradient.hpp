// SPDX-License-Identifier: Apache-2.0
// The full pendulum skate's fused feedback gradient (PendulumSkateFull::feedback_gradient;
// integrate/system.hpp; paper 000 eq. (6)): grad V = DFᵀ K (F − F0) for its eight rows
// (E, C1, C2, |Γ|², Γ1, v4, v5, v6; paper 003 (30), (36), (37) corrected, Example 8) written out,
// so that the 8×9 Jacobian and the invariants are never formed. Included at the end of
// systems/pendulum_skate.hpp; the conformance harness checks it against the generic product.
#pragma once

#include "attractor/systems/pendulum_skate.hpp"

namespace attractor {

// With e_i = K_i (F_i − F0_i), v2 = Ω·Γ, D = I2Γ2² + I3Γ3², C1 = D v2 and A(Γ2) the C2 integral:
//   ∇v2 = (Γ, 0, Ω),  ∇C1 = D ∇v2 + v2 (0, 0, 0 | 0, 0, 0 | 0, 2I2Γ2, 2I3Γ3),
//   ∇C2 = l A ∇C1 + l Γ2 ∇v2 + E_Y1 + l (v2 + C1 A') E_Γ2,
// so ∇v2 gets s = (e1 + l A e2) D + l Γ2 e2 and the rest is one term per row:
//   g_Ω = e0 (𝔾ξ)_Ω + s Γ + e5 (0, −Γ3, Γ2)
//   g_Y = e0 (𝔾ξ)_Y + e2 E1 + e6 Γ + e7 (0, −Γ3, Γ2)
//   g_Γ = s Ω + (e1 + l A e2) v2 (0, 2I2Γ2, 2I3Γ3) + e2 l (v2 + C1 A') E2 + 2 e3 Γ + e4 E1
//         + e5 (0, Ω3, −Ω2) + e6 Y + e7 (0, Y3, −Y2) + e0 mgl E3,
// with 𝔾ξ = (Ī1Ω1 − mlY2, Ī2Ω2 + mlY1, I3Ω3, mY1 + mlΩ2, mY2 − mlΩ1, mY3) (𝔾 of (34)).
template <class S>
ATTRACTOR_ALWAYS_INLINE Vec<S, 9> PendulumSkateFull<S>::feedback_gradient(const State& z, const Vec<S, 8>& F0,
                                                                          const Vec<S, 8>& K) const {
  const S O1 = z[0], O2 = z[1], O3 = z[2], Y1 = z[3], Y2 = z[4], Y3 = z[5], G1 = z[6], G2 = z[7], G3 = z[8];
  const S ml = p.m * p.l;
  const S GO1 = p.Ibar1() * O1 - ml * Y2, GO2 = p.Ibar2() * O2 + ml * Y1, GO3 = p.I3 * O3;
  const S GY1 = p.m * Y1 + ml * O2, GY2 = p.m * Y2 - ml * O1, GY3 = p.m * Y3;
  const S v2 = O1 * G1 + O2 * G2 + O3 * G3;
  const S D = p.I2 * G2 * G2 + p.I3 * G3 * G3;
  const S C1 = D * v2;
  const S A = skate_c2_integral(p.I2, p.I3, G2);
  const S dA = skate_c2_integrand(p.I2, p.I3, G2);
  const S E = S(0.5) * (O1 * GO1 + O2 * GO2 + O3 * GO3 + Y1 * GY1 + Y2 * GY2 + Y3 * GY3) + p.m * p.g * p.l * G3;
  const S e0 = K[0] * (E - F0[0]);
  const S e1 = K[1] * (C1 - F0[1]);
  const S e2 = K[2] * (p.l * G2 * v2 + Y1 + p.l * C1 * A - F0[2]);
  const S e3 = K[3] * (G1 * G1 + G2 * G2 + G3 * G3 - F0[3]);
  const S e4 = K[4] * (G1 - F0[4]);
  const S e5 = K[5] * (G2 * O3 - G3 * O2 - F0[5]);
  const S e6 = K[6] * (G1 * Y1 + G2 * Y2 + G3 * Y3 - F0[6]);
  const S e7 = K[7] * (G2 * Y3 - G3 * Y2 - F0[7]);
  const S c = e1 + p.l * A * e2;      // ∇C1's coefficient
  const S s = c * D + p.l * G2 * e2;  // ∇v2's
  const S cv2 = c * v2, e3x2 = S(2) * e3;
  State g;
  g[0] = e0 * GO1 + s * G1;
  g[1] = e0 * GO2 + s * G2 - e5 * G3;
  g[2] = e0 * GO3 + s * G3 + e5 * G2;
  g[3] = e0 * GY1 + e2 + e6 * G1;
  g[4] = e0 * GY2 + e6 * G2 - e7 * G3;
  g[5] = e0 * GY3 + e6 * G3 + e7 * G2;
  g[6] = s * O1 + e3x2 * G1 + e4 + e6 * Y1;
  g[7] = s * O2 + cv2 * (S(2) * p.I2 * G2) + e2 * (p.l * (v2 + C1 * dA)) + e3x2 * G2 + e5 * O3 + e6 * Y2 + e7 * Y3;
  g[8] = s * O3 + cv2 * (S(2) * p.I3 * G3) + e3x2 * G3 - e5 * O2 + e6 * Y3 - e7 * Y2 + e0 * (p.m * p.g * p.l);
  return g;
}

}  // namespace attractor
