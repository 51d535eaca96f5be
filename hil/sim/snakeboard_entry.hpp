// SPDX-License-Identifier: Apache-2.0
// attractor-sim snakeboard (the entry; registration snakeboard.cpp, also run by attractor-paper
// nonholonomic-baselines): paper 001 Example 2, the snakeboard driven by the sinusoidal torques of
// attractor/systems/snakeboard.hpp, with the clock and the controls' work in the state
// (systems/snakeboard_driven.hpp) so that the feedback integrator can run it; and paper 001's
// discrete methods nh-verlet and dla on its 10-dimensional cotangent state, the clock and the
// work carried along (SnakeboardDriven::advance). The paper gives no numbers: the defaults are
// snakeboard.hpp's (m = 1 kg, J = J0 = 0.5, J1 = 0.05 kg m², r = 0.5 m, torques 1 and 0.25 N m at
// ω = π rad/s, from rest), documented in --help and docs/nonholonomic-baselines.md.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "attractor/integrate/butcher.hpp"
#include "attractor/systems/snakeboard_driven.hpp"
#include "feedback_system_driver.hpp"
#include "nonholonomic_baselines.hpp"

namespace attractor::sim {

// nh-verlet / dla on (q, p) at the model's clock x[10]; t and W follow (SnakeboardDriven::advance).
template <class S>
struct SnakeboardDiscrete : DiscreteNonholonomicExtra<SnakeboardModel<S>> {
  using Base = DiscreteNonholonomicExtra<SnakeboardModel<S>>;
  using Sys = SnakeboardDriven<S>;
  const char* start(int i, const Sys& sys, const Vec<S, 12>& x0) {
    return Base::start_at(i, sys.model(), Vec<S, 10>(x0.template head<10>()), x0[Sys::clock]);
  }
  void started(int i, const Sys&, Vec<S, 12>& x) const {
    x.template head<10>() = Base::is_dla(i) ? Base::dla.state() : Base::verlet.state();
  }
  const char* step(int i, const Sys& sys, Vec<S, 12>& x, S h) {
    Vec<S, 10> y = x.template head<10>();
    if (const char* why = Base::step(i, sys, y, h)) return why;
    Vec<S, 12> after;
    after.template head<10>() = y;
    sys.advance(x, after, h);
    x = after;
    return nullptr;
  }
};

struct SnakeboardEntry : cli::FactsEntry<SnakeboardFacts> {
  template <class S>
  using System = SnakeboardDriven<S>;
  static constexpr const char* name = "snakeboard";
  static constexpr const char* summary =
      "snakeboard under sinusoidal torques (paper 001 Example 2): feedback/RK/nh-verlet/dla";
  static constexpr const char* about =
      "Snakeboard (paper 001 Example 2): a board of mass m (centre (x, y), heading theta) on two wheel axles\n"
      "at distance r from the centre, turned by phi equal and opposite, a rotor of angle psi; the wheels do\n"
      "not slide sideways (two constraints). The rider's torque u_psi = Apsi cos(omega t) acts between board\n"
      "and rotor, the axle torque u_phi = Aphi cos(omega t) on phi (same phase and frequency, as the paper;\n"
      "it gives no numbers: the defaults are ours). It starts at rest with the axles turned to\n"
      "phi0 = -Aphi/(2 J1 omega^2), so phi = phi0 cos(omega t) and the board snakes ahead (-x), gaining speed.\n"
      "State (q, p, t, W): the clock t the torques read and the work W they have done, so that the\n"
      "feedback integrator can run it. Invariants: c1, c2 (constraints, target 0) and E = T~ - W (the\n"
      "extended kinetic energy minus the work: the energy balance). No exact solution. Keep |phi| < pi/2\n"
      "(at cos phi = 0 the constraints coincide).";
  static constexpr const char* notes =
      "baselines (paper 001): nh-verlet is the nonholonomic Stormer-Verlet method (eq. (11)), started\n"
      "with the continuous multiplier (nh-verlet-remark5: from Remark 5's multiplier 0); dla the\n"
      "discrete Lagrange-d'Alembert method with the midpoint discrete constraint (dla-one-sided: at\n"
      "q_k), a fixed number of sweeps; all step (q, p) with the torques at t_k, t_k+1 and carry t and W\n"
      "(trapezoid rule). A step that does not converge stops the run (exit 4). --start\n"
      "consistent|remark5|pair: the discrete methods' start (pair: from q0 and --q1 x,y,theta,psi,phi at\n"
      "t0 + h). See docs/nonholonomic-baselines.md.\n";
  static constexpr cli::StateOption initial[] = {
      {"q0", 5, "x,y,theta,psi,phi", "initial configuration (default 0,0,0,0,phi0)"},
      {"p0", 5, "px,py,ptheta,ppsi,pphi", "initial momentum, on the constraints (default 0: at rest)"},
      {"clock0", 2, "t,W", "initial clock and work (default 0,0)"}};
  static constexpr const char* extra_methods[] = {"nh-verlet", "dla", "nh-verlet-remark5", "dla-one-sided"};
  template <class S>
  struct Extra : SnakeboardDiscrete<S> {};

  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    SnakeboardParams<S> prm;
    prm.mass = S(p("m")), prm.board_inertia = S(p("J")), prm.rotor_inertia = S(p("J0"));
    prm.axle_inertia = S(p("J1")), prm.half_length = S(p("r")), prm.rotor_torque = S(p("Apsi"));
    prm.axle_torque = S(p("Aphi")), prm.frequency = S(p("omega"));
    return System<S>::make(prm);
  }
  // At rest with the axles turned to phi0 = -Aphi/(2 J1 omega^2): no constraint force acts on phi,
  // so 2 J1 phi'' = u_phi gives phi = phi0 cos(omega t), oscillating about 0, and the board snakes
  // straight ahead (-x). From phi = 0 the mean turn -phi0 makes it circle instead.
  static void default_x0(const cli::Params& p, double* x0) {
    std::fill(x0, x0 + 12, 0.0);
    const double w = p("omega");
    if (w > 0) x0[4] = -p("Aphi") / (2 * p("J1") * w * w);
  }

