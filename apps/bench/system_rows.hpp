// SPDX-License-Identifier: Apache-2.0
// One bench row per (system, scheme, precision): instructions per step of the plain field and of
// the feedback field (Feedback<>); and one per extra stepper of a system (RATTLE, a splitting:
// bench_stepper), its cost in the plain column under the method's name. Included by the
// rows_*.cpp translation units (each registers itself, row_registry.hpp), each a family
// of systems: a TU of app size, so that GCC's inlining budget (--param inline-unit-growth) is
// the one an app would see. In one TU with every system, the spherical pendulum's field stopped
// being inlined (its plain RK4 row read 588 instructions; 200 in a TU of its own). Bench-only.
#pragma once

#include "attractor/core/text.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/stepper.hpp"
#include "measure.hpp"
#include "row_registry.hpp"

namespace attractor::bench {

inline void print_line(const char* prec, const char* what, const char* scheme, const char* kind, double instr) {
  Text<160> t;
  t << "bench " << Board::name() << " " << prec << " " << what << " " << scheme << " " << kind << " instructions/step ";
  t.fixed(instr, 1);
  t << "\n";
  board::write(t.c_str());
}

template <class Sys>
void bench_system(const char* prec, const char* name, const Sys& sys, const Vec<typename Sys::Scalar, Sys::N>& x0,
                  const Vec<typename Sys::Scalar, Sys::M>& gains, typename Sys::Scalar h) {
  using S = typename Sys::Scalar;
  using State = Vec<S, Sys::N>;
  const auto fb = feedback(sys, x0, gains);
  const Scheme schemes[] = {Scheme::euler, Scheme::heun, Scheme::rk4};
  for (Scheme s : schemes) {
    State x = x0;
    const double plain = instructions_per_call([&] {
      step<S>(s, sys, x, h);  // the system's own field()
      escape(x.data());
    });
    x = x0;
    const double with_fb = instructions_per_call([&] {
      step<S>(s, fb, x, h);
      escape(x.data());
    });
    print_line(prec, name, to_string(s), "field", plain);
    print_line(prec, name, to_string(s), "feedback", with_fb);
  }
}

// An extra stepper of the system `name` (integrate/stepper.hpp: RATTLE, Lie–Trotter, Strang, ...):
// one row "<name> <method> field", so the per-step table shows it beside the schemes.
template <class Stepper>
void bench_stepper(const char* prec, const char* name, const char* method, Stepper stepper,
                   const typename Stepper::State& x0, typename Stepper::Scalar h) {
  typename Stepper::State x = x0;
  print_line(prec, name, method, "field", instructions_per_call([&] {
               Error e = step(stepper, x, h);
               escape(&e);
               escape(x.data());
             }));
}

}  // namespace attractor::bench
