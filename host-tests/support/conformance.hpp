// SPDX-License-Identifier: Apache-2.0
// The conformance harness every feedback-integrator System (integrate/system.hpp) passes, in float
// and in double. A system's test folder adds a sampler and one line:
//
//   namespace attractor::test {
//   template <class S>
//   struct Conformance<MySystem<S>> : ConformanceDefaults {
//     static MySystem<S> make(std::mt19937&) { return ...; }   // optional: default MySystem<S>{}
//     static Vec<double, N> sample(std::mt19937& rng, const MySystem<S>& sys);  // reachable state
//   };
//   }  // namespace attractor::test
//   ATTRACTOR_CONFORMANCE(MySystemConformance, MySystem);
//
// which registers, for MySystem<float> and MySystem<double>:
//   FieldConservesItsInvariants   DF_i(x)·X(x) = 0 at sampled states, relative to |DF_i|_1 |X|_inf:
//                                 per row for a first integral; rows of one gain group
//                                 (gain_group, e.g. RᵀR = I) on the group's target set
//                                 (invariant_targets), where the samples must lie.
//   JacobianMatchesCentralDifferences   invariants_jacobian near the samples (off_set) against
//                                 central differences (numeric_jacobian.hpp) of the double
//                                 system's invariants (float: its analytic rows, in float).
//   FusedHooksMatchGenericFeedback   Feedback<> (through feedback_gradient / feedback_field when
//                                 present) against Feedback::generic_gradient / generic_field, off
//                                 the invariant set, at random gains; and a dropped term is caught.
//   NoAllocation                  field, invariants, Jacobian, Feedback and one RK4 feedback step
//                                 under NoAllocGuard (no_alloc.hpp).
//
// make(rng) may draw the system's held inputs (a torque, a measured rate) so that they vary with
// the samples; sample(rng, sys) returns a state, in double, of the region the system is used on
// (e.g. on a constraint, or where a row is a first integral); the harness casts it to Scalar.
// ConformanceDefaults has the knobs a specialisation may override (first_integral(row), the
// tolerances, how far off the set the fused check goes); each default is what the systems of the
// tree needed, with margin.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/system.hpp"
#include "no_alloc.hpp"
#include "numeric_jacobian.hpp"

namespace attractor::test {

template <class Sys>
struct Conformance;  // one specialisation per system template (header comment)

struct ConformanceDefaults {
  // false for a monitored row the field does not conserve on the sampled region (a constraint
  // only the feedback term keeps, e.g. Γ1 = 0 of the advected vertical under a measured rate).
  static constexpr bool first_integral(int /*row*/) { return true; }
  static constexpr int samples = 200;
  // |DF_i·X| / (|DF_i|_1 |X|_inf): rounding of the field's terms, which cancel (the pendulum's
  // field is ~1e-3 of its parts), against O(1) for a wrong or missing term of the field or the
  // Jacobian.
  static constexpr double conservation_float = 1e-4;
  static constexpr double conservation_double = 1e-13;
  // |J − J_fd|_ij / max(1, |J_fd,i|_inf); J_fd central differences in double.
  static constexpr double jacobian_float = 1e-5;
  static constexpr double jacobian_double = 1e-6;
  // Fused against generic, in units of eps × (size of the summed terms).
  static constexpr double fused_gradient_ulps = 16;
  static constexpr double fused_field_ulps = 64;
  // The Jacobian and fused checks' states: sample + δ, |δ_j| ≤ off_set (1 + |x_j|), so that
  // constraint rows have F ≠ F0 and no entry is tested only where it happens to vanish.
  static constexpr double off_set = 0.05;
};

// Sampler helpers: N uniform draws in [lo, hi]; a uniformly distributed unit 3-vector.
template <int N>
Vec<double, N> uniform(std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  Vec<double, N> x;
  for (int i = 0; i < N; ++i) x[i] = u(rng);
  return x;
}
inline Vec3<double> unit_vector(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Vec3<double> v;
  do v = Vec3<double>(n(rng), n(rng), n(rng));
  while (v.norm() < 1e-3);
  return v.normalized();
}

namespace conformance {

template <class C, class Sys, class = void>
struct has_make : std::false_type {};
template <class C, class Sys>
struct has_make<C, Sys, std::void_t<decltype(C::make(std::declval<std::mt19937&>()))>> : std::true_type {};

template <class Sys>
Sys make(std::mt19937& rng) {
  if constexpr (has_make<Conformance<Sys>, Sys>::value) {
    return Conformance<Sys>::make(rng);
  } else {
    return Sys{};
  }
}

template <class Sys>
Vec<typename Sys::Scalar, Sys::N> sample(std::mt19937& rng, const Sys& sys) {
  return Conformance<Sys>::sample(rng, sys).template cast<typename Sys::Scalar>();
}

// A sample moved off the invariant set by δ, |δ_j| ≤ off_set (1 + |x_j|) (ConformanceDefaults).
template <class Sys>
Vec<double, Sys::N> off_set_sample(std::mt19937& rng, const Sys& sys) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Vec<double, Sys::N> x = Conformance<Sys>::sample(rng, sys);
  for (int j = 0; j < Sys::N; ++j) x[j] += Conformance<Sys>::off_set * (1 + std::abs(x[j])) * unit(rng);
  return x;
}

template <class S>
constexpr double pick(double float_value, double double_value) {
  return std::is_same<S, float>::value ? float_value : double_value;
}

// Number of rows in row's gain group (integrate/system.hpp: gain_group_of).
template <class Sys>
constexpr int group_size(int row) {
  int n = 0;
  for (int i = 0; i < Sys::M; ++i) n += gain_group_of<Sys>(i) == gain_group_of<Sys>(row) ? 1 : 0;
  return n;
}

}  // namespace conformance

