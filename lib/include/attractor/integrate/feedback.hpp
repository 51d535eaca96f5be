// SPDX-License-Identifier: Apache-2.0
// The feedback integrator (Chang & Perlmutter; paper 000 §2, eqs. (1)-(6) and Remark 2.12;
// paper 002 §2.2 eq. (6)):
//
//     x' = X(x) - L DF(x)^T K (F(x) - F(x0)),
//
// the gradient flow of V(x) = 1/2 (F(x)-F0)^T K (F(x)-F0) added to the extended vector field
// X. The invariant set V^{-1}(0) is an attractor of the modified field, so any explicit
// scheme applied to it stays near the constraints and first integrals without projection.
//
// The System it wraps (field X, invariants F, their analytic Jacobian DF, and the optional fused
// hooks used in place of the generic product) is the contract of integrate/system.hpp, checked at
// compile time.
#pragma once

#include <type_traits>

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/system.hpp"

namespace attractor {

// L = identity (the paper's experiments).
struct IdentityMetric {
  template <class Derived>
  const Derived& operator()(const Eigen::MatrixBase<Derived>& g) const {
    return g.derived();
  }
};

// A constant symmetric positive-definite L (paper 000 Remark 2.12): shapes how fast each
// direction of the ambient space is pulled back to the invariant set.
template <class S, int N>
struct ConstantMetric {
  Mat<S, N, N> L = Mat<S, N, N>::Identity();
  Vec<S, N> operator()(const Vec<S, N>& g) const { return L * g; }
};

template <class System, class Metric = IdentityMetric>
class Feedback {
  static_assert(check_system<System>(), "Feedback<System>: System must meet the contract of integrate/system.hpp");
  using Checked = checked_system_t<System>;  // System, or a stand-in once check_system has failed

 public:
  using Scalar = typename Checked::Scalar;
  static constexpr int N = Checked::N;
  static constexpr int M = Checked::M;
  using State = Vec<Scalar, N>;
  using Invariants = Vec<Scalar, M>;

  // Gains must be finite and >= 0 (a zero gain leaves that invariant unmonitored).
  static Result<Feedback> make(const System& sys, const State& x0, const Invariants& gains,
                               const Metric& metric = Metric{}) {
    if (!all_finite(x0) || !all_finite(gains)) return Error::non_finite;
    for (int i = 0; i < M; ++i)
      if (gains[i] < Scalar(0)) return Error::invalid_parameter;
    return Feedback(sys, invariant_reference(sys, contract_checked(sys).invariants(x0)), gains, metric);
  }

  Feedback() = default;
  Feedback(const System& sys, const Invariants& reference, const Invariants& gains, const Metric& metric = Metric{})
      : sys_(sys), F0_(reference), K_(gains), metric_(metric) {}

  // The feedback field X(x) - L DF(x)^T K (F(x) - F0).
  ATTRACTOR_ALWAYS_INLINE State operator()(const State& x) const {
    if constexpr (has_feedback_field_v<System> && std::is_same<Metric, IdentityMetric>::value) {
      return sys_.feedback_field(x, F0_, K_);
    } else {
      return contract_checked(sys_).field(x) - State(metric_(gradient(x)));
    }
  }

  // The same from field(), invariants() and invariants_jacobian() only, without the system's
  // fused hooks (the reference they must match).
  State generic_field(const State& x) const {
    return contract_checked(sys_).field(x) - State(metric_(generic_gradient(x)));
  }

  // grad V(x) = DF(x)^T K (F(x) - F0): the system's fused feedback_gradient when it has one.
  State gradient(const State& x) const {
    if constexpr (has_feedback_gradient_v<System>) {
      return sys_.feedback_gradient(x, F0_, K_);
    } else {
      return generic_gradient(x);
    }
  }

  // The same from invariants() and invariants_jacobian() (the reference a fused one must match).
  ATTRACTOR_FLATTEN State generic_gradient(const State& x) const {
    const Invariants dF = K_.cwiseProduct(contract_checked(sys_).invariants(x) - F0_);
    // lazyProduct: coefficient by coefficient, inlined. The plain product of a Jacobian of 20 or
    // more entries (full skate: 8x9) goes through Eigen's general matrix-vector kernel, which is
    // never inlined: a call per evaluation.
    return contract_checked(sys_).invariants_jacobian(x).transpose().lazyProduct(dF);
  }

