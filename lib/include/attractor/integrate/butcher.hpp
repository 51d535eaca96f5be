// SPDX-License-Identifier: Apache-2.0
// Fixed-step explicit Runge–Kutta schemes as Butcher tableaux.
//
// One generic stepper serves every explicit scheme: Euler, Heun, RK4 are constant tableaux,
// and a user adds a scheme by writing its tableau. The stage loops have compile-time trip
// counts and the tableau is constant, so a step costs the same instructions every time.
#pragma once

#include <type_traits>
#include <utility>

#include "attractor/core/inline.hpp"
#include "attractor/core/types.hpp"

namespace attractor {

// Explicit s-stage tableau: c_i = sum_j a_ij, strictly lower-triangular a.
//   k_i = f(x + h * sum_{j<i} a_ij k_j),   x_next = x + h * sum_i b_i k_i
template <class S, int Stages>
struct ButcherTableau {
  static constexpr int stages = Stages;
  S a[Stages][Stages];
  S b[Stages];
  int order;               // classical order of accuracy
  S real_stability_limit;  // largest h*lambda on the negative real axis that is stable
};

// Forward Euler: order 1, stable for h*lambda in [-2, 0].
template <class S>
constexpr ButcherTableau<S, 1> euler_tableau() {
  return {{{S(0)}}, {S(1)}, 1, S(2)};
}

// Heun's method (explicit trapezoidal RK2): order 2, stable for h*lambda in [-2, 0].
template <class S>
constexpr ButcherTableau<S, 2> heun_tableau() {
  return {{{S(0), S(0)}, {S(1), S(0)}}, {S(0.5), S(0.5)}, 2, S(2)};
}

// Classical RK4: order 4, stable for h*lambda in [-2.785, 0].
template <class S>
constexpr ButcherTableau<S, 4> rk4_tableau() {
  return {{{S(0), S(0), S(0), S(0)}, {S(0.5), S(0), S(0), S(0)}, {S(0), S(0.5), S(0), S(0)}, {S(0), S(0), S(1), S(0)}},
          {S(1) / S(6), S(1) / S(3), S(1) / S(3), S(1) / S(6)},
          4,
          S(2.785293563405282)};
}

template <class System, class Metric>
class Feedback;  // integrate/feedback.hpp

namespace detail {
template <class F>
struct is_feedback : std::false_type {};
template <class System, class Metric>
struct is_feedback<Feedback<System, Metric>> : std::true_type {};

template <class F, class X, class = void>
struct has_field_member : std::false_type {};
template <class F, class X>
struct has_field_member<F, X, std::void_t<decltype(std::declval<const F&>().field(std::declval<const X&>()))>>
    : std::true_type {};

// The one rule by which every stepper (here and integrate/stepper.hpp) evaluates its field f at
// x: a system (anything with field(x), integrate/system.hpp) through f.field(x), so that
// rk4_step(sys, x, h) integrates the system's own field with no wrapper between the stages and a
// field the system inlines (core/inline.hpp); anything else (a Feedback<>, a lambda) as f(x).
template <class Field, class S, int N>
ATTRACTOR_ALWAYS_INLINE Vec<S, N> evaluate_field(const Field& f, const Vec<S, N>& x) {
  if constexpr (has_field_member<Field, Vec<S, N>>::value) {
    return f.field(x);
  } else {
    return f(x);
  }
}
}  // namespace detail

namespace detail {
// y <- y + c * v, coefficient by coefficient on the raw arrays. Eigen's `y += c * v` is a
// function template GCC may clone (IPA-SRA) and call out of line even from a flattened step
// (seen for 6-vectors); this loop has nothing left to call.
template <class S, int N>
ATTRACTOR_ALWAYS_INLINE void add_scaled(Vec<S, N>& y, S c, const Vec<S, N>& v) {
  S* yp = y.data();
  const S* vp = v.data();
#pragma GCC unroll 16
  for (int n = 0; n < N; ++n) yp[n] += c * vp[n];
}
// y <- v, likewise (a 12-vector copy in double is otherwise an out-of-line assignment loop),
// from and to a vector's raw array too.
template <class S, int N>
ATTRACTOR_ALWAYS_INLINE void copy(S* yp, const S* vp) {
#pragma GCC unroll 16
  for (int n = 0; n < N; ++n) yp[n] = vp[n];
}
template <class S, int N>
ATTRACTOR_ALWAYS_INLINE void copy(Vec<S, N>& y, const Vec<S, N>& v) {
  copy<S, N>(y.data(), v.data());
}
template <class S, int N>
ATTRACTOR_ALWAYS_INLINE void copy(Vec<S, N>& y, const S* vp) {
  copy<S, N>(y.data(), vp);
}
template <class S, int N>
ATTRACTOR_ALWAYS_INLINE void copy(S* yp, const Vec<S, N>& v) {
  copy<S, N>(yp, v.data());
}

// The stepper's register-pressure aids on Arm (explicit_rk_step); elsewhere they do nothing.
// reread(p): p, with its value hidden from the optimiser (an empty asm "changes" it), so reads
// through the result are loads it cannot merge with earlier reads of the same memory. Nothing
// else is assumed changed: no memory clobber.
// stage_boundary(): a volatile asm, which GCC's instruction schedulers do not move anything
// across; it emits no instruction.
template <class T>
ATTRACTOR_ALWAYS_INLINE T* reread(T* p) {
#if defined(__GNUC__) && (defined(__arm__) || defined(__thumb__))
  __asm__ volatile("" : "+r"(p));
#endif
  return p;
}
ATTRACTOR_ALWAYS_INLINE void stage_boundary() {
#if defined(__GNUC__) && (defined(__arm__) || defined(__thumb__))
  __asm__ volatile("");
#endif
}
}  // namespace detail

// One explicit step of the tableau for the autonomous field f: x <- x + h * sum b_i k_i.
// Inlined into every caller so that the constant tableaux of euler_step/heun_step/rk4_step are
// known there and their zero entries fold away.
// f is any callable State(const State&) (a Feedback wrapper, a lambda) or a system, whose field()
// is then the field.
// Zero entries of the tableau are skipped: IEEE arithmetic cannot fold x + (h*0)*k away (k may
// be Inf/NaN), yet the term is exactly zero for finite k, and a non-finite k_j still reaches x
// through its own b_j. The result is the same for finite stages. For the built-in constant
// tableaux the loops unroll and the zero tests fold at compile time (RK4: 3 stage sums of one term
// instead of 6 terms, no loop bookkeeping). The skipped set depends only on the tableau, so
// a step still costs the same instructions every time.
// The combination sum b_i k_i is accumulated as each stage is computed (acc = x, then
// acc += (h b_i) k_i in stage order): the same operations in the same order as a sum formed at
// the end, so the same result bit for bit where no multiply-add is fused; where the compiler
// contracts a*b + c (Cortex-M4F/M7, x86 with FMA) it may fuse other products than in that sum,
// a rounding difference (~1e-7 after 1000 float feedback steps of the spherical pendulum). Then a
// stage no later stage reads (RK4, Heun: every k_j but the last) is dead once added, which leaves
// the register allocator fewer live values.
// On Arm (detail::stage_boundary, detail::reread) two more things keep the register pressure down,
// neither changing an operation:
//   - each stage reads x from memory again. A stage point x + c k is a multiply-add whose addend
//     register it overwrites, so x kept in registers costs a copy per component per stage anyway;
//     a load costs the same and frees N registers for the whole step (of the 32 single-precision
//     FPU registers of the M4F, 16 double-precision of the M7);
//   - the stages are scheduling regions: GCC's pre-allocation scheduler otherwise sinks each
//     stage's acc update (short of the critical path) to the end of the step, keeping every k_j
//     live across the later stages and spilling them.
// Both only for schemes of 3 or more stages (RK4) of the feedback field (Feedback<>), which keeps
// the invariants' references and gains live beside the field's own values. Measured on the bench
// (docs/BENCHMARKS.md), that is where they pay; a plain field keeps few values live, and Heun's
// single stage point gains nothing, so there the compiler's own allocation is left alone (it was
// as good or better).
// M4F float spherical pendulum feedback RK4: docs/runtime.md, "Distance to the floor".
template <class S, int Stages, int N, class Field>
ATTRACTOR_ALWAYS_INLINE void explicit_rk_step(const ButcherTableau<S, Stages>& t, const Field& f, Vec<S, N>& x, S h) {
  constexpr bool aids = Stages >= 3 && detail::is_feedback<Field>::value;
  Vec<S, N> k[Stages];
  Vec<S, N> acc;
  S* xp = x.data();
  detail::copy(acc, x);
#pragma GCC unroll 8
  for (int i = 0; i < Stages; ++i) {
    if (aids && i > 0) xp = detail::reread(xp);
    Vec<S, N> xi;
    detail::copy(xi, xp);
#pragma GCC unroll 8
    for (int j = 0; j < i; ++j)
      if (t.a[i][j] != S(0)) detail::add_scaled(xi, h * t.a[i][j], k[j]);
    k[i] = detail::evaluate_field(f, xi);
    if (t.b[i] != S(0)) detail::add_scaled(acc, h * t.b[i], k[i]);
    if (aids) detail::stage_boundary();
  }
  detail::copy(xp, acc);
}

template <class S, int N, class Field>
void euler_step(const Field& f, Vec<S, N>& x, S h) {
  static constexpr ButcherTableau<S, 1> t = euler_tableau<S>();
  explicit_rk_step(t, f, x, h);
}

template <class S, int N, class Field>
void heun_step(const Field& f, Vec<S, N>& x, S h) {
  static constexpr ButcherTableau<S, 2> t = heun_tableau<S>();
  explicit_rk_step(t, f, x, h);
}

template <class S, int N, class Field>
void rk4_step(const Field& f, Vec<S, N>& x, S h) {
  static constexpr ButcherTableau<S, 4> t = rk4_tableau<S>();
  explicit_rk_step(t, f, x, h);
}

// Run-time choice of the built-in schemes (CLIs, configuration frames).
enum class Scheme : unsigned char { euler = 0, heun = 1, rk4 = 2 };

constexpr const char* to_string(Scheme s) { return s == Scheme::euler ? "euler" : s == Scheme::heun ? "heun" : "rk4"; }

constexpr int order(Scheme s) { return s == Scheme::euler ? 1 : s == Scheme::heun ? 2 : 4; }

constexpr int stages(Scheme s) { return s == Scheme::euler ? 1 : s == Scheme::heun ? 2 : 4; }

template <class S>
constexpr S real_stability_limit(Scheme s) {
  return s == Scheme::rk4 ? rk4_tableau<S>().real_stability_limit : S(2);
}

template <class S, int N, class Field>
void step(Scheme s, const Field& f, Vec<S, N>& x, S h) {
  switch (s) {
    case Scheme::euler: euler_step(f, x, h); break;
    case Scheme::heun: heun_step(f, x, h); break;
    case Scheme::rk4: rk4_step(f, x, h); break;
  }
}

}  // namespace attractor