// DF(x)·X(x) = 0 per first-integral row. A row of a gain group of several rows (e.g. the entries
// of RᵀR = I) is invariant only with the others, on their target set: the sample must lie on it
// (F_i = T_i to rounding, T from invariant_targets), and there its rate must vanish too.
template <class Sys>
void check_conservation() {
  using S = typename Sys::Scalar;
  using C = Conformance<Sys>;
  constexpr int N = Sys::N, M = Sys::M;
  const double on_set = 1e3 * double(std::numeric_limits<S>::epsilon());
  std::mt19937 rng(20261124);
  double worst = 0;
  int checked = 0;
  for (int trial = 0; trial < C::samples; ++trial) {
    const Sys sys = conformance::make<Sys>(rng);
    const Vec<S, N> x = conformance::sample(rng, sys);
    const Vec<S, N> X = sys.field(x);
    const Mat<S, M, N> DF = sys.invariants_jacobian(x);
    const Vec<S, M> F = sys.invariants(x);
    const Vec<S, M> T = invariant_reference(sys, F);
    const double size_X = double(X.cwiseAbs().maxCoeff());
    for (int i = 0; i < M; ++i) {
      if (!C::first_integral(i)) continue;
      if (conformance::group_size<Sys>(i) > 1) {
        ASSERT_LE(std::abs(double(F[i] - T[i])), on_set * (1 + std::abs(double(T[i]))))
            << "row " << i << " (gain group " << gain_group_of<Sys>(i) << "): the sample is off the group's set";
      }
      const double rate = double(DF.row(i).dot(X));
      const double scale = double(DF.row(i).cwiseAbs().sum()) * size_X;
      ASSERT_TRUE(std::isfinite(rate)) << "row " << i << " at trial " << trial;
      worst = std::max(worst, std::abs(rate) / (scale + 1e-300));
      ++checked;
    }
  }
  ASSERT_GT(checked, 0) << "no row of the system is a first integral on its samples";
  EXPECT_LT(worst, conformance::pick<S>(C::conservation_float, C::conservation_double));
  std::printf("worst |DF.X| / (|DF|_1 |X|_inf) = %.3g\n", worst);
}