  // V(x) = 1/2 (F-F0)^T K (F-F0): zero exactly on the invariant set.
  Scalar lyapunov(const State& x) const {
    const Invariants d = contract_checked(sys_).invariants(x) - F0_;
    return Scalar(0.5) * d.dot(K_.cwiseProduct(d));
  }

  // Upper bound of the largest eigenvalue of L DF^T K DF at x (its trace, for L = I; the
  // matrix is positive semidefinite). h * stiffness must stay inside the scheme's real
  // stability interval or the feedback term itself makes the step diverge.
  Scalar stiffness(const State& x) const {
    const Mat<Scalar, M, N> J = contract_checked(sys_).invariants_jacobian(x);
    Scalar s(0);
    for (int i = 0; i < M; ++i) s += K_[i] * J.row(i).squaredNorm();
    return s;
  }

  // Refuses a step size whose feedback term is unstable for the scheme at state x
  // (unstable gain choice): Error::outside_stability_range, with the margin documented above.
  Error check_step(Scheme scheme, Scalar h, const State& x) const {
    if (!is_finite(h) || !(h > Scalar(0))) return Error::invalid_parameter;
    if (h * stiffness(x) >= real_stability_limit<Scalar>(scheme)) return Error::outside_stability_range;
    return Error::none;
  }

  const System& system() const { return sys_; }
  System& system() { return sys_; }
  const Invariants& reference() const { return F0_; }
  void set_reference(const Invariants& F0) { F0_ = F0; }
  const Invariants& gains() const { return K_; }

 private:
  System sys_{};
  Invariants F0_ = Invariants::Zero();
  Invariants K_ = Invariants::Zero();
  Metric metric_{};
};

// Feedback gains that give every gain group the same pull-back rate `rate` [1/s] over the
// sample states: K_g = rate |g| / max_k sum_{i in g} |grad F_i(x_k)|^2 for the rows i of group g
// (integrate/system.hpp; every row its own group unless the system declares gain_group). The
// invariants have very different scales (E ~ m g l, a constraint ~ 1), hence one gain per
// group. Then Feedback::stiffness <= M rate on the region the samples span (each group adds at
// most |g| rate), so h M rate must stay inside the scheme's stability interval. With one group
// per row this is K_i = rate / max_k |grad F_i(x_k)|^2.
template <class System, int Count>
Vec<typename System::Scalar, System::M> balanced_gains(const System& sys,
                                                       const Vec<typename System::Scalar, System::N> (&samples)[Count],
                                                       typename System::Scalar rate) {
  using S = typename System::Scalar;
  constexpr int M = System::M;
  Vec<S, M> group_norm2 = Vec<S, M>::Zero();  // max over samples of the group's sum of |grad F_i|^2
  for (int k = 0; k < Count; ++k) {
    const Mat<S, M, System::N> J = sys.invariants_jacobian(samples[k]);
    Vec<S, M> sum = Vec<S, M>::Zero();
    for (int i = 0; i < M; ++i) sum[gain_group_of<System>(i)] += J.row(i).squaredNorm();
    for (int g = 0; g < M; ++g) group_norm2[g] = group_norm2[g] > sum[g] ? group_norm2[g] : sum[g];
  }
  Vec<S, M> rows_in_group = Vec<S, M>::Zero();
  for (int i = 0; i < M; ++i) rows_in_group[gain_group_of<System>(i)] += S(1);
  Vec<S, M> K;
  for (int i = 0; i < M; ++i) {
    const int g = gain_group_of<System>(i);
    K[i] = group_norm2[g] > S(1e-12) * rows_in_group[g] ? rate * rows_in_group[g] / group_norm2[g] : rate;
  }
  return K;
}
// The same at the single state x0.
template <class System>
Vec<typename System::Scalar, System::M> balanced_gains(const System& sys,
                                                       const Vec<typename System::Scalar, System::N>& x0,
                                                       typename System::Scalar rate) {
  const Vec<typename System::Scalar, System::N> samples[1] = {x0};
  return balanced_gains(sys, samples, rate);
}

// Convenience: build the wrapper with the reference taken at x0 (invariant_reference; unchecked; use make() when
// the inputs come from outside).
template <class System>
Feedback<System> feedback(const System& sys, const Vec<typename System::Scalar, System::N>& x0,
                          const Vec<typename System::Scalar, System::M>& gains) {
  return Feedback<System>(sys, invariant_reference(sys, contract_checked(sys).invariants(x0)), gains);
}

}  // namespace attractor
