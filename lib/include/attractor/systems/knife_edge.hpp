// SPDX-License-Identifier: Apache-2.0
// A knife edge (a blade that cannot slide sideways) on a plane inclined by α (paper 000 §3.2;
// Bloch, Nonholonomic Mechanics, §1.6). The system is generated from models/knife_edge.toml
// (generated/knife_edge.hpp: the cotangent model with its fused gradient, the adapter's field
// written out); here the names users know and the closed-form solution, which no description
// states:
//
//   H = (px² + py²)/(2m) + pφ²/(2J) − m g x sin α,  constraint px sin φ − py cos φ = 0,
//   e = (sin φ, −cos φ, 0)/√m  (unit in the metric m = diag(m, m, J)),
//   H̃ = (px cos φ + py sin φ)²/(2m) + pφ²/(2J) − m g x sin α   (paper §3.2, eq. before (44)).
//
// State layout x = (x, y, φ, px, py, pφ), N = 6. Invariants (M = 3):
//   row 0  J1 = (px sin φ − py cos φ)/√m     constraint, target 0
//   row 1  H̃ (default) or H                  energy (the paper's V uses H̃; Remark 3.7 uses H)
//   row 2  J2 = pφ                           momentum
// The paper's gains (k1, k2, k3) of its V map to K = (k1, k3, k2).
// Paper correction: §3.2 calls J2 = pφ a first integral of the extended system (44); it is one
// only on the constraint set. Off it ṗφ = −∂H̃/∂φ = u J1/√m with u = px cos φ + py sin φ (J1 and
// H̃ are first integrals everywhere). The feedback is unaffected: J1 is pulled to 0.
//
// knife_edge_exact_state() is the closed-form solution (φ = φ0 + ωt, ω = pφ/J; the speed along
// the blade v obeys v̇ = g sin α cos φ). Paper misprint: §3.2 states x(t) = 1 − cos t and φ(t) = t
// for m = J = g = 1, α = π/6, pφ(0) = 0.5; the equations give φ = t/2 and x = (1 − cos t)/2 (y is
// as printed). Checked against an accurate integration in host-tests/unit/nonholonomic.
#pragma once

#include <cmath>

#include "attractor/generated/knife_edge.hpp"

namespace attractor {

using generated::KnifeEdgeFacts;
template <class S>
using KnifeEdgeParams = generated::KnifeEdgeParams<S>;
template <class S>
using KnifeEdgeModel = generated::KnifeEdgeModel<S>;
template <class S, EnergyRow Row = EnergyRow::extended>
using KnifeEdge = generated::KnifeEdge<S, Row>;

// The exact solution from an on-constraint x0 at time t (requires pφ ≠ 0: the blade turns).
// With A = g sin α / ω and v0 the initial speed along the blade:
//   v = v0 + A (sin φ − sin φ0),
//   x = x0 + [(v0 − A sin φ0)(sin φ − sin φ0) + (A/2)(sin² φ − sin² φ0)] / ω,
//   y = y0 + [(v0 − A sin φ0)(cos φ0 − cos φ) + A((φ − φ0)/2 − (sin 2φ − sin 2φ0)/4)] / ω.
template <class S, EnergyRow Row>
Vec<S, 6> knife_edge_exact_state(const KnifeEdge<S, Row>& sys, const Vec<S, 6>& x0, S t) {
  const KnifeEdgeParams<S>& P = sys.model().prm;
  const S phi0 = x0[2], w = x0[5] / P.inertia, phi = phi0 + w * t;
  const S A = P.gravity * std::sin(P.inclination) / w;
  const S v0 = (x0[3] * std::cos(phi0) + x0[4] * std::sin(phi0)) / P.mass;
  const S B = v0 - A * std::sin(phi0), s0 = std::sin(phi0), s = std::sin(phi);
  const S v = B + A * s;
  Vec<S, 6> x;
  x[0] = x0[0] + (B * (s - s0) + S(0.5) * A * (s * s - s0 * s0)) / w;
  x[1] = x0[1] + (B * (std::cos(phi0) - std::cos(phi)) +
                  A * (S(0.5) * (phi - phi0) - S(0.25) * (std::sin(S(2) * phi) - std::sin(S(2) * phi0)))) /
                     w;
  x[2] = phi;
  x[3] = P.mass * v * std::cos(phi);
  x[4] = P.mass * v * std::sin(phi);
  x[5] = x0[5];
  return x;
}

}  // namespace attractor
