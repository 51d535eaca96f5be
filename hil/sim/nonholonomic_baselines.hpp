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
// A step that fails stops the run (exit 4, "stopped"): dla_not_converged (its fixed sweeps did
// not converge: h too large), nh_verlet_no_solution (a varying mass's solve, or dependent
// constraints), *_non_finite. Host tool.
#pragma once

#include "attractor/integrate/discrete_lagrange_dalembert.hpp"
#include "attractor/integrate/nonholonomic_verlet.hpp"

namespace attractor::sim {

inline constexpr const char* discrete_nonholonomic_notes =
    "baselines (paper 001): nh-verlet is the nonholonomic Stormer-Verlet method (eq. (11)), started\n"
    "with the continuous multiplier; nh-verlet-remark5 the same from Remark 5's start (multiplier 0:\n"
    "an O(h) period-two zig-zag of the one-sided momenta, O(h^2) in q); dla the discrete\n"
    "Lagrange-d'Alembert method with the midpoint discrete constraint, a fixed number of sweeps\n"
    "(dla-one-sided: the constraint at q_k, for comparison); a step that does not converge stops the\n"
    "run (exit 4). See docs/nonholonomic-baselines.md.\n";

template <class Model>
struct DiscreteNonholonomicExtra {
  using S = typename Model::Scalar;
  static constexpr int N = 2 * Model::Q;
  NonholonomicVerlet<Model> verlet;
  DiscreteLagrangeDAlembert<Model> dla;

  template <class Sys>
  const char* start(int i, const Sys& sys, const Vec<S, N>& x0) {
    return start_at(i, sys.model(), x0, S(0));
  }
  // From x0 at the model's clock t0 (a model with prescribed controls).
  static constexpr int kVerlet = 0, kDla = 1, kVerletRemark5 = 2, kDlaOneSided = 3;  // the extra_methods order
  static constexpr bool is_dla(int i) { return i == kDla || i == kDlaOneSided; }
  const char* start_at(int i, const Model& model, const Vec<S, N>& x0, S t0) {
    using Start = typename NonholonomicVerlet<Model>::Start;
    if (!is_dla(i)) {
      const Result<NonholonomicVerlet<Model>> r =
          NonholonomicVerlet<Model>::make(model, x0, i == kVerletRemark5 ? Start::remark5 : Start::consistent, t0);
      if (!r) return to_string(r.error());
      verlet = *r;
    } else {
      using D = DiscreteLagrangeDAlembert<Model>;
      const Result<D> r = D::make(model, x0, t0, D::default_sweeps,
                                  i == kDlaOneSided ? DlaConstraint::one_sided : DlaConstraint::midpoint);
      if (!r) return to_string(r.error());
      dla = *r;
    }
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
