// SPDX-License-Identifier: Apache-2.0
// Paper 001's discrete nonholonomic integrators as attractor-sim baselines ("extra methods",
// hil/cli/feedback_entry.hpp) of any entry whose System is a CotangentExtension (sys.model() a
// cotangent model): --method nh-verlet (integrate/nonholonomic_verlet.hpp, the consistent
// start-up: the continuous multiplier), --method nh-verlet-remark5 (the same method from paper
// 001 Remark 5's start, multiplier 0), --method dla (integrate/discrete_lagrange_dalembert.hpp, the
// midpoint discrete constraint) or --method dla-one-sided (the same with the constraint at q_k, the
// variant paper 001 reports as one to two orders less accurate).
// An entry declares (in this order: the index is the method)
//
//   static constexpr const char* extra_methods[] = {"nh-verlet", "dla", "nh-verlet-remark5", "dla-one-sided"};
//   template <class S> struct Extra : sim::DiscreteNonholonomicExtra<MyModel<S>> {};
//
// The start (--start, chosen before start() by choose_start): consistent (nh-verlet: the continuous
// multiplier; dla: p_0 as given), remark5 (nh-verlet: multiplier 0; nh-verlet-remark5 always
// starts so), or pair: from (q_0, q_1), q_0 the state's and q_1 the configuration at t_0 + h
// (make_from_pair); the state then starts with the momentum the pair determines (started()).
// A dla pair off the method's discrete constraint is refused, naming the rule and the residual.
//
// A step that fails stops the run (exit 4, "stopped"): dla_not_converged (its fixed sweeps did
// not converge: h too large), nh_verlet_no_solution (a varying mass's solve, or dependent
// constraints), *_non_finite. Host tool.
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "attractor/integrate/discrete_lagrange_dalembert.hpp"
#include "attractor/integrate/nonholonomic_verlet.hpp"

namespace attractor::sim {

inline constexpr const char* discrete_nonholonomic_notes =
    "baselines (paper 001): nh-verlet is the nonholonomic Stormer-Verlet method (eq. (11)), started\n"
    "with the continuous multiplier; nh-verlet-remark5 the same from Remark 5's start (multiplier 0:\n"
    "an O(h) period-two zig-zag of the one-sided momenta, O(h^2) in q); dla the discrete\n"
    "Lagrange-d'Alembert method with the midpoint discrete constraint, a fixed number of sweeps\n"
    "(dla-one-sided: the constraint at q_k, for comparison); a step that does not converge stops the\n"
    "run (exit 4). --start consistent|remark5|pair: the discrete methods' start (remark5: nh-verlet's\n"
    "multiplier 0; pair: from q0 and --q1, the configuration at t = h, which a dla pair must give on\n"
    "its discrete constraint, else exit 5). See docs/nonholonomic-baselines.md.\n";

enum class DiscreteStart { consistent, remark5, pair };

template <class Model>
struct DiscreteNonholonomicExtra {
  using S = typename Model::Scalar;
  static constexpr int N = 2 * Model::Q;
  static constexpr int discrete_q = Model::Q;  // --q1 takes this many numbers
  NonholonomicVerlet<Model> verlet;
  DiscreteLagrangeDAlembert<Model> dla;
  DiscreteStart start_kind = DiscreteStart::consistent;
  Vec<S, Model::Q> q1 = Vec<S, Model::Q>::Zero();
  S pair_step = S(0);
  std::string refusal;  // the text start() returns when it refuses a pair

  // The start of the next start(): the kind, q1 (discrete_q values; pair only) and the run's step.
  void choose_start(const std::string& kind, const double* q1_values, double step) {
    start_kind = kind == "pair"      ? DiscreteStart::pair
                 : kind == "remark5" ? DiscreteStart::remark5
                                     : DiscreteStart::consistent;
    pair_step = S(step);
    if (q1_values != nullptr)
      for (int k = 0; k < Model::Q; ++k) q1[k] = S(q1_values[k]);
  }
  // The state the method starts from (q_0 and, after a pair start, the pair's momentum).
  template <class Sys>
  void started(int i, const Sys&, Vec<S, N>& x) const {
    x = is_dla(i) ? dla.state() : verlet.state();
  }

