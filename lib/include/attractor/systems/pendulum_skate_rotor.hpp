// SPDX-License-Identifier: Apache-2.0
// Pendulum skate with an internal rotor about E1 at the centre of mass (paper 003 Fig. 3,
// Example 15, eqs. (44)–(45), (54)–(55)).
//
// API summary:
//   SkateRotorParams<S>{m, l, I1, I2, I3, g, J1, J2, J3}   m = total mass incl. rotor; defaults §7.3
//   PendulumSkateRotor<S>   plant (44) in x = (v1, v2, v3, Γ2, Γ3, θ̇), θ̇ = rotor rate relative to
//                           the body; member `torque` u (zero-order hold) so that
//                           `plant.torque = u; rk4_step(plant, x, h);` steps the SIL plant.
//                           field(x, u) for an explicit torque.
//   SkateRotorHamel<S>      the same system as a HamelRotorModel (6-dim algebra, 3 constraints, 1 rotor, 3-dim Γ) for
//   the
//                           generic ControlledLagrangian (control/controlled_lagrangian.hpp).
//
// Misprint in (55): the last term is printed m‖Y‖² (and, in the second line, inside the ½); the
// kinetic energy of the translating mass is (m/2)‖Y‖², as in (7)/(34) and as the printed metric
// 𝔾_ij (diagonal m) says. The code uses (m/2)‖Y‖².
//
// Reduction of (44) for this system (derived here; checked against the generic Hamel form in
// host-tests/unit/pendulum_skate/skate_control_test.cpp): with 𝓘_i = I_i + J_i, p1 = (𝓘1+ml²)v1 + J1θ̇,
// π = J1(v1 + θ̇) (45), and p1 − π = (I1+ml²)v1, so
//   (I1+ml²) v̇1 = X(ζ) − u,   X(ζ) = ((𝓘2+ml²−𝓘3)Γ3 v2² + mgl)Γ2 + mlΓ3 v2 v3,
//   J1(v̇1 + θ̈) = u  (44b),
// and v̇2, v̇3, Γ̇ are those of (38) with I2, I3 replaced by 𝓘2, 𝓘3 (the rotor's transverse inertia
// rides with the body).
#pragma once

#include <cmath>

#include <Eigen/Geometry>  // cross()

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/geometry/so3.hpp"
#include "attractor/systems/pendulum_skate.hpp"

namespace attractor {

template <class S>
struct SkateRotorParams {
  S m = S(3);                                       // total mass including the rotor [kg]
  S l = S(0.8);                                     // contact -> CM distance [m] (rotor sits at the CM)
  S I1 = S(0.35), I2 = S(0.35), I3 = S(0.004);      // body inertia about the CM without the rotor's J [kg m²]
  S g = S(9.8);                                     // [m/s²]
  S J1 = S(0.005), J2 = S(0.0025), J3 = S(0.0025);  // rotor inertia: J1 about its spin axis E1 [kg m²]

  S Ibar1() const { return I1 + m * l * l; }  // I1 + ml², the denominator of (56) and (58)

  Error validate() const {
    const PendulumSkateParams<S> b{m, l, I1, I2, I3, g};
    const Error e = b.validate();
    if (e != Error::none) return e;
    if (!is_finite(J1) || !is_finite(J2) || !is_finite(J3)) return Error::non_finite;
    if (!(J1 > S(0)) || !(J2 >= S(0)) || !(J3 >= S(0))) return Error::invalid_parameter;
    return Error::none;
  }

  // The uncontrolled skate with the rotor locked to the body (𝓘_i = I_i + J_i).
  PendulumSkateParams<S> locked() const { return {m, l, I1 + J1, I2 + J2, I3 + J3, g}; }
  // The skate the closed loop is equivalent to: inertia 𝕀̃ of (57) (I1 + J1²/σ may be < 0).
  PendulumSkateParams<S> matched(S sigma) const { return {m, l, I1 + J1 * J1 / sigma, I2 + J2, I3 + J3, g}; }
};

// Plant (44) reduced as above. x = (v1, v2, v3, Γ2, Γ3, θ̇).
template <class S>
struct PendulumSkateRotor {
  using Scalar = S;
  static constexpr int N = 6;
  using State = Vec<S, 6>;
  SkateRotorParams<S> p{};
  S torque = S(0);  // rotor motor torque u [N m], held over a step (the body feels −u)

