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

// The one measuring method of every step row (system rows, steppers, hand-written references,
// the accuracy-per-cost methods): the step is the body of `step`, a lambda capturing the system,
// the state and h by reference, compiled into its own function measured_step<Step>:
//   noipa    never inlined into the measurement loop nor specialised for the caller's constants
//            (GCC's IPA constant propagation would otherwise clone it per call site), so it is
//            compiled as an application's step function would be;
//   flatten  everything it calls inlined into it: the system's field, Eigen's helpers, the
//            scheme. Whether a helper is inlined no longer depends on what else the rows file
//            contains (GCC's inlining budget is per translation unit).
// Its only out-of-line calls may be to the C library (maths: atan2f, sinf, ...; memset for a large
// zero fill) and to the soft-float helpers of double on a single-precision FPU; scripts/bench_floor.py checks that on
// the bench image (CTest bench.<board>.no_calls) and counts each step's floating-point instructions (the x floor column
// of docs/BENCHMARKS.md), finding it by the address the row prints.
template <class Step>
__attribute__((noipa, flatten)) void measured_step(const Step& step) {
  step();
}

struct StepCost {
  double instructions;     // per call, measurement loop subtracted
  std::uintptr_t address;  // of measured_step<Step> in the image (Thumb bit set)
};

template <int Reps = BENCH_REPS, class Step>
StepCost step_cost(const Step& step) {
  const double instr = instructions_per_call<Reps>([&] { measured_step(step); });
  return {instr, reinterpret_cast<std::uintptr_t>(&measured_step<Step>)};
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
