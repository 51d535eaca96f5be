// SPDX-License-Identifier: Apache-2.0
// The generated nonholonomic oscillator, particle and Chaplygin sleigh (contact-point coordinates) against
// hand-written ones (the oscillator's and the particle's are test references in host-tests/support): field, invariants
// and fused feedback field at random states on the constraint set, and a feedback RK4 run of the documented case, in
// float and double.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "attractor/generated/chaplygin_sleigh_xy.hpp"
#include "attractor/generated/nonholonomic_oscillator.hpp"
#include "attractor/generated/nonholonomic_particle.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/chaplygin_sleigh_xy.hpp"
#include "hand_nonholonomic_oscillator.hpp"
#include "hand_nonholonomic_particle.hpp"
#include "relative_difference.hpp"

using namespace attractor;
using attractor::generated_test::relative_difference;

namespace {

template <class S>
struct CotangentTolerance;
template <>
struct CotangentTolerance<float> {
  static constexpr double at_state = 1e-5, trajectory = 1e-4;
};
template <>
struct CotangentTolerance<double> {
  static constexpr double at_state = 1e-13, trajectory = 1e-11;
};

// A random state of `hand` (double) moved onto its constraint set, cast to S.
template <class S, class HandD>
Vec<S, HandD::N> on_constraint(const HandD& hand, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  Vec<double, HandD::N> x;
  for (int i = 0; i < HandD::N; ++i) x[i] = u(rng);
  const auto t = hand.terms(x);
  x.template tail<HandD::Q>() -= t.m * (t.e * (t.C * t.c));
  return x.template cast<S>();
}

struct Agreement {
  double field = 0, invariants = 0, fused = 0, trajectory = 0;
};

template <class S, class Gen, class Hand, class HandD>
Agreement agreement(const Gen& gen, const Hand& hand, const HandD& hand_d, const Vec<S, Gen::N>& x0,
                    const Vec<S, Gen::M>& gains, double h, int steps) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> gain(0.1, 10.0);
  Agreement a;
  for (int i = 0; i < 200; ++i) {
    const Vec<S, Gen::N> x = on_constraint<S>(hand_d, rng);
    const Vec<S, Gen::M> F0 = hand.invariants(on_constraint<S>(hand_d, rng));
    Vec<S, Gen::M> K;
    for (int r = 0; r < Gen::M; ++r) K[r] = S(gain(rng));
    a.field = std::max(a.field, relative_difference(gen.field(x), hand.field(x)));
    a.invariants = std::max(a.invariants, relative_difference(gen.invariants(x), hand.invariants(x)));
    a.fused = std::max(a.fused, relative_difference(gen.feedback_field(x, F0, K), hand.feedback_field(x, F0, K)));
  }
  const auto fg = *Feedback<Gen>::make(gen, x0, gains);
  const auto fh = *Feedback<Hand>::make(hand, x0, gains);
  Vec<S, Gen::N> xg = x0, xh = x0;
  for (int k = 0; k < steps; ++k) {
    rk4_step(fg, xg, S(h));
    rk4_step(fh, xh, S(h));
    a.trajectory = std::max(a.trajectory, relative_difference(xg, xh));
  }
  return a;
}

template <class S>
void expect_agreement(const char* name, const Agreement& a) {
  std::printf("%s (%s): field %.2e, invariants %.2e, feedback field %.2e, RK4 trajectory %.2e\n", name,
              sizeof(S) == 4 ? "float" : "double", a.field, a.invariants, a.fused, a.trajectory);
  EXPECT_LT(a.field, CotangentTolerance<S>::at_state) << name;
  EXPECT_LT(a.invariants, CotangentTolerance<S>::at_state) << name;
  EXPECT_LT(a.fused, 10 * CotangentTolerance<S>::at_state) << name;
  EXPECT_LT(a.trajectory, CotangentTolerance<S>::trajectory) << name;
}

template <class S>
class GeneratedCotangent : public ::testing::Test {};
using CotangentScalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(GeneratedCotangent, CotangentScalars);

TYPED_TEST(GeneratedCotangent, NonholonomicOscillatorAgreesWithTheHandWritten) {
  using S = TypeParam;
  const auto gen = *generated::NonholonomicOscillator<S>::make();
  const auto hand = *hand::NonholonomicOscillator<S>::make();
  const Vec<S, 6> x0 = (Vec<S, 6>() << 1, 1, 1, 0, 0, 0).finished();  // paper 000 §3.7
  const auto a =
      agreement<S>(gen, hand, *hand::NonholonomicOscillator<double>::make(), x0, Vec<S, 3>(300, 500, 300), 1e-3, 10000);
  expect_agreement<S>("nonholonomic oscillator", a);
}

TYPED_TEST(GeneratedCotangent, ChaplyginSleighXYAgreesWithTheHandWritten) {
  using S = TypeParam;
  ChaplyginSleighParams<S> hp;
  hp.mass = S(1.4), hp.inertia = S(0.8), hp.offset = S(-0.3);
  generated::ChaplyginSleighXYParams<S> gp;
  gp.mass = hp.mass, gp.inertia = hp.inertia, gp.offset = hp.offset;
  ChaplyginSleighParams<double> hd;
  hd.mass = 1.4, hd.inertia = 0.8, hd.offset = -0.3;
  const auto gen = *generated::ChaplyginSleighXY<S>::make(gp);
  const auto hand = *ChaplyginSleighXY<S>::make(hp);
  const Vec<S, 6> x0 = hand.state(S(0.2), S(-0.1), S(0.4), S(1), S(1));
  const auto a = agreement<S>(gen, hand, *ChaplyginSleighXY<double>::make(hd), x0, Vec<S, 2>(50, 50), 1e-3, 10000);
  expect_agreement<S>("Chaplygin sleigh (x, y, theta)", a);
}

TYPED_TEST(GeneratedCotangent, NonholonomicParticleAgreesWithTheHandWritten) {
  using S = TypeParam;
  generated::NonholonomicParticleParams<S> gp;
  gp.m = S(1.7);
  const auto gen = *generated::NonholonomicParticle<S>::make(gp);
  const auto hand = *hand::NonholonomicParticle<S>::make(S(1.7));
  const Vec<S, 6> x0 = (Vec<S, 6>() << 0, S(0.3), 0, S(1.7), S(0.85), S(0.51)).finished();  // paper 001 Example 1
  const auto a =
      agreement<S>(gen, hand, *hand::NonholonomicParticle<double>::make(1.7), x0, Vec<S, 3>(10, 10, 10), 1e-3, 10000);
  expect_agreement<S>("nonholonomic particle", a);
}

}  // namespace
