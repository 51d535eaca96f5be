// SPDX-License-Identifier: Apache-2.0
// The nonholonomic oscillator (paper 000 §3.7; Modin–Verdier 2014): a unit particle in R³ in the
// potential |q|²/2 with the constraint ẋ + y ż = 0. The system is generated from
// models/nonholonomic_oscillator.toml (generated/nonholonomic_oscillator.hpp: the cotangent model
// with its fused gradient, the adapter's field written out); here the names users know:
//
//   H = |p|²/2 + |q|²/2,  e = (1, 0, y)/√(1 + y²)  (unit: m = I),
//   H̃ = (y px − pz)²/(2(1 + y²)) + py²/2 + |q|²/2,
//   λ̃ = ((x + yz)(1 + y²) + (y px − pz) py)/(1 + y²)^{3/2}   (all as printed in §3.7).
//
// State layout x = (x, y, z, px, py, pz), N = 6. Invariants (M = 3):
//   row 0  J = (px + y pz)/√(1 + y²)     constraint, target 0
//   row 1  H̃ (default) or H             energy (§3.7 uses H̃ in V)
//   row 2  H_y = py²/2 + y²/2            energy of the y motion
// The paper's gains (k1 on H̃, k2 on H_y, k3 on J) map to K = (k3, k1, k2).
//
// Paper correction: §3.7 lists H_y among the "constants of motion" of the extended system; it is
// one only on the constraint set: off it, ṗy = −y − (y px − pz)(px + y pz)/(1 + y²)², so
// dH_y/dt = −py (y px − pz)(px + y pz)/(1 + y²)², proportional to J. The feedback still pulls
// to the joint level set (asserted in host-tests/unit/nonholonomic, which also checks the
// generated system against the paper's formulas and a hand derivation).
#pragma once

#include "attractor/generated/nonholonomic_oscillator.hpp"

namespace attractor {

using generated::NonholonomicOscillatorFacts;
template <class S>
using NonholonomicOscillatorParams = generated::NonholonomicOscillatorParams<S>;
template <class S>
using NonholonomicOscillatorModel = generated::NonholonomicOscillatorModel<S>;
template <class S, EnergyRow Row = EnergyRow::extended>
using NonholonomicOscillator = generated::NonholonomicOscillator<S, Row>;

}  // namespace attractor