// Analytic Jacobian of Sys (float or double) against central differences of Double's invariants.
template <class Sys, class Double>
void check_jacobian() {
  using S = typename Sys::Scalar;
  using C = Conformance<Sys>;
  constexpr int N = Sys::N, M = Sys::M;
  static_assert(std::is_same<typename Double::Scalar, double>::value && Double::N == N && Double::M == M,
                "check_jacobian<Sys, Double>: Double is Sys in double");
  std::mt19937 rng(20261125);
  double worst = 0;
  for (int trial = 0; trial < C::samples / 10 + 1; ++trial) {
    std::mt19937 fork = rng;  // the same system and state in both precisions
    const Sys sys = conformance::make<Sys>(rng);
    const Double ref = conformance::make<Double>(fork);
    const Vec<double, N> x = conformance::off_set_sample(fork, ref);
    (void)conformance::off_set_sample(rng, sys);
    const Mat<S, M, N> J = sys.invariants_jacobian(x.template cast<S>());
    const Mat<double, M, N> Jfd = numeric_jacobian<M>([&ref](const Vec<double, N>& y) { return ref.invariants(y); }, x);
    for (int i = 0; i < M; ++i) {
      const double size = std::max(1.0, Jfd.row(i).cwiseAbs().maxCoeff());
      for (int j = 0; j < N; ++j) {
        const double d = std::abs(double(J(i, j)) - Jfd(i, j)) / size;
        ASSERT_TRUE(std::isfinite(d)) << "row " << i << " column " << j;
        worst = std::max(worst, d);
        EXPECT_LT(d, conformance::pick<S>(C::jacobian_float, C::jacobian_double)) << "row " << i << " column " << j;
      }
    }
  }
  std::printf("worst |J - J_fd| / max(1, |J_i|) = %.3g\n", worst);
}

// |a − b|_inf / (eps × scale), scale the size of the terms both sides sum: |X|_inf (field only)
// + Σ_i |e_i| |∇F_i|_1, e = K∘(F − F0). A wrong or missing term is O(scale).
template <class Sys>
double fused_ulps(const Sys& sys, const Vec<typename Sys::Scalar, Sys::N>& x,
                  const Vec<typename Sys::Scalar, Sys::M>& F0, const Vec<typename Sys::Scalar, Sys::M>& K,
                  const Vec<typename Sys::Scalar, Sys::N>& a, const Vec<typename Sys::Scalar, Sys::N>& b,
                  bool with_field) {
  using S = typename Sys::Scalar;
  const Vec<S, Sys::M> e = K.cwiseProduct(sys.invariants(x) - F0);
  const Mat<S, Sys::M, Sys::N> J = sys.invariants_jacobian(x);
  double scale = with_field ? double(sys.field(x).cwiseAbs().maxCoeff()) : 0.0;
  for (int i = 0; i < Sys::M; ++i) scale += std::abs(double(e[i])) * double(J.row(i).cwiseAbs().sum());
  return double((a - b).cwiseAbs().maxCoeff()) / (double(std::numeric_limits<S>::epsilon()) * (scale + 1e-300));
}

// Feedback<Sys> (fused hooks when present) against its generic product, off the invariant set.
template <class Sys>
void check_fused_hooks() {
  using S = typename Sys::Scalar;
  using C = Conformance<Sys>;
  constexpr int N = Sys::N, M = Sys::M;
  std::mt19937 rng(20261126);
  std::uniform_real_distribution<double> gain(0.1, 50.0);
  double worst_gradient = 0, worst_field = 0, least_dropped = std::numeric_limits<double>::infinity();
  for (int trial = 0; trial < C::samples; ++trial) {
    const Sys sys = conformance::make<Sys>(rng);
    const Vec<S, N> x = conformance::off_set_sample(rng, sys).template cast<S>();
    const Vec<S, N> y = conformance::sample(rng, sys);  // the reference's state
    Vec<S, M> K;
    for (int i = 0; i < M; ++i) K[i] = S(gain(rng));
    const Feedback<Sys> fb(sys, invariant_reference(sys, sys.invariants(y)), K);
    const Vec<S, N> generic = fb.generic_gradient(x);
    const Vec<S, N> generic_field = fb.generic_field(x);
    ASSERT_EQ(generic_field, (Vec<S, N>(sys.field(x) - generic)));
    worst_gradient = std::max(worst_gradient, fused_ulps(sys, x, fb.reference(), K, fb.gradient(x), generic, false));
    worst_field = std::max(worst_field, fused_ulps(sys, x, fb.reference(), K, fb(x), generic_field, true));
    if constexpr (has_feedback_gradient_v<Sys>) {
      ASSERT_EQ(fb.gradient(x), sys.feedback_gradient(x, fb.reference(), K));  // Feedback<> uses it
      // Dropping the largest term (its gain set to 0) must be seen: the tolerance is not so
      // loose that any answer passes.
      const Vec<S, M> e = K.cwiseProduct(sys.invariants(x) - fb.reference());
      const Mat<S, M, N> J = sys.invariants_jacobian(x);
      int top = 0;
      for (int i = 1; i < M; ++i)
        if (std::abs(e[i]) * J.row(i).cwiseAbs().sum() > std::abs(e[top]) * J.row(top).cwiseAbs().sum()) top = i;
      Vec<S, M> K_dropped = K;
      K_dropped[top] = S(0);
      least_dropped = std::min(
          least_dropped,
          fused_ulps(sys, x, fb.reference(), K, sys.feedback_gradient(x, fb.reference(), K_dropped), generic, false));
    }
    if constexpr (has_feedback_field_v<Sys>) {
      ASSERT_EQ(fb(x), sys.feedback_field(x, fb.reference(), K));
    }
  }
  EXPECT_LT(worst_gradient, C::fused_gradient_ulps);
  EXPECT_LT(worst_field, C::fused_field_ulps);
  if constexpr (has_feedback_gradient_v<Sys>) {
    EXPECT_GT(least_dropped, 1e3);
  }
  std::printf("worst fused vs generic: gradient %.2f, field %.2f (eps x scale)\n", worst_gradient, worst_field);
}