  static Vec<double, 2> constraints(const cli::Params& p, const double* x0) {
    const System<double> sys = cli::made_or_refused(make<double>(p));
    const Vec<double, 5> q = Eigen::Map<const Vec<double, 5>>(x0);
    return sys.model().constraint_fields(q).transpose() * Eigen::Map<const Vec<double, 5>>(x0 + 5);
  }
  static std::string off_constraint(const cli::Params& p, const double* x0) {
    if (!(std::abs(std::cos(x0[4])) > 1e-6))
      throw cli::Failure(cli::exit_invalid, "--q0: phi = " + cli::exact(x0[4]) +
                                                " turns the axles across the board (cos phi = 0): the two wheel "
                                                "constraints coincide there; keep |phi| < pi/2");
    const Vec<double, 2> c = constraints(p, x0);
    if (!std::isfinite(c.norm())) throw cli::Failure(cli::exit_invalid, "--q0/--p0: the constraints are not finite");
    double scale = 1;
    for (int i = 5; i < 10; ++i) scale += std::abs(x0[i]);
    if (c.norm() <= 1e-9 * scale) return "";
    return "p0 violates the wheel constraints: <p, e_i> = (" + cli::exact(c[0]) + ", " + cli::exact(c[1]) + ")";
  }
  // p -> P*p = p - mE G^-1 E^T p, the metric projection onto the constraints.
  static std::string project(const cli::Params& p, double* x0) {
    const System<double> sys = cli::made_or_refused(make<double>(p));
    const Vec<double, 5> q = Eigen::Map<const Vec<double, 5>>(x0);
    Eigen::Map<Vec<double, 5>> mom(x0 + 5);
    const Mat<double, 5, 2> E = sys.model().constraint_fields(q);
    const Mat<double, 5, 2> mE = sys.model().mass(q) * E;
    const Mat<double, 2, 2> G = E.transpose() * mE;
    if (!(std::abs(G.determinant()) > 1e-12 * G.squaredNorm()))
      return "the constraints are dependent at q0 (cos phi = 0)";
    mom -= mE * (G.inverse() * (E.transpose() * mom));
    return "";
  }
  // 16 states of an accurate plain run over [t0, t0 + min(T, 40)] (the board speeds up with time;
  // a longer run is checked on its first 40 s).
  static std::array<Vec<double, 12>, 16> region(const System<double>& sys, const Vec<double, 12>& x0, double T) {
    std::array<Vec<double, 12>, 16> r;
    const double span = std::min(std::isfinite(T) ? T : 0.0, 40.0) / double(r.size() - 1);
    const int sub = 50;
    Vec<double, 12> x = x0;
    for (std::size_t k = 0; k < r.size(); ++k) {
      r[k] = all_finite(x) ? x : r[k - 1];
      for (int i = 0; i < sub; ++i) rk4_step(sys, x, span / sub);
    }
    return r;
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::SnakeboardEntry);
