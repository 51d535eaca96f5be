// SPDX-License-Identifier: Apache-2.0
// The attractor-sim entry (hil/cli/feedback_entry.hpp) of a header the model compiler generated
// (docs/model-compiler.md): parameters, state and invariant names and the documented case come
// from its facts; the state is one option --x0 (all N numbers); a start off the constraints is
// refused (exit 5; there is no projection for a model the tree does not know); the sample region
// for check_step and --gains auto is sixteen states of an RK4 run of the model itself (300 steps)
// over the run's duration. attractor/model.py writes the few lines that differ per model (name,
// make) around this base, and an in-tree command (hil/sim/double_pendulum.cpp) the same way.
// Host-only.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

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

  static std::string project(const Params&, double*) {
    return "a compiled model has no projection: give a state on its constraints";
  }
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

}  // namespace attractor::cli
