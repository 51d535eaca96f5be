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

// How a step combines its stages: x_next = x + (h * scale) * sum_i w_i k_i, with w_i * scale == b_i
// exactly (scale the first nonzero b_i: RK4's weights are 1, 2, 2, 1 and its scale 1/6, Heun's
// 1, 1 and 1/2). The sum is formed at the size of the increments and rounded onto x once per step;
// adding each (h b_i) k_i to x in turn would round x once per stage and lose every increment below
// half a unit in the last place of x on its own, even where their sum is not lost (in float, three
// to seven times the error of one rounding per step). Where some b_i / scale does not give b_i back
// exactly, the weights are the b_i themselves and the scale 1: still one rounding onto x.
// first: the first stage with a nonzero weight (it initialises the sum), -1 when there is none.
template <class S, int Stages>
struct StageWeights {
  S w[Stages];
  S scale;
  int first;
};

template <class S, int Stages>
constexpr StageWeights<S, Stages> stage_weights(const ButcherTableau<S, Stages>& t) {
  StageWeights<S, Stages> c{};
  c.first = -1;
  for (int i = Stages - 1; i >= 0; --i)
    if (t.b[i] != S(0)) c.first = i;
  if (c.first < 0) return c;
  const S scale = t.b[c.first];
  bool exact = true;
  for (int i = 0; i < Stages; ++i) exact = exact && (t.b[i] / scale) * scale == t.b[i];
  c.scale = exact ? scale : S(1);
  for (int i = 0; i < Stages; ++i) c.w[i] = exact ? t.b[i] / scale : t.b[i];
  return c;
}

namespace detail {
// Stage i's term of the step's sum: sum <- w k for the first contributing stage, sum + w k after it
// (w = 1 folds to a copy or an add).
template <class S, int N>
ATTRACTOR_ALWAYS_INLINE void add_stage(Vec<S, N>& sum, S w, const Vec<S, N>& k, bool first) {
  S* sp = sum.data();
  const S* kp = k.data();
  if (first) {
#pragma GCC unroll 16
    for (int n = 0; n < N; ++n) sp[n] = w * kp[n];
  } else {
#pragma GCC unroll 16
    for (int n = 0; n < N; ++n) sp[n] += w * kp[n];
  }
}
// x <- x + c * sum on x's raw array (the step's one rounding onto the state).
template <class S, int N>
ATTRACTOR_ALWAYS_INLINE void add_scaled(S* xp, S c, const Vec<S, N>& v) {
  const S* vp = v.data();
#pragma GCC unroll 16
  for (int n = 0; n < N; ++n) xp[n] += c * vp[n];
}
}  // namespace detail

