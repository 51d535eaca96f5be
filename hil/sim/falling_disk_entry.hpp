// SPDX-License-Identifier: Apache-2.0
// The attractor-sim falling-disk entry (registered in falling_disk.cpp, run by attractor-paper
// lie-flows): the falling rolling disk of paper 004 in its tilt r and nonholonomic momenta p1, p2
// (lib/include/attractor/systems/falling_disk.hpp). Driver: hil/cli/feedback_system_driver.hpp.
#pragma once

#include <array>
#include <cmath>
#include <string>

#include "attractor/integrate/butcher.hpp"
#include "attractor/systems/falling_disk.hpp"
#include "feedback_system_driver.hpp"

namespace attractor::sim {

struct FallingDiskEntry : cli::FactsEntry<FallingDiskFacts> {
  using Disk = FallingDisk<double>;
  template <class S>
  using System = FallingDisk<S>;
  static constexpr const char* name = "falling-disk";
  static constexpr const char* summary =
      "falling rolling disk (paper 004): energy, rolling constraints, reduced volume";
  static constexpr const char* about =
      "A disk (mass m, radius R, inertia A about a diameter, B about its axis) rolling without\n"
      "sliding on a plane (paper 004): state (x, y, phi, psi, r, r', p1, p2, vx, vy) with r the tilt\n"
      "from the vertical, p1 = dLc/dphi', p2 = dLc/dpsi' the nonholonomic momenta (the slides'\n"
      "momentum equations in r), (vx, vy) the contact point's velocity. Invariants: the rolling\n"
      "constraints c1 = vx + R psi' cos phi, c2 = vy + R psi' sin phi, and the energy E. The reduced\n"
      "flow keeps the volume dr dr' dp1 dp2 (density the shape metric mR^2 + A, a constant): the\n"
      "summary's divergence_integral and log_measure_change stay at the differencing level.\n"
      "The slides give no numbers; defaults: a uniform disk m = R = 1, A = 1/4, B = 1/2, g = 1,\n"
      "tilted r0 = 0.3 at rest in r, turning phi' = 1 and spinning psi' = 3 (p0 from those rates).";
  static constexpr cli::StateOption initial[] = {
      {"pose0", 4, "x,y,phi,psi", "contact point, heading, spin angle (default 0,0,0,0)"},
      {"tilt0", 2, "r,rdot", "tilt from the vertical, |r| < pi/2, and its rate (default 0.3,0)"},
      {"p0", 2, "p1,p2", "nonholonomic momenta (default: from phi' = 1, psi' = 3)"},
      {"v0", 2, "vx,vy", "contact point velocity, on the constraints (default: from the rest)"}};

  template <class S>
  static FallingDiskParams<S> params_of(const cli::Params& p) {
    FallingDiskParams<S> prm;
    prm.mass = S(p("m")), prm.radius = S(p("R")), prm.A = S(p("A")), prm.B = S(p("B")), prm.gravity = S(p("g"));
    return prm;
  }
  template <class S>
  static Result<System<S>> make(const cli::Params& p) {
    return System<S>::make(params_of<S>(p));
  }
  static std::string tilt_refused() {
    return std::string("--tilt0: the tilt must satisfy ") + tilt_rule + " (the disk must not lie flat)";
  }
  static Disk disk(const cli::Params& p) { return cli::made_or_refused(Disk::make(params_of<double>(p))); }
  // The documented tilt and rates (φ̇ = 1, ψ̇ = 3) with p1, p2 and v from the given parameters.
  static void default_x0(const cli::Params& p, double* x0) {
    const Disk d = disk(p);
    const double r = documented.x0[Disk::TILT], phid = 1, psid = 3, w = phid * std::sin(r) + psid;
    Disk::State x = Disk::State::Zero();
    x[Disk::TILT] = r;
    x[Disk::P1] = d.prm.A * std::cos(r) * std::cos(r) * phid + d.Ib * w * std::sin(r);
    x[Disk::P2] = d.Ib * w;
    x = d.on_constraint(x);
    for (int i = 0; i < Disk::N; ++i) x0[i] = x[i];
  }
  static std::string off_constraint(const cli::Params& p, const double* x0) {
    if (!tilt.contains(x0[Disk::TILT])) return tilt_refused();
    const Disk d = disk(p);
    const auto F = d.invariants(Eigen::Map<const Disk::State>(x0));
    const double scale = 1 + std::abs(d.prm.radius * d.spin_rate(Eigen::Map<const Disk::State>(x0)));
    if (!(std::abs(F[0]) <= 1e-9 * scale && std::abs(F[1]) <= 1e-9 * scale))
      return "the initial state is off the rolling constraints (v0 != -R psi' (cos phi, sin phi))";
    return "";
  }
  // Replaces v0 by the contact point velocity the constraints give (the tilt cannot be projected).
  static std::string project(const cli::Params& p, double* x0) {
    if (!tilt.contains(x0[Disk::TILT])) return tilt_refused();
    const Disk::State x = disk(p).on_constraint(Eigen::Map<const Disk::State>(x0));
    for (int i = 0; i < Disk::N; ++i) x0[i] = x[i];
    return "";
  }
  // The wobble's states: x0 and seven along 10 s of the accurate flow (RK4, h = 1e-3).
  static std::array<Vec<double, 10>, 8> region(const Disk& d, const Vec<double, 10>& x0) {
    std::array<Vec<double, 10>, 8> out;
    Vec<double, 10> x = x0;
    out[0] = x0;
    for (std::size_t k = 1; k < out.size(); ++k) {
      for (int i = 0; i < 1430 && tilt.contains(x[Disk::TILT]); ++i) rk4_step(d, x, 1e-3);
      out[k] = x;
    }
    return out;
  }
};

}  // namespace attractor::sim

// Compiled once, in the entry's .cpp (feedback_system_driver.hpp).
ATTRACTOR_EXTERN_FEEDBACK_SYSTEM(attractor::sim::FallingDiskEntry);
