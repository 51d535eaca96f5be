// SPDX-License-Identifier: Apache-2.0
// The attractor-sim entry (hil/cli/feedback_entry.hpp) of a header the model compiler generated
// (docs/model-compiler.md): parameters, state and invariant names and the documented case come
// from its facts; the state is one option --x0 (all N numbers); a start off the constraints is
// refused (exit 5) unless --project moves it onto them (generated_project); the sample region
// for check_step and --gains auto is sixteen states of an RK4 run of the model itself (300 steps)
// over the run's duration. attractor/model.py writes the few lines that differ per model (name,
// make) around this base, and an in-tree command (hil/sim/double_pendulum.cpp) the same way.
// Host-only.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <Eigen/Cholesky>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/system.hpp"
#include "feedback_system_driver.hpp"

namespace attractor::cli {

template <template <class> class Model, class Facts>
struct GeneratedEntry : FactsEntry<Facts> {
  template <class S>
  using System = Model<S>;
  static constexpr int N = System<double>::N;
  static constexpr StateOption initial[] = {{"x0", N, "x1,..,xN", "the initial state (q, p), on the constraints"}};
  static constexpr const char* T_default = "default: the documented case's T";

  // Sixteen states of a run of 300 RK4 steps over min(T, 100): the region the run reaches. A
  // sample, not a bound (an unstable sample run keeps what it reached); cheap beside a short run.
  static std::array<Vec<double, N>, 16> region(const System<double>& sys, const Vec<double, N>& x0, double T) {
    std::array<Vec<double, N>, 16> r;
    const int steps = 300, every = steps / 15;
    const double h = std::min(T, 100.0) / steps;
    Vec<double, N> x = x0;
    r[0] = x0;
    for (int k = 1; k <= 15 * every; ++k) {
      rk4_step(sys, x, h);
      if (!x.allFinite()) x = x0;  // an unbounded model: keep what was reached
      if (k % every == 0) r[std::size_t(k / every)] = x;
    }
    return r;
  }
};

// "" when x0 keeps the model's constraint rows within 1e-9 (relative), else the first row that is off.
template <class Entry>
std::string generated_off_constraint(const typename Entry::template System<double>& sys, const double* x0) {
  constexpr int N = Entry::N;
  const Vec<double, N> x = Eigen::Map<const Vec<double, N>>(x0);
  const auto F = sys.invariants(x);
  const auto target = invariant_reference(sys, F);
  for (int i = 0; i < int(F.size()); ++i)
    if (Entry::invariants[i].kind == facts::InvariantKind::constraint &&
        !(std::abs(F[i] - target[i]) <= 1e-9 * (1 + std::abs(target[i]))))
      return std::string("--x0 is off the constraint ") + Entry::invariants[i].name + ": " + exact(F[i]) +
             " instead of " + exact(target[i]);
  return "";
}

// --project: x0 moved onto the model's constraint rows by Gauss–Newton steps, each the smallest
// change of the state (q, p) that zeroes the rows' linearization, x -= Jcᵀ (Jc Jcᵀ)⁻¹ (Fc − targets),
// until a step no longer changes x (rounding; at most 50 steps); "" when generated_off_constraint
// then accepts it, else why not (the rows' gradients dependent there, no convergence).
template <class Entry>
std::string generated_project(const typename Entry::template System<double>& sys, double* x0) {
  constexpr int N = Entry::N, M = Entry::template System<double>::M;
  using Rows = Eigen::Matrix<double, Eigen::Dynamic, N, 0, M, N>;  // fixed capacity: no heap
  using Column = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, M, 1>;
  Eigen::Map<Vec<double, N>> x(x0);
  int rows[M], c = 0;
  for (int i = 0; i < M; ++i)
    if (Entry::invariants[i].kind == facts::InvariantKind::constraint) rows[c++] = i;
  for (int step = 0; step < 50 && c > 0 && x.allFinite(); ++step) {
    const auto F = sys.invariants(x);
    const auto target = invariant_reference(sys, F);
    const Mat<double, M, N> J = sys.invariants_jacobian(x);
    Rows Jc(c, N);
    Column r(c);
    for (int k = 0; k < c; ++k) Jc.row(k) = J.row(rows[k]), r[k] = F[rows[k]] - target[rows[k]];
    const Eigen::LDLT<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, M, M>> gram(Jc * Jc.transpose());
    if (gram.info() != Eigen::Success || !(gram.vectorD().minCoeff() > 1e-14 * gram.vectorD().maxCoeff()))
      return "--project: the constraints are dependent at --x0 (their gradients are not independent there)";
    const Vec<double, N> dx = Jc.transpose() * gram.solve(r);
    x -= dx;
    if (!(dx.norm() > 1e-15 * (1 + x.norm()))) break;
  }
  if (x.allFinite() && generated_off_constraint<Entry>(sys, x0).empty()) return "";
  return "--project: --x0 could not be moved onto the constraints (no convergence in 50 steps)";
}

}  // namespace attractor::cli
