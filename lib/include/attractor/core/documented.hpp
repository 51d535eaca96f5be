// SPDX-License-Identifier: Apache-2.0
// A system's documented case (core/facts.hpp) as Eigen values in the scalar S: the initial state
// and the per-row gains, for bench rows and tests that run the case the facts state.
#pragma once

#include "attractor/core/facts.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

template <class S, class Facts>
Vec<S, facts::count(Facts::states)> documented_x0() {
  Vec<S, facts::count(Facts::states)> x;
  for (int i = 0; i < x.size(); ++i) x[i] = S(Facts::documented.x0[i]);
  return x;
}

template <class S, class Facts>
Vec<S, facts::count(Facts::invariants)> documented_gains() {
  Vec<S, facts::count(Facts::invariants)> k;
  for (int i = 0; i < k.size(); ++i) k[i] = S(Facts::documented.gain_of(i));
  return k;
}

}  // namespace attractor