// The hot paths allocate nothing (the guard aborts the test on any operator new or Eigen malloc).
template <class Sys>
void check_no_allocation() {
  using S = typename Sys::Scalar;
  constexpr int N = Sys::N, M = Sys::M;
  std::mt19937 rng(20261127);
  const Sys sys = conformance::make<Sys>(rng);
  Vec<S, N> x = conformance::sample(rng, sys);
  const Vec<S, M> K = Vec<S, M>::Constant(S(10));
  const long before = allocation_count();
  S sink(0);
  {
    NoAllocGuard guard;
    const Feedback<Sys> fb(sys, invariant_reference(sys, sys.invariants(x)), K);
    sink += sys.field(x).sum() + sys.invariants(x).sum() + sys.invariants_jacobian(x).sum();
    sink += fb.generic_field(x).sum() + fb(x).sum() + fb.lyapunov(x) + fb.stiffness(x);
    rk4_step(fb, x, S(1e-3));
    rk4_step(sys, x, S(1e-3));
  }
  EXPECT_EQ(allocation_count(), before);
  EXPECT_TRUE(std::isfinite(double(sink + x.sum())));
}

// One registered case of the harness: a fixture per system type, its body one of the checks.
template <class Sys>
class ConformanceCase : public ::testing::Test {
 public:
  explicit ConformanceCase(void (*check)()) : check_(check) {}
  void TestBody() override { check_(); }

 private:
  void (*check_)();
};

// Registers the four checks for Sys under suite/index, named as TYPED_TEST names them
// ("Name/0.FieldConservesItsInvariants", "# TypeParam = ..."). One loop in a function kept out of
// line, instead of TYPED_TEST's registration inlined per test into the unit's static
// initializer: under ASan that initializer was the unit's costliest function to compile.
template <class Sys, class Double>
[[gnu::noinline]] bool register_conformance(const char* name, int index, const char* file, int line) {
  struct Check {
    const char* test;
    void (*body)();
  };
  static constexpr Check checks[] = {{"FieldConservesItsInvariants", &check_conservation<Sys>},
                                     {"JacobianMatchesCentralDifferences", &check_jacobian<Sys, Double>},
                                     {"FusedHooksMatchGenericFeedback", &check_fused_hooks<Sys>},
                                     {"NoAllocation", &check_no_allocation<Sys>}};
  const std::string suite = std::string(name) + "/" + std::to_string(index);
  const std::string type = ::testing::internal::GetTypeName<Sys>();
  for (const Check& c : checks) {
    ::testing::RegisterTest(suite.c_str(), c.test, type.c_str(), nullptr, file, line,
                            [body = c.body]() -> ::testing::Test* { return new ConformanceCase<Sys>(body); });
  }
  return true;
}

}  // namespace attractor::test

// The harness for Template<float> (suite Name/0) and Template<double> (Name/1), test names as
// the header comment lists. Name must be unique in the test binary.
#define ATTRACTOR_CONFORMANCE(Name, Template)                                                                     \
  [[maybe_unused]] static const bool Name##Registered =                                                           \
      ::attractor::test::register_conformance<Template<float>, Template<double>>(#Name, 0, __FILE__, __LINE__) && \
      ::attractor::test::register_conformance<Template<double>, Template<double>>(#Name, 1, __FILE__, __LINE__)
