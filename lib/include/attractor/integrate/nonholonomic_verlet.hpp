// SPDX-License-Identifier: Apache-2.0
// The nonholonomic Störmer–Verlet method (paper 001 §5, eqs. (11a)–(11e); McLachlan–Perlmutter's
// reversible method), a Stepper (stepper.hpp) on a cotangent model (nonholonomic/
// cotangent_model.hpp), the same model the feedback adapter (CotangentExtension) integrates:
//
//   p⁻       = p̃_k − (h/2) μᵀ(q_k) λ̃_k                 (11a with the kick split off)
//   q_{k+1}  = q_k + h v,  m(q̄)v + (h/2)kin(q̄, m(q̄)v) = p⁻ − (h/2)∇V(q_k)        (11a, 11b)
//   p⁺       = D2 L_d(q_k, q_{k+1})                        (= p_{k+1/2} − (h/2)∇V(q_{k+1}))
//   p̃_{k+1} = p⁺ − (h/2) μᵀ(q_{k+1}) λ̃_{k+1},  E(q_{k+1})ᵀ p̃_{k+1} = 0           (11d, 11e)
//
// with μᵀ = m E (the model's constraints ⟨p, e_i⟩ = 0 are μ q̇ = 0), L_d the midpoint
// Lagrangian (nonholonomic/midpoint_lagrangian.hpp): for a constant mass p⁻ − (h/2)∇V = p_{k+1/2}
// and this is (11) as printed; for a varying mass it is the general method (4)/(5) with that
// L_d (Example 3). The multiplier is one K×K solve: λ̃_{k+1} = (2/h) G⁻¹ Eᵀp⁺, G = Eᵀ m E at
// q_{k+1} (small_inverse), which makes p̃_{k+1} = P*p⁺ (the projection onto the constraint set)
// and p⁻ = (P − Q)* p⁺ across the next step: eq. (6), the reflection.
//
// What it preserves (§4): p̃ (the average momentum (9), the method's momentum and this state's
// p) satisfies the constraints exactly, to rounding; the discrete nonholonomic momentum map of a
// horizontal symmetry (Corollary 4); the energy when V = 0 and the metric is bi-invariant on a
// Lie group (Theorem 1; e.g. Example 1's particle, m constant on R³). Second order.
//
// The state. The method's state is the triple (q_k, p̃_k, λ̃_k): λ̃_k is the jump between the
// one-sided momenta, p∓ = p̃_k ∓ (h/2)μᵀλ̃_k, which p̃ does not determine. The Stepper's state
// x = (q, p̃) is the cotangent state; λ̃ is held inside (multiplier()). A step from an x other
// than the last one returned restarts there:
//   Start::remark5     λ̃_0 = 0 (paper Remark 5; the paper's "p̃_0 = ∂L_d/∂q_0" has a sign
//                      misprint: it is −D1 L_d = M(q1 − q0)/h + (h/2)V_q(q0), the formula
//                      printed beside it). The first half kick then lacks the constraint force:
//                      p_{1/2} is off by (h/2)μᵀλ(0), q_1 by O(h²). And since (11d)/(11e) give
//                      λ̃_{k+1} ≈ 2λ(t) − λ̃_k, the start-up error λ(0) − λ̃_0 persists as a
//                      period-two oscillation of λ̃ (the central-difference constraint (10b)'s
//                      parasitic root −1): the one-sided momenta p∓ and p_{k+1/2} carry
//                      ±(h/2)μᵀλ(0) (−1)^k, an O(h) zig-zag; p̃ and the order (2) are unaffected,
//                      q zig-zags by O(h²) (measured in host-tests/unit/nonholonomic_baselines).
//   Start::consistent  (default) λ̃_0 = λ(q_0, p_0), the continuous Lagrange–d'Alembert
//                      multiplier (from CotangentExtension: ṗ = −∂H/∂q − μᵀλ on the constraint
//                      set, so λ = −λ̃_ext), which removes the oscillation.
// The period-two mode is not damped: it follows the reversed flow, so where the continuous
// motion contracts it grows at the contraction rate (the sleigh's straight run, rate
// amv/(I + ma²); from Remark 5's start the run leaves the motion after ~8 time units of it, from
// the consistent start some time later: a long-run limit of this symmetric method on systems
// with attracting motions, measured in host-tests/unit/nonholonomic_baselines).
// p_0 off the constraint set is replaced by P*p_0, its projection (11c must hold).
// make_from_pair starts from a given pair (q_0, q_1), the form paper 001 gives Example 3's data
// in: p⁻ = −D1 L_d(q_0, q_1) splits into p̃_0 = P*p⁻ and λ̃_0 (p⁻ = p̃_0 − (h/2)μᵀλ̃_0), so the
// first step of h lands on q_1 (to rounding). Any pair is accepted: the method's discrete
// constraint (10b) links three configurations, and λ̃_0 takes up the pair's component along μᵀ.
// A later restart from another state uses the consistent start.
//
// Errors (state unchanged): Error::non_finite (step not finite), Error::singular (a varying
// mass's velocity solve did not converge in its fixed sweeps: h too large for the motion; or the
// Gram matrix is singular, i.e. the constraints are dependent there). Fixed cost per step: one
// ∇V, one K×K inverse, `sweeps` mass evaluations when the mass varies.
#pragma once

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/cotangent_extension.hpp"
#include "attractor/nonholonomic/midpoint_lagrangian.hpp"
#include "attractor/nonholonomic/small_inverse.hpp"

namespace attractor {

template <class Model>
class NonholonomicVerlet {
  using Lagrangian = MidpointLagrangian<Model>;

