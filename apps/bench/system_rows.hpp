// SPDX-License-Identifier: Apache-2.0
// One bench row per (system, scheme, precision): instructions per step of the plain field and of
// the feedback field (Feedback<>); and one per extra stepper of a system (RATTLE, a splitting:
// bench_stepper), its cost in the plain column under the method's name. Included by the
// rows_*.cpp translation units (each registers itself, row_registry.hpp), each a family
// of systems. Every row is measured as its own flattened step function (measure.hpp), so a row
// does not depend on what else its file contains. Bench-only.
#pragma once

#include "attractor/core/text.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/stepper.hpp"
#include "measure.hpp"
#include "row_registry.hpp"

namespace attractor::bench {

// "... instructions/step N at 0xADDR": the address of the measured step (measure.hpp), by which
// scripts/bench_floor.py finds its code in the image.
inline void print_line(const char* prec, const char* what, const char* scheme, const char* kind, StepCost c) {
  Text<180> t;
  t << "bench " << Board::name() << " " << prec << " " << what << " " << scheme << " " << kind << " instructions/step ";
  t.fixed(c.instructions, 1);
  t << " at ";
  t.hex(static_cast<std::uint32_t>(c.address));
  t << "\n";
  board::write(t.c_str());
}

// The scheme s at compile time: each (scheme, field) pair is its own measured step.
template <Scheme s, class F, class S, int N>
ATTRACTOR_ALWAYS_INLINE void scheme_step(const F& f, Vec<S, N>& x, S h) {
  if constexpr (s == Scheme::euler) {
    euler_step(f, x, h);
  } else if constexpr (s == Scheme::heun) {
    heun_step(f, x, h);
  } else {
    rk4_step(f, x, h);
  }
}

// One scheme of bench_system: the plain field and the feedback field, each its own measured step.
template <Scheme s, class Sys, class Fb>
void bench_scheme(const char* prec, const char* name, const Sys& sys, const Fb& fb,
                  const Vec<typename Sys::Scalar, Sys::N>& x0, typename Sys::Scalar h) {
  using S = typename Sys::Scalar;
  Vec<S, Sys::N> x = x0;
  const StepCost plain = step_cost([&] { scheme_step<s>(sys, x, h); });  // the system's own field()
  x = x0;
  const StepCost with_fb = step_cost([&] { scheme_step<s>(fb, x, h); });
  print_line(prec, name, to_string(s), "field", plain);
  print_line(prec, name, to_string(s), "feedback", with_fb);
}

template <class Sys>
void bench_system(const char* prec, const char* name, const Sys& sys, const Vec<typename Sys::Scalar, Sys::N>& x0,
                  const Vec<typename Sys::Scalar, Sys::M>& gains, typename Sys::Scalar h) {
  const auto fb = feedback(sys, x0, gains);
  bench_scheme<Scheme::euler>(prec, name, sys, fb, x0, h);
  bench_scheme<Scheme::heun>(prec, name, sys, fb, x0, h);
  bench_scheme<Scheme::rk4>(prec, name, sys, fb, x0, h);
}

// An extra stepper of the system `name` (integrate/stepper.hpp: RATTLE, Lie–Trotter, Strang, ...):
// one row "<name> <method> field", so the per-step table shows it beside the schemes.
template <class Stepper>
void bench_stepper(const char* prec, const char* name, const char* method, Stepper stepper,
                   const typename Stepper::State& x0, typename Stepper::Scalar h) {
  typename Stepper::State x = x0;
  Error e = Error::none;
  print_line(prec, name, method, "field", step_cost([&] { e = step(stepper, x, h); }));
  escape(&e);
}

}  // namespace attractor::bench
