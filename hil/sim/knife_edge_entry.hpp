// SPDX-License-Identifier: Apache-2.0
// attractor-sim knife-edge (the entry; registration knife_edge.cpp, also run by attractor-paper
// nonholonomic): the knife edge on an inclined plane of attractor/systems/knife_edge.hpp, paper
// 000 §3.2, with any parameters and initial state. Parameters, names and the default (the paper's
// experiment) are the system's facts, KnifeEdgeFacts; here only the host's hooks.
#pragma once

#include <array>
#include <cmath>
#include <string>

#include "attractor/systems/knife_edge.hpp"
#include "feedback_system_driver.hpp"
#include "nonholonomic_baselines.hpp"

namespace attractor::sim {

struct KnifeEdgeEntry : cli::FactsEntry<KnifeEdgeFacts> {
  template <class S>
  using System = KnifeEdge<S>;
  static constexpr const char* name = "knife-edge";
  static constexpr const char* summary = "knife edge on an inclined plane (paper 000 §3.2), exact solution";
  static constexpr const char* about =
      "Knife edge on a plane inclined by alpha (paper 000 §3.2): a blade at (x, y) with heading phi that\n"
      "cannot slide sideways; x points down the slope. Invariants: J1 (the constraint px sin phi -\n"
      "py cos phi, over sqrt(m), target 0), the extended energy H~, J2 = p_phi. exact_error: the closed\n"
      "form (phi = phi0 + t p_phi/J; the paper's printed x(t), phi(t) miss a factor 1/2).";
  static constexpr cli::StateOption initial[] = {
      {"q0", 3, "x,y,phi", "initial position and heading (default 0,0,0)"},
      {"p0", 3, "px,py,pphi", "initial momentum, px sin phi = py cos phi (default 0,0,0.5)"}};
  static constexpr const char* notes = discrete_nonholonomic_notes;
  static constexpr const char* extra_methods[] = {"nh-verlet", "dla", "nh-verlet-remark5",
                                                  "dla-one-sided"};  // paper 001's baselines
  template <class S>
  struct Extra : DiscreteNonholonomicExtra<KnifeEdgeModel<S>> {};

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    KnifeEdgeParams<S> prm;
    prm.mass = S(p("m")), prm.inertia = S(p("J")), prm.gravity = S(p("g")), prm.inclination = S(p("alpha"));
    return System<S>::make(prm);
  }
  static std::string off_constraint(const cli::Params&, const double* x0) {
    const double side = x0[3] * std::sin(x0[2]) - x0[4] * std::cos(x0[2]);
    if (std::abs(side) <= 1e-9 * (1 + std::hypot(x0[3], x0[4]))) return "";
    return "p0 slides sideways: px sin phi - py cos phi = " + cli::exact(side) + " instead of 0";
  }
  static std::string project(const cli::Params&, double* x0) {
    const double s = std::sin(x0[2]), c = std::cos(x0[2]), side = x0[3] * s - x0[4] * c;
    x0[3] -= side * s, x0[4] += side * c;
    return "";
  }
  // The exact solution; the header's needs a turning blade, a blade that does not turn slides
  // with v' = g sin α cos φ0.
  static Vec<double, 6> exact(const System<double>& sys, const Vec<double, 6>& x0, double t) {
    if (x0[5] != 0) return knife_edge_exact_state(sys, x0, t);
    const KnifeEdgeParams<double>& P = sys.model().prm;
    const double c = std::cos(x0[2]), s = std::sin(x0[2]), acc = P.gravity * std::sin(P.inclination) * c;
    const double v0 = (x0[3] * c + x0[4] * s) / P.mass, v = v0 + acc * t, d = v0 * t + 0.5 * acc * t * t;
    Vec<double, 6> x = x0;
    x[0] += d * c, x[1] += d * s, x[3] = P.mass * v * c, x[4] = P.mass * v * s;
    return x;
  }
  // The gradients depend on φ and the speed only: sixteen states of the exact motion over one
  // turn of the blade (or over the run when it does not turn, the speed then grows).
  static std::array<Vec<double, 6>, 16> region(const System<double>& sys, const Vec<double, 6>& x0, double T) {
    const double w = x0[5] / sys.model().prm.inertia;
    const double span = w != 0 ? std::min(T, 2 * M_PI / std::abs(w)) : T;
    std::array<Vec<double, 6>, 16> r;
    for (std::size_t k = 0; k < r.size(); ++k) r[k] = exact(sys, x0, span * double(k) / double(r.size() - 1));
    return r;
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::KnifeEdgeEntry);