  // The rotor-free part is the uncontrolled skate's field with the rotor locked (𝓘_i = I_i + J_i);
  // the torque changes only v̇1 (and the rotor's own rate).
  State field(const State& x, S u) const {
    const PendulumSkate<S> locked{p.locked()};
    const Vec<S, 5> z = x.template head<5>();
    const S v1d = (locked.roll_moment(z) - u) / p.Ibar1();  // (I1+ml²) v̇1 = X(ζ) − u
    State f;
    f << locked.field_given_roll_acceleration(z, v1d), u / p.J1 - v1d;  // (44b): J1(v̇1 + θ̈) = u
    return f;
  }
  State field(const State& x) const { return field(x, torque); }
  State operator()(const State& x) const { return field(x, torque); }

  // Rotor angular momentum π = J1(v1 + θ̇) (45); π̇ = u.
  S rotor_momentum(const State& x) const { return p.J1 * (x[0] + x[5]); }
  // Total energy of plant (rotor included): ½(I1+ml²)v1² + ½J1(v1+θ̇)² + rest of (30) with 𝓘2, 𝓘3.
  S energy(const State& x) const {
    const PendulumSkate<S> sk{PendulumSkateParams<S>{p.m, p.l, p.I1, p.I2 + p.J2, p.I3 + p.J3, p.g}};  // J1 apart
    const S w = x[0] + x[5];
    return sk.energy(Vec<S, 5>(x.template head<5>())) + S(0.5) * p.J1 * w * w;
  }
};

// The rotor skate's sensors and actuator, as a SIL plant produces them and a HIL frame carries
// them: measurement y (8) = Ω1 Ω2 Ω3 [rad/s] gyro, Y1 [m/s] blade speed, a1 a2 a3 measured upward
// vertical (accelerometer direction), θ̇ [rad/s] rotor rate relative to the body;
// command u (1) = rotor motor torque [N m].
template <class S>
struct SkateRotorSignals {
  static constexpr int measurement_dim = 8, command_dim = 1;
  static constexpr int gyro = 0, blade_speed = 3, vertical = 4, rotor_rate = 7;  // offsets in y
  using Measurement = Vec<S, measurement_dim>;
  using Command = Vec<S, command_dim>;
};

// Ideal sensors at the plant state x = (ζ, θ̇): Ω, Y from (33) on the constraint, Γ, θ̇.
template <class S>
Vec<S, 8> skate_rotor_measurement(const Vec<S, 6>& x) {
  Vec3<S> Om, Y;
  skate_body_rates<S>(x.template head<5>(), Om, Y);
  Vec<S, 8> y;
  y << Om, Y[0], S(0), x[3], x[4], x[5];
  return y;
}

// The rotor skate (44) as a feedback-integrator system (paper 000 §2.4): x as above, the one
// monitored invariant Γ2² + Γ3² = 1 (the reduced |Γ| = 1 with Γ1 = 0; the energy is not
// conserved under control). The firmware's on-target (SIL) plant.
template <class S>
struct SkateRotorPlant {
  using Scalar = S;
  static constexpr int N = 6;
  static constexpr int M = 1;
  PendulumSkateRotor<S> skate;
  void hold(const Vec<S, 1>& u) { skate.torque = u[0]; }
  static Vec<S, 8> measure(const Vec<S, 6>& x) { return skate_rotor_measurement<S>(x); }
  Vec<S, 6> field(const Vec<S, 6>& x) const { return skate.field(x); }
  Vec<S, 1> invariants(const Vec<S, 6>& x) const { return Vec<S, 1>(x[3] * x[3] + x[4] * x[4]); }
  Mat<S, 1, 6> invariants_jacobian(const Vec<S, 6>& x) const {
    Mat<S, 1, 6> J;
    J << S(0), S(0), S(0), S(2) * x[3], S(2) * x[4], S(0);
    return J;
  }
  // Fused grad V = DF^T K (F − F0) (integrate/system.hpp; paper 000 eq. (6)): the row above
  // without its four zeros.
  Vec<S, 6> feedback_gradient(const Vec<S, 6>& x, const Vec<S, 1>& F0, const Vec<S, 1>& K) const {
    const S e2 = S(2) * K[0] * (x[3] * x[3] + x[4] * x[4] - F0[0]);
    Vec<S, 6> g = Vec<S, 6>::Zero();
    g[3] = e2 * x[3];
    g[4] = e2 * x[4];
    return g;
  }
};

// The rotor skate as a HamelRotorModel (paper 003 (31), (54)–(55), Example 8's ad* and 𝐊).
template <class S>
struct SkateRotorHamel {
  using Scalar = S;
  // n = 6 (ξ ∈ se(3)), r = 3 blade constraints, s = 1 rotor, k = 3 (Γ).
  static constexpr int algebra_dim = 6, constraint_count = 3, rotor_count = 1, advected_dim = 3;
  Mat<S, 6, 6> G = Mat<S, 6, 6>::Zero();    // 𝔾_ij (Example 15)
  Mat<S, 6, 1> Gia = Mat<S, 6, 1>::Zero();  // 𝔾_ia = J1 e1
  Mat<S, 1, 1> Gab = Mat<S, 1, 1>::Zero();  // 𝔾_ab = J1

