// SPDX-License-Identifier: Apache-2.0
// Inlining hints for the integrators' hot paths (docs/feedback-integrators.md, "fused hooks").
//
// ATTRACTOR_ALWAYS_INLINE: the step drivers, and small vector fields a system wants inlined into
//   the RK stages. A field called out of line returns its vector through memory and the stages
//   reload it; inlined, the stages stay in FPU registers (measured: docs/BENCHMARKS.md,
//   "Hand-written reference").
// ATTRACTOR_LAMBDA_INLINE: the same for a lambda handed to a step driver, after its parameter
//   list: [&sys](const State& x) ATTRACTOR_LAMBDA_INLINE { return sys.field(x); }.
// ATTRACTOR_FLATTEN: a large function (the full skate's field, the generic feedback gradient)
//   stays one call, with everything it calls inlined into it. GCC's inlining budget is per
//   translation unit (--param inline-unit-growth): without this, whether Eigen's small helpers
//   inside it were inlined depended on what else the file contained (the same code compiled to
//   steps of very different cost; docs/BENCHMARKS.md, "Where the feedback term's instructions go").
//
// Sanitizer builds (host-asan) check behaviour, not speed, and there ATTRACTOR_FLATTEN is empty:
// it copies a whole call tree into every instantiation, which under ASan+UBSan took the
// spherical robot's tests from 86 to 119 s of compile. Inlining changes no result.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define ATTRACTOR_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTRACTOR_SANITIZED_BUILD 1
#endif
#endif

#if defined(__GNUC__)
#define ATTRACTOR_ALWAYS_INLINE inline __attribute__((always_inline))
#define ATTRACTOR_LAMBDA_INLINE __attribute__((always_inline))
#if defined(ATTRACTOR_SANITIZED_BUILD)
#define ATTRACTOR_FLATTEN
#else
#define ATTRACTOR_FLATTEN __attribute__((flatten))
#endif
#else
#define ATTRACTOR_ALWAYS_INLINE inline
#define ATTRACTOR_LAMBDA_INLINE
#define ATTRACTOR_FLATTEN
#endif
