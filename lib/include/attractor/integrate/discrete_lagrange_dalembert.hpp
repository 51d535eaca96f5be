// SPDX-License-Identifier: Apache-2.0
// The discrete Lagrange–d'Alembert (DLA) integrator (Cortés–Martínez; the method paper 001
// compares with in Examples 1 and 3), a Stepper (stepper.hpp) on a cotangent model
// (nonholonomic/cotangent_model.hpp), with the midpoint discrete Lagrangian L_d of
// nonholonomic/midpoint_lagrangian.hpp and the constraints discretised at the midpoint:
//
//   D1 L_d(q_k, q_{k+1}) + p_k = μᵀ(q_k) λ_k          (discrete LdA: virtual displacements in D_{q_k})
//   μ(q̄) (q_{k+1} − q_k) = 0,   q̄ = (q_k + q_{k+1})/2  (the discrete constraint)
//   p_{k+1} = D2 L_d(q_k, q_{k+1})                      (post-momentum, this state's p)
//
// with μᵀ = m E. The discrete constraint is the one paper 001 uses for both its examples:
// Example 1's (z2 − z1) − ((y1 + y2)/2)(x2 − x1) = 0 and Example 3's
// (x2 − x1) sin((θ1 + θ2)/2) − (y2 − y1) cos((θ1 + θ2)/2) = 0 are μ(q̄)Δq = 0 (the paper notes a
// one-sided μ(q_k) makes the sleigh's error 10–100 times larger).
// DlaConstraint::one_sided is that variant, for comparison: μ(q_k)(q_{k+1} − q_k) = 0, Example 3's
// (x2 − x1) sin θ1 − (y2 − y1) cos θ1 = 0. The same solve with the constraint rows
// G = mE_kᵀ m(q̄)⁻¹ in place of E(q̄)ᵀ (the constraint mE_kᵀ v = 0 on v = m(q̄)⁻¹(b − mE_k λ)).
//
// The solve. Unknowns v = (q_{k+1} − q_k)/h and λ; with r = p_k − (h/2)∇V(q_k), mE_k = m(q_k)E(q_k):
//   m(q̄)v + (h/2) kin(q̄, m(q̄)v) = r − mE_k λ,   E(q̄)ᵀ m(q̄) v = 0.
// A fixed number of sweeps (default 12) each solves the equations with q̄ and the kin term frozen
// at the last v: λ = (E(q̄)ᵀ mE_k)⁻¹ E(q̄)ᵀ b, v = m(q̄)⁻¹(b − mE_k λ), b = r − (h/2)kin(q̄, m(q̄)v)
// (a K×K solve, small_inverse). The map is a contraction with factor O(h |v| |De|) (q̄ moves
// with v by h/2), so the sweeps converge linearly; no early exit (fixed cost).
//
// What it preserves: the discrete constraint, to rounding; the discrete nonholonomic momentum map
// (Example 1: eqs. (14a), (14b)). Positions are second order; no energy preservation (paper's
// Figure 2). The state's p is the post-momentum D2 L_d, which carries the constraint impulse of
// q_k but none of q_{k+1}'s: it violates Eᵀp = 0 by O(h) (the particle: (h/2)ẋẏ), so as an
// approximation of p(t) it is first order along μᵀ (second order in the directions of D).
//
// Errors (state unchanged): Error::singular when the last sweep still moved v by more than
// MidpointLagrangian::tolerance (1 + |v|∞) (the solve did not converge: h too large for the
// motion), or E(q̄)ᵀ mE_k is singular; Error::non_finite when the step is not finite. A step from
// an x other than the last one returned restarts there (p_0 = p(0): the post-momentum).
// make_from_pair starts from a given pair (q_0, q_1), the form paper 001 gives Example 3's data
// in: p_0 = −D1 L_d(q_0, q_1) (λ_0 = 0), so the first step lands on q_1 (to rounding) when the pair
// satisfies the discrete constraint; pair_residual is that constraint's value μ(q̄ or q_0)(q_1 − q_0).
#pragma once

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/midpoint_lagrangian.hpp"
#include "attractor/nonholonomic/small_inverse.hpp"

namespace attractor {

// Where the discrete constraint μ(q)(q_{k+1} − q_k) = 0 takes μ: at the midpoint q̄ (the default,
// the paper's choice) or at q_k (one-sided, the variant the paper reports as 10–100 times worse).
enum class DlaConstraint : unsigned char { midpoint, one_sided };

template <class Model>
class DiscreteLagrangeDAlembert {
  using Lagrangian = MidpointLagrangian<Model>;

 public:
  using Scalar = typename Model::Scalar;
  using S = Scalar;
  static constexpr int Q = Model::Q;
  static constexpr int K = Model::K;
  static constexpr int N = 2 * Q;
  using State = Vec<S, N>;
  using Config = Vec<S, Q>;
  static constexpr int default_sweeps = 12;

  static Result<DiscreteLagrangeDAlembert> make(const Model& model, const State& x0, S t0 = S(0),
                                                int sweeps = default_sweeps,
                                                DlaConstraint constraint = DlaConstraint::midpoint) {
    if (!all_finite(x0) || !is_finite(t0)) return Error::non_finite;
    if (sweeps < 1) return Error::invalid_parameter;
    DiscreteLagrangeDAlembert d;
    d.L_ = Lagrangian(model);
    d.sweeps_ = sweeps;
    d.constraint_ = constraint;
    d.t_ = t0;
    const Error e = d.restart(x0);
    if (e != Error::none) return e;
    return d;
  }

