// SPDX-License-Identifier: Apache-2.0
// The snakeboard (paper 001 Example 2; Ostrowski's model with the wheel axles turned equal and
// opposite, angles measured from the board) driven by prescribed sinusoidal torques, as the
// cotangent-bundle extension of nonholonomic/cotangent_extension.hpp, q = (x, y, θ, ψ, φ):
//
//   L = ½m(ẋ² + ẏ²) + ½(J + 2J1)θ̇² + ½J0ψ̇² + J1φ̇²,  m = diag(m, m, J', J0, 2J1), J' = J + 2J1
//   constraints (wheels do not slide sideways):
//     ẋ sin(θ + φ) − ẏ cos(θ + φ) + r θ̇ cos φ = 0
//     ẋ sin(θ − φ) − ẏ cos(θ − φ) − r θ̇ cos φ = 0
//   (the paper prints "rθ cos(φ)" in the first: a misprint for r θ̇ cos φ, which is what its
//   D = span{∂ψ, ∂φ, a∂x + b∂y + c∂θ}, a = r cos θ cos φ, b = r sin θ cos φ, c = −sin φ,
//   annihilates), e_i = m⁻¹μ_iᵀ. At cos φ = 0 the two constraints coincide (G singular): the
//   model is for |φ| < π/2.
//
// Controls (the paper gives none of the numbers): the rider's torque u_ψ = A_ψ cos(ωt) acts
// between board and rotor (ψ is the rotor's absolute angle, its kinetic energy ½J0ψ̇²), so it
// pushes ψ by +u_ψ and θ by −u_ψ; the axle torques, equal and opposite on the two axles, are one
// generalised force u_φ = A_φ cos(ωt) on φ. Same phase and frequency (paper). The cosine starts
// the board at rest without a drift of the shape: from rest 2J1 φ̈ = u_φ gives
// φ = A_φ(1 − cos ωt)/(2J1ω²) ∈ [0, A_φ/(J1ω²)] (no constraint force acts on ψ, φ), which the
// defaults keep below 0.6 rad. They are written as the time-dependent potential
// V(q, t) = −u_ψ(t)(ψ − θ) − u_φ(t)φ, read at the model's clock `time` (midpoint_lagrangian.hpp:
// the discrete integrators set it); H is then not conserved.
//
// Defaults: m = 1 kg, J = 0.5, J0 = 0.5, J1 = 0.05 kg m², r = 0.5 m, A_ψ = 1, A_φ = 0.25 N m,
// ω = π rad/s.
//
// State layout x = (x, y, θ, ψ, φ, px, py, pθ, pψ, pφ), N = 10. Invariants (M = 3): rows 0, 1 the
// constraints ⟨p, e_i⟩ (target 0), row 2 H̃ or H.
#pragma once

#include <cmath>

#include "attractor/core/facts.hpp"
#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/cotangent_extension.hpp"

namespace attractor {

// The snakeboard's parameters as facts (core/facts.hpp; paper 001 gives no numbers: ours).
struct SnakeboardParamFacts {
  static constexpr facts::Param params[] = {
      {"m", "kg", 1, facts::positive(), "total mass"},
      {"J", "kg m^2", 0.5, facts::positive(), "board inertia about its centre"},
      {"J0", "kg m^2", 0.5, facts::positive(), "rotor inertia"},
      {"J1", "kg m^2", 0.05, facts::positive(), "inertia of each wheel axle"},
      {"r", "m", 0.5, facts::positive(), "centre to each wheel axle"},
      {"Apsi", "N m", 1, facts::any_finite(), "rider's torque amplitude"},
      {"Aphi", "N m", 0.25, facts::any_finite(), "axle torque amplitude"},
      {"omega", "rad/s", 3.14159265358979324, facts::non_negative(), "torque frequency"}};
};

template <class S>
struct SnakeboardParams {
  S mass = S(facts::default_of<SnakeboardParamFacts>(0));           // m
  S board_inertia = S(facts::default_of<SnakeboardParamFacts>(1));  // J, board about its centre (with the axles' share)
  S rotor_inertia = S(facts::default_of<SnakeboardParamFacts>(2));  // J0
  S axle_inertia = S(facts::default_of<SnakeboardParamFacts>(3));   // J1, each wheel axle about its centre
  S half_length = S(facts::default_of<SnakeboardParamFacts>(4));    // r, centre to each wheel axle
  S rotor_torque = S(facts::default_of<SnakeboardParamFacts>(5));   // A_ψ
  S axle_torque = S(facts::default_of<SnakeboardParamFacts>(6));    // A_φ
  S frequency = S(facts::default_of<SnakeboardParamFacts>(7));      // ω

