// SPDX-License-Identifier: Apache-2.0
// The symmetric discrete Lagrangian the discrete nonholonomic integrators share (paper 001 §3,
// §5), on a cotangent model (cotangent_model.hpp) with L = ½ q̇ᵀm(q)q̇ − V(q):
//
//   L_d(q0, q1) = h [½ vᵀ m(q̄) v − (V(q0) + V(q1))/2],   v = (q1 − q0)/h,  q̄ = (q0 + q1)/2,
//
// the mass at the midpoint and the potential by the trapezoid rule. With a constant mass this is
// §5's L_d exactly (the nonholonomic Störmer–Verlet method); with the sleigh's m(θ) it is
// Example 3's discretisation (θ replaced by (θ0 + θ1)/2). Its discrete Legendre transforms
// (§3, F∓L_d), with kin(q, a) = ∇_q ½ aᵀm(q)⁻¹a the model's kinetic_gradient, which at
// a = m(q̄)v equals −∇_q ½ vᵀm(q)v:
//
//   p⁻ = −D1 L_d = m(q̄)v + (h/2) kin(q̄, m(q̄)v) + (h/2) ∇V(q0)
//   p⁺ =  D2 L_d = m(q̄)v − (h/2) kin(q̄, m(q̄)v) − (h/2) ∇V(q1)
//
// Given p⁻ the velocity solves m(q̄)v + (h/2) kin(q̄, m(q̄)v) = a := p⁻ − (h/2)∇V(q0): explicit
// when the mass is constant, otherwise a fixed number of fixed-point sweeps
// v ← m(q̄)⁻¹(a − (h/2) kin(q̄, m(q̄)v)), a contraction whose factor is O(h |v|).
//
// Optional model members, detected:
//   static constexpr bool constant_mass = true;  m(q) does not vary (one sweep is exact)
//   S time;                                      a clock the model's forces read (prescribed
//                                                controls as a time-dependent V); the
//                                                integrators set it to t_k and t_{k+1}
//                                                before evaluating ∇V there.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/cotangent_model.hpp"

namespace attractor {

namespace detail {
template <class T, class = void>
struct declares_constant_mass : std::false_type {};
template <class T>
struct declares_constant_mass<T, std::enable_if_t<T::constant_mass>> : std::true_type {};
template <class T, class = void>
struct has_model_clock : std::false_type {};
template <class T>
struct has_model_clock<T, std::void_t<decltype(std::declval<T&>().time = typename T::Scalar(0))>> : std::true_type {};
}  // namespace detail

template <class Model>
class MidpointLagrangian {
  static_assert(check_cotangent_model<Model>(), "MidpointLagrangian<Model>: see nonholonomic/cotangent_model.hpp");

 public:
  using S = typename Model::Scalar;
  static constexpr int Q = Model::Q;
  static constexpr int K = Model::K;
  using Config = Vec<S, Q>;
  static constexpr bool constant_mass = detail::declares_constant_mass<Model>::value;
  static constexpr bool timed = detail::has_model_clock<Model>::value;

  // A solve has converged when its last sweep moved v by at most this, relative to 1 + |v|∞:
  // a few hundred roundings, far below any step's truncation error.
  static constexpr S tolerance = S(1000) * std::numeric_limits<S>::epsilon();

  MidpointLagrangian() = default;
  explicit MidpointLagrangian(const Model& model) : model_(model) {}
  const Model& model() const { return model_; }
  Model& model() { return model_; }

  void set_time(S t) {
    if constexpr (timed)
      model_.time = t;
    else
      (void)t;
  }

  // μᵀ(q) = m(q)E(q): the constraint one-forms (§2's μ^a, rows of μ) as columns. The model's
  // constraints ⟨p, e_i⟩ = 0 with p = m q̇ are μ q̇ = 0 with μ = Eᵀm.
  Mat<S, Q, K> constraint_forms(const Config& q) const { return model_.mass(q) * model_.constraint_fields(q); }

  // v with m(q̄)v + (h/2) kin(q̄, m(q̄)v) = a, q̄ = q0 + (h/2)v, starting from v; `sweeps` fixed
  // sweeps. Returns true when the last one converged (always for a constant mass).
  bool solve_velocity(const Config& q0, const Config& a, S h, int sweeps, Config& v) const {
    if constexpr (constant_mass) {
      (void)sweeps;
      v = model_.inverse_mass(q0) * a;
      return true;
    } else {
      S last = S(0);
      for (int n = 0; n < sweeps; ++n) {
        const Config qb = q0 + (h / S(2)) * v;
        const Config mv = model_.mass(qb) * v;
        const Config next = model_.inverse_mass(qb) * (a - (h / S(2)) * model_.kinetic_gradient(qb, mv));
        last = (next - v).template lpNorm<Eigen::Infinity>();
        v = next;
      }
      return converged(last, v);
    }
  }

  // p⁻ = −D1 L_d(q0, q0 + h v), given ∇V(q0): the momentum a step from q0 to q0 + h v starts from.
  Config pre_momentum(const Config& q0, const Config& v, S h, const Config& grad0) const {
    if constexpr (constant_mass) {
      return model_.mass(q0) * v + (h / S(2)) * grad0;
    } else {
      const Config qb = q0 + (h / S(2)) * v;
      const Config mv = model_.mass(qb) * v;
      return mv + (h / S(2)) * model_.kinetic_gradient(qb, mv) + (h / S(2)) * grad0;
    }
  }

  // p⁺ = D2 L_d(q0, q0 + h v), given ∇V(q1).
  Config post_momentum(const Config& q0, const Config& v, S h, const Config& grad1) const {
    if constexpr (constant_mass) {
      return model_.mass(q0) * v - (h / S(2)) * grad1;
    } else {
      const Config qb = q0 + (h / S(2)) * v;
      const Config mv = model_.mass(qb) * v;
      return mv - (h / S(2)) * model_.kinetic_gradient(qb, mv) - (h / S(2)) * grad1;
    }
  }

  static bool converged(S last_correction, const Config& v) {
    return last_correction <= tolerance * (S(1) + v.template lpNorm<Eigen::Infinity>());  // false on NaN
  }

 private:
  Model model_{};
};

}  // namespace attractor