  // From the pair (q0, q1 = the configuration at t0 + h); h must be the run's step.
  static Result<DiscreteLagrangeDAlembert> make_from_pair(const Model& model, const Config& q0, const Config& q1, S h,
                                                          S t0 = S(0), int sweeps = default_sweeps,
                                                          DlaConstraint constraint = DlaConstraint::midpoint) {
    if (!all_finite(q0) || !all_finite(q1) || !is_finite(t0) || !is_finite(h)) return Error::non_finite;
    if (!(h > S(0))) return Error::invalid_parameter;
    Lagrangian L(model);
    L.set_time(t0);
    State x0;
    x0 << q0, L.pre_momentum(q0, Config((q1 - q0) / h), h, Config(L.model().potential_gradient(q0)));
    return make(model, x0, t0, sweeps, constraint);
  }

  // The discrete constraint at the pair: μ(q̄)(q1 − q0) (midpoint) or μ(q0)(q1 − q0) (one-sided).
  static Vec<S, K> pair_residual(const Model& model, const Config& q0, const Config& q1,
                                 DlaConstraint constraint = DlaConstraint::midpoint) {
    const Config at = constraint == DlaConstraint::midpoint ? Config((q0 + q1) / S(2)) : q0;
    return model.constraint_fields(at).transpose() * (model.mass(at) * (q1 - q0));
  }

  [[nodiscard]] Error step(State& x, S h) {
    if (x != x_) {
      const Error e = restart(x);
      if (e != Error::none) return e;
    }
    const Error e = step(h);
    x = x_;
    return e;
  }

  [[nodiscard]] Error step(S h) {
    const Model& m = L_.model();
    const Config q = x_.template head<Q>();
    const Config r = x_.template tail<Q>() - (h / S(2)) * grad_;
    const Mat<S, Q, K> mE = L_.constraint_forms(q);
    Config v;
    Vec<S, K> lambda;
    S last = S(0);
    if (!sweep(q, r, mE, h, m.inverse_mass(q) * r, v, lambda, last)) return Error::singular;
    for (int n = 1; n < sweeps_; ++n)
      if (!sweep(q, r, mE, h, v, v, lambda, last)) return Error::singular;
    if (!Lagrangian::converged(last, v)) return Error::singular;
    const Config q1 = q + h * v;
    L_.set_time(t_ + h);
    const Config grad1 = m.potential_gradient(q1);
    const Config p1 = L_.post_momentum(q, v, h, grad1);
    if (!all_finite(q1) || !all_finite(p1) || !all_finite(grad1)) {
      L_.set_time(t_);
      return Error::non_finite;
    }
    x_ << q1, p1;
    grad_ = grad1;
    lambda_ = lambda;
    t_ += h;
    return Error::none;
  }

  const State& state() const { return x_; }
  const Vec<S, K>& multiplier() const { return lambda_; }  // λ_k of the last step
  S time() const { return t_; }
  const Model& model() const { return L_.model(); }
  DlaConstraint constraint() const { return constraint_; }

 private:
  // One frozen-coefficient sweep from v_in (see the header). False when the K×K matrix is singular.
  bool sweep(const Config& q, const Config& r, const Mat<S, Q, K>& mE, S h, const Config& v_in, Config& v_out,
             Vec<S, K>& lambda, S& correction) const {
    const Model& m = L_.model();
    const Config qb = q + (h / S(2)) * v_in;
    Config b = r;
    Mat<S, Q, Q> mb_inv;
    if constexpr (Lagrangian::constant_mass) {
      mb_inv = m.inverse_mass(q);
    } else {
      mb_inv = m.inverse_mass(qb);
      b -= (h / S(2)) * m.kinetic_gradient(qb, Config(m.mass(qb) * v_in));
    }
    // G m(q̄) v = G (b − mE λ) = 0: midpoint E(q̄)ᵀ m(q̄) v = 0, one-sided mE_kᵀ v = 0.
    const Mat<S, K, Q> G = constraint_ == DlaConstraint::midpoint ? Mat<S, K, Q>(m.constraint_fields(qb).transpose())
                                                                  : Mat<S, K, Q>(mE.transpose() * mb_inv);
    const Mat<S, K, K> Ainv = small_inverse<S, K>(Mat<S, K, K>(G * mE));
    if (!all_finite(Ainv)) return false;
    lambda = Ainv * (G * b);
    const Config next = mb_inv * (b - mE * lambda);
    correction = (next - v_in).template lpNorm<Eigen::Infinity>();
    v_out = next;
    return true;
  }

  Error restart(const State& x) {
    if (!all_finite(x)) return Error::non_finite;
    L_.set_time(t_);
    const Config grad = L_.model().potential_gradient(x.template head<Q>());
    if (!all_finite(grad)) return Error::non_finite;
    x_ = x;
    grad_ = grad;
    lambda_.setZero();
    return Error::none;
  }

  Lagrangian L_{};
  State x_ = State::Zero();
  Vec<S, K> lambda_ = Vec<S, K>::Zero();
  Config grad_ = Config::Zero();  // ∇V(q_k) at t_k
  S t_ = S(0);
  int sweeps_ = default_sweeps;
  DlaConstraint constraint_ = DlaConstraint::midpoint;
};

}  // namespace attractor
