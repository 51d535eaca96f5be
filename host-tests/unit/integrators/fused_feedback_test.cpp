// SPDX-License-Identifier: Apache-2.0
// The optional fused feedback hooks (integrate/system.hpp): a system's feedback_gradient(x, F0, K)
// must equal the generic DF(x)^T K (F(x) - F0) and its feedback_field(x, F0, K) must equal
// X(x) - DF(x)^T K (F(x) - F0), to rounding, in float and double, at random states, references
// and gains (paper 000 eq. (6); the fused forms only regroup the same terms). Feedback<> must
// pick the fused path up.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"

using namespace attractor;

namespace {

// Random states of each system (q away from 0 where the field divides by |q|²), double first.
template <int N>
Vec<double, N> uniform(std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  Vec<double, N> x;
  for (int i = 0; i < N; ++i) x[i] = u(rng);
  return x;
}

template <class S>
struct Spherical {
  using Sys = SphericalPendulum<S>;
  static Sys make() { return Sys::make(S(1.3), S(9.81), S(0.7)).value(); }
  static Vec<double, 6> state(std::mt19937& rng) {
    Vec<double, 6> x;
    do x = uniform<6>(rng, -2.0, 2.0);
    while (x.head<3>().norm() < 0.5);
    return x;
  }
};

template <class S>
struct Planar {
  using Sys = PlanarPendulum<S>;
  static Sys make() { return Sys::make(S(0.8), S(9.81), S(1.5)).value(); }
  static Vec<double, 4> state(std::mt19937& rng) {
    Vec<double, 4> x;
    do x = uniform<4>(rng, -2.0, 2.0);
    while (x.head<2>().norm() < 0.5);
    return x;
  }
};

template <class S>
struct Skate {
  using Sys = PendulumSkate<S>;
  static Sys make() { return Sys{PendulumSkateParams<S>{}}; }
  static Vec<double, 5> state(std::mt19937& rng) {  // |Γ2| < 1 (A(Γ2) is atanh when I2 < I3)
    Vec<double, 5> z = uniform<5>(rng, -2.0, 2.0);
    z.tail<2>() = uniform<2>(rng, -0.9, 0.9);
    return z;
  }
};

template <class S>
struct RotorPlant {
  using Sys = SkateRotorPlant<S>;
  static Sys make() { return Sys{PendulumSkateRotor<S>{}}; }
  static Vec<double, 6> state(std::mt19937& rng) { return uniform<6>(rng, -2.0, 2.0); }
};

template <class S>
struct Gamma {
  using Sys = AdvectedGamma<S>;
  static Sys make() {
    Sys g;
    g.omega = Vec3<S>(S(0.3), S(-1.2), S(0.7));
    g.measured = Vec3<S>(S(0.1), S(0.2), S(0.97));
    g.kappa = S(5);
    return g;
  }
  static Vec<double, 3> state(std::mt19937& rng) { return uniform<3>(rng, -1.5, 1.5); }
};

template <class Case>
class FusedFeedback : public ::testing::Test {};

using Cases = ::testing::Types<Spherical<float>, Spherical<double>, Planar<float>, Planar<double>, Skate<float>,
                               Skate<double>, RotorPlant<float>, RotorPlant<double>, Gamma<float>, Gamma<double>>;
TYPED_TEST_SUITE(FusedFeedback, Cases);

// |a - b|_inf / (eps * scale), scale = the size of the terms summed: |X|_inf + sum_i |e_i| |grad F_i|_1
// with e = K∘(F - F0) (both sides round each of those terms; a wrong or missing term is O(scale)).
template <class Sys>
struct Compare {
  using S = typename Sys::Scalar;
  static constexpr int N = Sys::N, M = Sys::M;
  static double scale(const Sys& sys, const Vec<S, N>& x, const Vec<S, M>& F0, const Vec<S, M>& K, bool with_field) {
    const Vec<S, M> e = K.cwiseProduct(sys.invariants(x) - F0);
    const Mat<S, M, N> J = sys.invariants_jacobian(x);
    double s = with_field ? double(sys.field(x).cwiseAbs().maxCoeff()) : 0.0;
    for (int i = 0; i < M; ++i) s += std::abs(double(e[i])) * double(J.row(i).cwiseAbs().sum());
    return s;
  }
  static double ulps(const Vec<S, N>& a, const Vec<S, N>& b, double scale) {
    return double((a - b).cwiseAbs().maxCoeff()) / (double(std::numeric_limits<S>::epsilon()) * scale);
  }
};

TYPED_TEST(FusedFeedback, AgreesWithTheGenericProductToRounding) {
  using Sys = typename TypeParam::Sys;
  using S = typename Sys::Scalar;
  constexpr int N = Sys::N, M = Sys::M;
  static_assert(has_feedback_gradient_v<Sys>, "the system has no fused gradient");
  const Sys sys = TypeParam::make();
  std::mt19937 rng(20261123);
  std::uniform_real_distribution<double> gain(0.1, 50.0);
  double worst_gradient = 0, worst_field = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec<S, N> x = TypeParam::state(rng).template cast<S>();
    const Vec<S, N> y = TypeParam::state(rng).template cast<S>();  // the reference's state
    Vec<S, M> K;
    for (int i = 0; i < M; ++i) K[i] = S(gain(rng));
    const Feedback<Sys> fb(sys, sys.invariants(y), K);

    const Vec<S, N> generic = fb.generic_gradient(x);
    const Vec<S, N> fused = sys.feedback_gradient(x, fb.reference(), K);
    const double sg = Compare<Sys>::scale(sys, x, fb.reference(), K, false);
    worst_gradient = std::max(worst_gradient, Compare<Sys>::ulps(fused, generic, sg));

    const Vec<S, N> generic_field = fb.generic_field(x);
    ASSERT_EQ(generic_field, (Vec<S, N>(sys.field(x) - generic)));
    const double sf = Compare<Sys>::scale(sys, x, fb.reference(), K, true);
    worst_field = std::max(worst_field, Compare<Sys>::ulps(fb(x), generic_field, sf));
    // Feedback<> uses the fused forms.
    ASSERT_EQ(fb.gradient(x), fused);
    if constexpr (has_feedback_field_v<Sys>) {
      ASSERT_EQ(fb(x), sys.feedback_field(x, fb.reference(), K));
    }
  }
  // A few roundings of the largest term; a wrong coefficient or a dropped term is >> 1e3 here.
  EXPECT_LT(worst_gradient, 16.0);
  EXPECT_LT(worst_field, 64.0);
  std::printf("worst gradient %.2f, field %.2f (eps x scale)\n", worst_gradient, worst_field);
}

// The error a wrong fused form makes is far above the tolerance: the scale is not so large that
// any answer passes (a dropped e_0 term, for instance, is caught).
TYPED_TEST(FusedFeedback, ToleranceCatchesADroppedTerm) {
  using Sys = typename TypeParam::Sys;
  using S = typename Sys::Scalar;
  constexpr int N = Sys::N, M = Sys::M;
  const Sys sys = TypeParam::make();
  std::mt19937 rng(7);
  const Vec<S, N> x = TypeParam::state(rng).template cast<S>();
  const Vec<S, N> y = TypeParam::state(rng).template cast<S>();
  const Vec<S, M> K = Vec<S, M>::Constant(S(10));
  const Feedback<Sys> fb(sys, sys.invariants(y), K);
  Vec<S, M> K_without_first = K;
  K_without_first[0] = S(0);
  const Vec<S, N> wrong = sys.feedback_gradient(x, fb.reference(), K_without_first);
  const double sg = Compare<Sys>::scale(sys, x, fb.reference(), K, false);
  EXPECT_GT(Compare<Sys>::ulps(wrong, fb.generic_gradient(x), sg), 1e3);
}

}  // namespace