 public:
  using Scalar = typename Model::Scalar;
  using S = Scalar;
  static constexpr int Q = Model::Q;
  static constexpr int K = Model::K;
  static constexpr int N = 2 * Q;
  using State = Vec<S, N>;
  using Config = Vec<S, Q>;
  enum class Start { remark5, consistent };
  static constexpr int default_sweeps = Lagrangian::constant_mass ? 1 : 12;

  static Result<NonholonomicVerlet> make(const Model& model, const State& x0, Start start = Start::consistent,
                                         S t0 = S(0), int sweeps = default_sweeps) {
    if (!all_finite(x0) || !is_finite(t0)) return Error::non_finite;
    if (sweeps < 1) return Error::invalid_parameter;
    NonholonomicVerlet v;
    v.L_ = Lagrangian(model);
    v.start_ = start;
    v.sweeps_ = sweeps;
    v.t_ = t0;
    const Error e = v.restart(x0);
    if (e != Error::none) return e;
    return v;
  }

  // From the pair (q0, q1 = the configuration at t0 + h); h must be the run's step.
  static Result<NonholonomicVerlet> make_from_pair(const Model& model, const Config& q0, const Config& q1, S h,
                                                   S t0 = S(0), int sweeps = default_sweeps) {
    if (!all_finite(q0) || !all_finite(q1) || !is_finite(t0) || !is_finite(h)) return Error::non_finite;
    if (sweeps < 1 || !(h > S(0))) return Error::invalid_parameter;
    NonholonomicVerlet v;
    v.L_ = Lagrangian(model);
    v.sweeps_ = sweeps;
    v.t_ = t0;
    v.L_.set_time(t0);
    const Config grad = v.L_.model().potential_gradient(q0);  // at t0 (a timed model)
    const Config p_minus = v.L_.pre_momentum(q0, Config((q1 - q0) / h), h, grad);
    Config p;
    Vec<S, K> w;
    if (!v.project(q0, p_minus, p, w)) return Error::singular;
    const Vec<S, K> lambda = -(S(2) / h) * w;  // p̃ = p⁻ − mE w = p⁻ + (h/2) mE λ̃
    if (!all_finite(p) || !all_finite(lambda) || !all_finite(grad)) return Error::non_finite;
    v.x_ << q0, p;
    v.lambda_ = lambda;
    v.grad_ = grad;
    return v;
  }

  // The stepper call shape: x is normally the state the last step returned; another x restarts.
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
    const Config p_minus = x_.template tail<Q>() - (h / S(2)) * (L_.constraint_forms(q) * lambda_);
    const Config a = p_minus - (h / S(2)) * grad_;
    Config v = m.inverse_mass(q) * a;
    if (!L_.solve_velocity(q, a, h, sweeps_, v)) return Error::singular;
    const Config q1 = q + h * v;
    L_.set_time(t_ + h);
    const Config grad1 = m.potential_gradient(q1);
    const Config p_plus = L_.post_momentum(q, v, h, grad1);
    Vec<S, K> w;
    Config p1;
    if (!project(q1, p_plus, p1, w)) {
      L_.set_time(t_);
      return Error::singular;
    }
    const Vec<S, K> lambda1 = (S(2) / h) * w;
    if (!all_finite(q1) || !all_finite(p1) || !all_finite(lambda1) || !all_finite(grad1)) {
      L_.set_time(t_);
      return Error::non_finite;
    }
    x_ << q1, p1;
    lambda_ = lambda1;
    grad_ = grad1;
    t_ += h;
    return Error::none;
  }

  const State& state() const { return x_; }
  const Vec<S, K>& multiplier() const { return lambda_; }  // λ̃_k, paper's sign (11a)
  S time() const { return t_; }
  const Model& model() const { return L_.model(); }

 private:
  // p̃ = P*p = p − mE w with w = G⁻¹Eᵀp, G = Eᵀ m E at q. False when G is singular.
  bool project(const Config& q, const Config& p, Config& projected, Vec<S, K>& w) const {
    const Model& m = L_.model();
    const Mat<S, Q, K> E = m.constraint_fields(q);
    const Mat<S, Q, K> mE = m.mass(q) * E;
    const Mat<S, K, K> Ginv = small_inverse<S, K>(Mat<S, K, K>(E.transpose() * mE));
    if (!all_finite(Ginv)) return false;
    w = Ginv * (E.transpose() * p);
    projected = p - mE * w;
    return true;
  }

  Error restart(const State& x) {
    if (!all_finite(x)) return Error::non_finite;
    L_.set_time(t_);
    const Config q = x.template head<Q>();
    Config p;
    Vec<S, K> w;
    if (!project(q, x.template tail<Q>(), p, w)) return Error::singular;
    State xs;
    xs << q, p;
    Vec<S, K> lambda = Vec<S, K>::Zero();
    if (start_ == Start::consistent) {
      const CotangentExtension<Model> ext(L_.model());
      lambda = -ext.multipliers(ext.terms(xs), xs);
    }
    const Config grad = L_.model().potential_gradient(q);
    if (!all_finite(lambda) || !all_finite(grad) || !all_finite(p)) return Error::non_finite;
    x_ = xs;
    lambda_ = lambda;
    grad_ = grad;
    return Error::none;
  }

  Lagrangian L_{};
  State x_ = State::Zero();
  Vec<S, K> lambda_ = Vec<S, K>::Zero();  // λ̃_k
  Config grad_ = Config::Zero();          // ∇V(q_k) at t_k, reused (first-same-as-last)
  S t_ = S(0);
  int sweeps_ = default_sweeps;
  Start start_ = Start::consistent;
};

}  // namespace attractor
