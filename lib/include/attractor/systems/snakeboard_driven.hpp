// SPDX-License-Identifier: Apache-2.0
// The snakeboard under its prescribed sinusoidal torques (paper 001 Example 2; the model and its
// controls: snakeboard.hpp) as an autonomous System (integrate/system.hpp) for the feedback
// integrator. The torques read a clock, so the clock is a state, and the energy is not conserved
// (the torques do work), so the work done is a state too:
//
//   x = (q, p, t, W) ∈ R^12,  q = (x, y, θ, ψ, φ)
//   q̇, ṗ = the cotangent extension's field (cotangent_extension.hpp) at the model's time t
//   ṫ = 1
//   Ẇ = −∇_qV(q, t)·q̇ = u_ψ(t)(ψ̇ − θ̇) + u_φ(t) φ̇          (the controls' power)
//
// Invariants F = (c_1, c_2, T̃ − W): the two wheel constraints ⟨p, e_i⟩ (target 0) and the energy
// balance, T̃ = H̃ − V = ½pᵀm⁻¹p − ½cᵀCc the extended kinetic energy. Along the frozen-time field
// H̃ is a first integral, so dH̃/dt = ∂V/∂t, dV/dt = ∇V·q̇ + ∂V/∂t and dT̃/dt = −∇V·q̇ = Ẇ: T̃ − W
// is a first integral of this field on all of R^12, not only on the constraint set. Neither row
// depends on t, so the feedback term never moves the clock (DF's t column is zero).
//
// The discrete integrators (integrate/nonholonomic_verlet.hpp, discrete_lagrange_dalembert.hpp)
// step the 10-dimensional cotangent state with the model's clock; advance() below carries t and
// W along with them (W by the trapezoid rule on the force impulses, second order like them).
#pragma once

#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/cotangent_extension.hpp"
#include "attractor/systems/snakeboard.hpp"

namespace attractor {

// The driven snakeboard's facts (core/facts.hpp): state (q, p, t, W), invariants c1, c2 and the
// energy balance E = T~ - W. The documented case: at rest with the axles turned to
// phi0 = -Aphi/(2 J1 omega^2) (phi = phi0 cos(omega t): the board snakes ahead), gains 50, t in [0, 10].
struct SnakeboardFacts : SnakeboardParamFacts {
  static constexpr const char* states[] = {"x",  "y",      "theta", "psi",  "phi", "px",
                                           "py", "ptheta", "ppsi",  "pphi", "t",   "W"};
  static constexpr facts::Invariant invariants[] = {
      {"c1", facts::InvariantKind::constraint, "first wheel constraint, target 0"},
      {"c2", facts::InvariantKind::constraint, "second wheel constraint, target 0"},
      {"E", facts::InvariantKind::energy, "T~ - W, the energy balance"}};
  static constexpr double x0[] = {0, 0, 0, 0, -0.25330295910584444, 0, 0, 0, 0, 0, 0, 0};
  static constexpr facts::Case documented = {
      "documented", "paper 001 Example 2 (no numbers: ours)", x0, 1e-3, 10, "feedback-rk4", 50};
};

template <class S>
class SnakeboardDriven {
 public:
  using Scalar = S;
  using Model = SnakeboardModel<S>;
  using Extension = CotangentExtension<Model>;
  using Params = SnakeboardParams<S>;
  static constexpr int N = 12, M = 3;
  static constexpr int clock = 10, work = 11;  // indices of t and W in x
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  using Config = Vec<S, 5>;
  using Cotangent = Vec<S, 10>;

  static Result<SnakeboardDriven> make(const Params& prm = Params{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    SnakeboardDriven s;
    s.model_.prm = prm;
    return s;
  }

  const Model& model() const { return model_; }  // at time 0
  Extension at(S t) const {
    Model m = model_;
    m.time = t;
    return Extension(m);
  }

  State field(const State& x) const {
    const Extension ext = at(x[clock]);
    const Cotangent y = x.template head<10>();
    const Cotangent dy = ext.field(y);
    State dx;
    dx.template head<10>() = dy;
    dx[clock] = S(1);
    dx[work] = -ext.model().potential_gradient(y.template head<5>()).dot(dy.template head<5>());
    return dx;
  }

  // T̃ = H̃ − V: the kinetic part of the extended energy (V is linear in q and read at time t).
  Invariants invariants(const State& x) const {
    const Extension ext = at(x[clock]);
    const Cotangent y = x.template head<10>();
    Invariants F;
    F.template head<2>() = ext.invariants(y).template head<2>();
    F[2] = ext.extended_energy(y) - ext.model().potential(y.template head<5>()) - x[work];
    return F;
  }

  Mat<S, M, N> invariants_jacobian(const State& x) const {
    const Extension ext = at(x[clock]);
    const Cotangent y = x.template head<10>();
    Mat<S, M, N> J = Mat<S, M, N>::Zero();
    J.template block<3, 10>(0, 0) = ext.invariants_jacobian(y);  // rows c_1, c_2, H̃
    J.template block<1, 5>(2, 0) -= ext.model().potential_gradient(y.template head<5>()).transpose();
    J(2, work) = S(-1);
    return J;
  }

  Invariants invariant_targets(const Invariants& F_at_x0) const {
    Invariants F0 = F_at_x0;
    F0.template head<2>().setZero();
    return F0;
  }

  // The clock and the work across a discrete step from (q0, t) to (q1, t + h): the work of the
  // force impulses, W += ½(f(q0, t) + f(q1, t + h))·(q1 − q0) with f = −∇V (trapezoid).
  void advance(const State& before, State& after, S h) const {
    Model m0 = model_, m1 = model_;
    m0.time = before[clock];
    m1.time = before[clock] + h;
    const Config q0 = before.template head<5>(), q1 = after.template head<5>();
    const Config f = -(m0.potential_gradient(q0) + m1.potential_gradient(q1)) / S(2);
    after[clock] = before[clock] + h;
    after[work] = before[work] + f.dot(q1 - q0);
  }

 private:
  Model model_{};
};

}  // namespace attractor
