// SPDX-License-Identifier: Apache-2.0
// Which energy the nonholonomic adapters monitor in their energy row (paper 000 §2.1, §3):
//   extended: H̃ = H − ½ Σ ⟨p,e_i⟩ C_ij ⟨p,e_j⟩ (eqs. (5), (10), (16)), a first integral of the
//             extended field everywhere; the paper's Lyapunov functions (36), (45), §3.3–§3.7.
//   original: H (eq. (1), (13)); equal to H̃ on the constraint set and also a first integral
//             of the extended field (Corollaries 2.3, 2.7; Remarks 3.5, 3.7).
// Both give the same invariant set; H̃'s gradient is already computed by the field, so it costs
// less, and it is the default.
#pragma once

namespace attractor {

enum class EnergyRow { extended, original };

}  // namespace attractor