  PendulumSkateFull<S> body{};  // the skate with the rotor locked: 𝔾, ad*, 𝐊

  // 𝔾_ij is the locked skate's metric (34) with 𝓘_i = I_i + J_i (Example 15).
  static SkateRotorHamel from(const SkateRotorParams<S>& p) {
    SkateRotorHamel h;
    h.body = PendulumSkateFull<S>{p.locked()};
    h.G = h.body.metric();
    h.Gia(0, 0) = p.J1;
    h.Gab(0, 0) = p.J1;
    return h;
  }

  // ℰ(Γ) of (31): columns (E1,0), (Γ,0), (0,E1) | (E1×Γ,0), (0,Γ), (0,E1×Γ).
  Mat<S, 6, 6> basis(const Vec3<S>& Ga) const {
    const Vec3<S> e1(S(1), S(0), S(0));
    const Vec3<S> e1g = e1.cross(Ga);
    Mat<S, 6, 6> E = Mat<S, 6, 6>::Zero();
    E.template block<3, 1>(0, 0) = e1;
    E.template block<3, 1>(0, 1) = Ga;
    E.template block<3, 1>(3, 2) = e1;
    E.template block<3, 1>(0, 3) = e1g;
    E.template block<3, 1>(3, 4) = Ga;
    E.template block<3, 1>(3, 5) = e1g;
    return E;
  }
  // (32): Dℰ_2 = [I; 0], Dℰ_1 = Dℰ_3 = 0.
  Mat<S, 6, 3> basis_rate(const Vec3<S>&, const Vec3<S>& Gd) const {
    Mat<S, 6, 3> Ed = Mat<S, 6, 3>::Zero();
    Ed.template block<3, 1>(0, 1) = Gd;
    return Ed;
  }
  Vec<S, 6> ad_star(const Vec<S, 6>& xi, const Vec<S, 6>& mu) const { return PendulumSkateFull<S>::ad_star(xi, mu); }
  Vec3<S> advected_rate(const Vec<S, 6>& xi, const Vec3<S>& Ga) const {
    return Ga.cross(Vec3<S>(xi.template head<3>()));  // (21) Γ̇ = Γ × Ω
  }
  Vec<S, 6> potential_force(const Vec3<S>& Ga) const { return body.potential_force(Ga); }  // (20)
};

}  // namespace attractor
