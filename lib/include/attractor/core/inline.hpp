// SPDX-License-Identifier: Apache-2.0
// ATTRACTOR_ALWAYS_INLINE: for the integrators' step drivers and for small vector fields that a
// system wants inlined into them. A field evaluated out of line returns its vector through
// memory and the RK stages reload it; inlined, the stages stay in registers (M4F float
// spherical pendulum, RK4: docs/BENCHMARKS.md). ATTRACTOR_NOINLINE keeps a large field (the
// full skate's constrained solve) out of line: GCC may otherwise inline it into all four RK4
// stages, which spilled registers and cost 30 % more instructions per step.
#pragma once

// ATTRACTOR_LAMBDA_INLINE, after a lambda's parameter list, does the same for a lambda handed to
// a step driver: [&sys](const State& x) ATTRACTOR_LAMBDA_INLINE { return sys.field(x); }.
#if defined(__GNUC__)
#define ATTRACTOR_ALWAYS_INLINE inline __attribute__((always_inline))
#define ATTRACTOR_LAMBDA_INLINE __attribute__((always_inline))
#define ATTRACTOR_FLATTEN __attribute__((flatten))
#else
#define ATTRACTOR_ALWAYS_INLINE inline
#define ATTRACTOR_LAMBDA_INLINE
#define ATTRACTOR_FLATTEN
#endif
