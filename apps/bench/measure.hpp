// SPDX-License-Identifier: Apache-2.0
// What the bench image's translation units share (bench.cpp, accuracy_per_cost.cpp): the
// instruction counter around a call, the escape that keeps the measured work, the spherical
// pendulum's benchmark state. Bench-only.
#pragma once

#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/core/types.hpp"
#include "attractor/rt/tick.hpp"

namespace attractor::bench {

using board::Board;

#ifndef BENCH_REPS
#define BENCH_REPS 200  // repetitions per measurement: resolution = clock quantum / BENCH_REPS
#endif

// Keep the compiler from folding the measured work away.
template <class T>
inline void escape(T* p) {
  __asm__ volatile("" : : "r"(p) : "memory");
}

// Instructions (ns of virtual time) of one call of fn, averaged over Reps calls, with the cost
// of the empty measurement loop subtracted.
template <int Reps = BENCH_REPS, class F>
double instructions_per_call(F&& fn) {
  auto measure = [](auto&& body) {
    const std::uint32_t t0 = Board::cost_now();
    for (int i = 0; i < Reps; ++i) body();
    return ((Board::cost_now() - t0) & Board::cost_mask());
  };
  int dummy = 0;
  const std::uint32_t empty = measure([&] { escape(&dummy); });
  const std::uint32_t full = measure(fn);
  const double counts = double(full) - double(empty);
  return rt::counts_to_ns(counts, Board::cost_hz()) / Reps;
}

template <class S>
Vec<S, 6> spherical_x0() {  // q on the unit sphere, p tangent to it (q . p = 0)
  Vec<S, 6> x;
  x << S(0.479425538604203), S(0), S(-0.877582561890373), S(0), S(0.3), S(0);
  return x;
}

// accuracy_per_cost.cpp: the hand-written reference rows and the accuracy-per-cost method rows.
void references_and_methods();

}  // namespace attractor::bench