  Error validate() const {
    const S v[] = {mass, board_inertia, rotor_inertia, axle_inertia, half_length, rotor_torque, axle_torque, frequency};
    return facts::error_of(facts::check<SnakeboardParamFacts>(v));
  }
};

template <class S>
struct SnakeboardModel {
  using Scalar = S;
  static constexpr int Q = 5, K = 2;
  static constexpr bool constant_mass = true;  // midpoint_lagrangian.hpp: explicit discrete steps
  using Config = Vec<S, 5>;
  SnakeboardParams<S> prm{};
  S time = S(0);  // the controls' clock

  S turned() const { return prm.board_inertia + S(2) * prm.axle_inertia; }  // J'
  Config diagonal() const {
    Config d;
    d << prm.mass, prm.mass, turned(), prm.rotor_inertia, S(2) * prm.axle_inertia;
    return d;
  }
  Mat<S, 5, 5> mass(const Config&) const { return diagonal().asDiagonal(); }
  Mat<S, 5, 5> inverse_mass(const Config&) const { return diagonal().cwiseInverse().asDiagonal(); }
  Config kinetic_gradient(const Config&, const Config&) const { return Config::Zero(); }
  Vec<S, 2> controls() const {  // (u_ψ, u_φ)
    const S c = std::cos(prm.frequency * time);
    return Vec<S, 2>(prm.rotor_torque * c, prm.axle_torque * c);
  }
  S potential(const Config& q) const {
    const Vec<S, 2> u = controls();
    return -u[0] * (q[3] - q[2]) - u[1] * q[4];
  }
  Config potential_gradient(const Config&) const {
    const Vec<S, 2> u = controls();
    Config g;
    g << S(0), S(0), u[0], -u[0], -u[1];
    return g;
  }
  // e_i = m⁻¹μ_iᵀ, μ_1,2 = (sin(θ ± φ), −cos(θ ± φ), ±r cos φ, 0, 0).
  Mat<S, 5, 2> constraint_fields(const Config& q) const {
    const S m = prm.mass, Jt = turned(), rc = prm.half_length * std::cos(q[4]);
    Mat<S, 5, 2> E = Mat<S, 5, 2>::Zero();
    for (int i = 0; i < 2; ++i) {
      const S sgn = i == 0 ? S(1) : S(-1), ang = q[2] + sgn * q[4];
      E(0, i) = std::sin(ang) / m;
      E(1, i) = -std::cos(ang) / m;
      E(2, i) = sgn * rc / Jt;
    }
    return E;
  }
  Mat<S, 5, 5> constraint_derivative(const Config& q, int i) const {
    const S m = prm.mass, sgn = i == 0 ? S(1) : S(-1), ang = q[2] + sgn * q[4];
    const S ca = std::cos(ang) / m, sa = std::sin(ang) / m;
    Mat<S, 5, 5> De = Mat<S, 5, 5>::Zero();
    De(0, 2) = ca, De(1, 2) = sa;              // ∂/∂θ
    De(0, 4) = sgn * ca, De(1, 4) = sgn * sa;  // ∂/∂φ
    De(2, 4) = -sgn * prm.half_length * std::sin(q[4]) / turned();
    return De;
  }
};

template <class S, EnergyRow Row = EnergyRow::extended>
struct Snakeboard : CotangentExtension<SnakeboardModel<S>, Row> {
  using Base = CotangentExtension<SnakeboardModel<S>, Row>;
  using Params = SnakeboardParams<S>;
  using Base::Base;

  static Result<Snakeboard> make(const Params& prm = Params{}) {
    const Error err = prm.validate();
    if (err != Error::none) return err;
    SnakeboardModel<S> m;
    m.prm = prm;
    return Snakeboard(m);
  }
};

}  // namespace attractor