  template <class Sys>
  const char* start(int i, const Sys& sys, const Vec<S, N>& x0) {
    return start_at(i, sys.model(), x0, S(0));
  }
  // From x0 at the model's clock t0 (a model with prescribed controls).
  static constexpr int kVerlet = 0, kDla = 1, kVerletRemark5 = 2, kDlaOneSided = 3;  // the extra_methods order
  static constexpr bool is_dla(int i) { return i == kDla || i == kDlaOneSided; }
  const char* start_at(int i, const Model& model, const Vec<S, N>& x0, S t0) {
    using Start = typename NonholonomicVerlet<Model>::Start;
    if (start_kind == DiscreteStart::pair) return start_pair(i, model, x0.template head<Model::Q>(), t0);
    if (!is_dla(i)) {
      const Result<NonholonomicVerlet<Model>> r =
          NonholonomicVerlet<Model>::make(model, x0, remark5(i) ? Start::remark5 : Start::consistent, t0);
      if (!r) return to_string(r.error());
      verlet = *r;
    } else {
      using D = DiscreteLagrangeDAlembert<Model>;
      const Result<D> r = D::make(model, x0, t0, D::default_sweeps, constraint_of(i));
      if (!r) return to_string(r.error());
      dla = *r;
    }
    return nullptr;
  }

  bool remark5(int i) const { return i == kVerletRemark5 || start_kind == DiscreteStart::remark5; }
  static DlaConstraint constraint_of(int i) {
    return i == kDlaOneSided ? DlaConstraint::one_sided : DlaConstraint::midpoint;
  }
  // The pair's discrete constraint must hold to rounding: |μ Δq|∞ <= 1e-12 |μ|∞ |Δq|∞ (double).
  const char* start_pair(int i, const Model& model, const Vec<S, Model::Q>& q0, S t0) {
    using D = DiscreteLagrangeDAlembert<Model>;
    if (is_dla(i)) {
      const auto res = D::pair_residual(model, q0, q1, constraint_of(i));
      const typename D::Config at =
          constraint_of(i) == DlaConstraint::midpoint ? typename D::Config((q0 + q1) / S(2)) : q0;
      const S scale =
          Mat<S, Model::Q, Model::K>(model.mass(at) * model.constraint_fields(at)).template lpNorm<Eigen::Infinity>() *
          (q1 - q0).template lpNorm<Eigen::Infinity>();
      const S tol =
          S(1e-12) > S(64) * std::numeric_limits<S>::epsilon() ? S(1e-12) : S(64) * std::numeric_limits<S>::epsilon();
      const S r = res.template lpNorm<Eigen::Infinity>();
      if (!(r <= tol * scale)) {
        char b[300];
        std::snprintf(b, sizeof b,
                      "the pair (q0, q1) violates the %s discrete constraint mu(%s)(q1 - q0) = 0: residual %.3e "
                      "(allowed %.1e)",
                      constraint_of(i) == DlaConstraint::midpoint ? "midpoint" : "one-sided",
                      constraint_of(i) == DlaConstraint::midpoint ? "(q0 + q1)/2" : "q0", double(r),
                      double(tol * scale));
        refusal = b;
        return refusal.c_str();
      }
      const Result<D> r2 = D::make_from_pair(model, q0, q1, pair_step, t0, D::default_sweeps, constraint_of(i));
      if (!r2) return to_string(r2.error());
      dla = *r2;
      return nullptr;
    }
    const Result<NonholonomicVerlet<Model>> r = NonholonomicVerlet<Model>::make_from_pair(model, q0, q1, pair_step, t0);
    if (!r) return to_string(r.error());
    verlet = *r;
    return nullptr;
  }

  template <class Sys>
  const char* step(int i, const Sys&, Vec<S, N>& x, S h) {
    const Error e = !is_dla(i) ? verlet.step(x, h) : dla.step(x, h);
    if (e == Error::none) return nullptr;
    if (!is_dla(i)) return e == Error::singular ? "nh_verlet_no_solution" : "nh_verlet_non_finite";
    return e == Error::singular ? "dla_not_converged" : "dla_non_finite";
  }
};

}  // namespace attractor::sim