// One explicit step of the tableau for the autonomous field f: x <- x + h * sum b_i k_i, the stages
// combined by the weights c = stage_weights(t) (computed once: the built-in steps hold theirs as
// constants).
// Inlined into every caller so that the constant tableaux of euler_step/heun_step/rk4_step are
// known there and their zero and unit entries fold away.
// f is any callable State(const State&) (a Feedback wrapper, a lambda) or a system, whose field()
// is then the field.
// Zero entries of the tableau are skipped: IEEE arithmetic cannot fold x + (h*0)*k away (k may
// be Inf/NaN), yet the term is exactly zero for finite k, and a non-finite k_j still reaches x
// through its own b_j. The result is the same for finite stages. For the built-in constant
// tableaux the loops unroll and the zero tests fold at compile time (RK4: 3 stage sums of one term
// instead of 6 terms, no loop bookkeeping). The skipped set depends only on the tableau, so
// a step still costs the same instructions every time.
// The sum of the weighted stages is accumulated as each stage is computed (sum = k_1, then
// sum += w_i k_i in stage order), and x gets (h scale) sum at the end; where the compiler
// contracts a*b + c (Cortex-M4F/M7, x86 with FMA) the roundings inside the sum differ from
// separate multiplies and adds, far below the one onto x. A stage no later stage reads (RK4,
// Heun: every k_j but the last) is dead once added, which leaves the register allocator fewer
// live values.
// On Arm (detail::reread) x is read from memory where keeping it in registers would cost more,
// neither changing an operation:
//   - RK4 on the feedback field (Feedback<>, which keeps the invariants' references and gains live
//     beside the field's own values): stages 3 and 4 read x again. A stage point x + c k is a
//     multiply-add whose addend register it overwrites, so x kept in registers costs a copy per
//     component per stage anyway; a load costs the same and frees N registers (of the 32
//     single-precision FPU registers of the M4F, 16 double-precision of the M7). Stage 2 uses the
//     x stage 1 read: it is live across stage 1 only, where no sum is yet.
//   - RK4 on the feedback field: the stages are scheduling regions (detail::stage_boundary), but
//     stages 2 and 3 one region together. GCC's pre-allocation scheduler otherwise moves a stage's
//     sum update (short of the critical path) into the next stage, keeping its k live across that
//     stage's field and spilling. Without the boundary after stage 2 the bench came out lower in
//     total (sleigh, knife edge) than with one after every stage.
//   - Heun (two stages): the final x + (h scale) sum reads x again instead of keeping it across
//     the second stage.
// Measured on the bench (docs/BENCHMARKS.md): elsewhere the compiler's own allocation was as
// good or better.
// M4F float spherical pendulum feedback RK4: docs/runtime.md, "Distance to the floor".
template <class S, int Stages, int N, class Field>
ATTRACTOR_ALWAYS_INLINE void explicit_rk_step(const ButcherTableau<S, Stages>& t, const StageWeights<S, Stages>& c,
                                              const Field& f, Vec<S, N>& x, S h) {
  constexpr bool aids = Stages >= 3 && detail::is_feedback<Field>::value;
  Vec<S, N> k[Stages];
  Vec<S, N> sum;
  S* xp = x.data();
#pragma GCC unroll 8
  for (int i = 0; i < Stages; ++i) {
    if (aids && i > 1) xp = detail::reread(xp);
    Vec<S, N> xi;
    detail::copy(xi, xp);
#pragma GCC unroll 8
    for (int j = 0; j < i; ++j)
      if (t.a[i][j] != S(0)) detail::add_scaled(xi, h * t.a[i][j], k[j]);
    k[i] = detail::evaluate_field(f, xi);
    if (c.w[i] != S(0)) detail::add_stage(sum, c.w[i], k[i], i == c.first);
    if (aids && i != 1) detail::stage_boundary();
  }
  if (c.first >= 0) detail::add_scaled(Stages == 2 ? detail::reread(xp) : xp, h * c.scale, sum);
}

// The same with the weights computed here (a tableau known only at run time).
template <class S, int Stages, int N, class Field>
ATTRACTOR_ALWAYS_INLINE void explicit_rk_step(const ButcherTableau<S, Stages>& t, const Field& f, Vec<S, N>& x, S h) {
  explicit_rk_step(t, stage_weights(t), f, x, h);
}

template <class S, int N, class Field>
void euler_step(const Field& f, Vec<S, N>& x, S h) {
  static constexpr ButcherTableau<S, 1> t = euler_tableau<S>();
  static constexpr StageWeights<S, 1> c = stage_weights(t);
  explicit_rk_step(t, c, f, x, h);
}

template <class S, int N, class Field>
void heun_step(const Field& f, Vec<S, N>& x, S h) {
  static constexpr ButcherTableau<S, 2> t = heun_tableau<S>();
  static constexpr StageWeights<S, 2> c = stage_weights(t);
  explicit_rk_step(t, c, f, x, h);
}

template <class S, int N, class Field>
void rk4_step(const Field& f, Vec<S, N>& x, S h) {
  static constexpr ButcherTableau<S, 4> t = rk4_tableau<S>();
  static constexpr StageWeights<S, 4> c = stage_weights(t);
  explicit_rk_step(t, c, f, x, h);
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
