// SPDX-License-Identifier: Apache-2.0
// The Chaplygin sleigh in the coordinates of its contact point, q = (x, y, θ) (paper 001
// Example 3), as the cotangent-bundle extension of nonholonomic/cotangent_extension.hpp, so the
// discrete integrators (integrate/nonholonomic_verlet.hpp, discrete_lagrange_dalembert.hpp) and
// the feedback adapter run the paper's problem. The same body as systems/chaplygin_sleigh.hpp
// (the Lie-group form, body momenta) with the same parameters m, I, a:
//
//   L = ½ q̇ᵀ m(θ) q̇,  m(θ) = [[m, 0, −am sin θ], [0, m, am cos θ], [−am sin θ, am cos θ, I + ma²]]
//   constraint ẋ sin θ − ẏ cos θ = 0 (μ = (sin θ, −cos θ, 0)),  e = m⁻¹μᵀ ∝ (−sin θ, cos θ, −κ),
//   κ = am/(I + ma²)  (the paper's D^⊥; not normalised, Remark 2.4)
//   m⁻¹ = [[I₂/m + (a²/I) n nᵀ, −(a/I) n], [−(a/I) nᵀ, 1/I]],  n = (−sin θ, cos θ)  (the Schur
//   complement of m's θθ entry is I)
//   kinetic_gradient(q, a) = ∇_q ½ aᵀm⁻¹a = (0, 0, am u_θ (u_x cos θ + u_y sin θ)), u = m⁻¹a.
//
// State layout x = (x, y, θ, px, py, pθ), N = 6. Invariants (M = 2): row 0 ⟨p, e⟩ constraint
// (target 0), row 1 H̃ (default) or H energy (V = 0; both methods of paper 001 are compared on it).
// On the constraint set the body speed v (along the blade) and ω = θ̇ obey v̇ = aω²,
// ω̇ = −amvω/(I + ma²) (Bloch §1.7), so E = (mv² + (I + ma²)ω²)/2 is kept.
#pragma once

#include <cmath>

#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/cotangent_extension.hpp"
#include "attractor/systems/chaplygin_sleigh.hpp"

namespace attractor {

template <class S>
struct ChaplyginSleighXYModel {
  using Scalar = S;
  static constexpr int Q = 3, K = 1;
  ChaplyginSleighParams<S> prm{};

  Mat3<S> mass(const Vec3<S>& q) const {
    const S m = prm.mass, am = prm.offset * prm.mass, s = std::sin(q[2]), c = std::cos(q[2]);
    Mat3<S> M;
    M << m, S(0), -am * s, S(0), m, am * c, -am * s, am * c, prm.inertia + am * prm.offset;
    return M;
  }
  Mat3<S> inverse_mass(const Vec3<S>& q) const {
    const S a = prm.offset, I = prm.inertia;
    const Vec<S, 2> n(-std::sin(q[2]), std::cos(q[2]));
    Mat3<S> R;
    R.template topLeftCorner<2, 2>() = Mat<S, 2, 2>::Identity() / prm.mass + (a * a / I) * n * n.transpose();
    R.template topRightCorner<2, 1>() = -(a / I) * n;
    R.template bottomLeftCorner<1, 2>() = -(a / I) * n.transpose();
    R(2, 2) = S(1) / I;
    return R;
  }
  Vec3<S> kinetic_gradient(const Vec3<S>& q, const Vec3<S>& a) const {
    const Vec3<S> u = inverse_mass(q) * a;
    return Vec3<S>(S(0), S(0), prm.offset * prm.mass * u[2] * (u[0] * std::cos(q[2]) + u[1] * std::sin(q[2])));
  }
  S potential(const Vec3<S>&) const { return S(0); }
  Vec3<S> potential_gradient(const Vec3<S>&) const { return Vec3<S>::Zero(); }
  Mat<S, 3, 1> constraint_fields(const Vec3<S>& q) const {
    const S kappa = prm.offset * prm.mass / (prm.inertia + prm.mass * prm.offset * prm.offset);
    return Vec3<S>(-std::sin(q[2]), std::cos(q[2]), -kappa);
  }
  Mat3<S> constraint_derivative(const Vec3<S>& q, int) const {
    Mat3<S> De = Mat3<S>::Zero();
    De(0, 2) = -std::cos(q[2]);
    De(1, 2) = -std::sin(q[2]);
    return De;
  }
};

template <class S, EnergyRow Row = EnergyRow::extended>
struct ChaplyginSleighXY : CotangentExtension<ChaplyginSleighXYModel<S>, Row> {
  using Base = CotangentExtension<ChaplyginSleighXYModel<S>, Row>;
  using Params = ChaplyginSleighParams<S>;
  using typename Base::State;

  ChaplyginSleighXY() = default;
  explicit ChaplyginSleighXY(const ChaplyginSleighXYModel<S>& m) : Base(m) {}

  static Result<ChaplyginSleighXY> make(const Params& prm = Params{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    ChaplyginSleighXYModel<S> m;
    m.prm = prm;
    return ChaplyginSleighXY(m);
  }

  // The on-constraint state at pose (x, y, θ) with speed v along the blade and turning rate ω.
  State state(S x, S y, S theta, S v, S omega) const {
    const Vec3<S> q(x, y, theta), qdot(v * std::cos(theta), v * std::sin(theta), omega);
    State s;
    s << q, this->model().mass(q) * qdot;
    return s;
  }
};

}  // namespace attractor
