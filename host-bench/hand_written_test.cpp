// SPDX-License-Identifier: Apache-2.0
// The hand-written reference steps of apps/bench/hand_written.hpp must give the library's step
// to rounding (same system, state, reference, gains, h), in float and double, at random states,
// parameters and gains: otherwise the "library vs hand-written" rows of docs/BENCHMARKS.md would
// compare different computations. The bound is a few ulps of the state's scale per step; h is
// drawn inside the feedback term's stability range (h * stiffness <= 1), as a real step is.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "hand_written.hpp"

using namespace attractor;

namespace {

constexpr int kTrials = 200;

template <class S>
S tolerance(S scale) {  // 64 ulps of the state's scale: both sides round differently per stage
  return S(64) * std::numeric_limits<S>::epsilon() * scale;
}

template <class S>
Vec<S, 6> random_spherical_state(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  Vec<double, 6> x;
  do {
    for (int i = 0; i < 6; ++i) x[i] = u(rng);
  } while (x.head<3>().squaredNorm() < 0.25);  // away from q = 0 where the field divides by |q|²
  return x.cast<S>();
}

template <class S>
void check_spherical(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> par(0.5, 2.0), gain(0.0, 30.0), step(1e-4, 1e-2);
  for (int t = 0; t < kTrials; ++t) {
    const S m = S(par(rng)), g = S(par(rng) * 5);
    const auto sys = SphericalPendulum<S>::make(m, g, S(1)).value();
    const Vec<S, 6> x0 = random_spherical_state<S>(rng);
    // The reference F0 from a nearby state: x0 is off the invariant set by a random amount.
    const Vec<S, 6> xr = x0 + S(0.1) * random_spherical_state<S>(rng);
    const Vec<S, 4> K(S(gain(rng)), S(gain(rng)), S(gain(rng)), S(gain(rng)));
    const Feedback<SphericalPendulum<S>> fb(sys, sys.invariants(xr), K);
    const S h = std::min(S(step(rng)), S(1) / fb.stiffness(x0));

    Vec<S, 6> lib = x0, hand = x0;
    rk4_step(fb, lib, h);
    const S scale = S(1) + x0.cwiseAbs().maxCoeff() + lib.cwiseAbs().maxCoeff();
    const bench::SphericalFeedbackRk4<S> by_hand(m, g, fb.reference().data(), K.data());
    by_hand.step(hand.data(), h);
    ASSERT_LE((lib - hand).cwiseAbs().maxCoeff(), tolerance(scale)) << "feedback-rk4 trial " << t;
    ASSERT_NE(lib, x0);  // the step moved the state: the comparison is not vacuous

    lib = x0, hand = x0;
    rk4_step([&sys](const Vec<S, 6>& x) { return sys.field(x); }, lib, h);
    bench::SphericalRk4<S>(m, g).step(hand.data(), h);
    ASSERT_LE((lib - hand).cwiseAbs().maxCoeff(), tolerance(scale)) << "rk4 trial " << t;
  }
}

template <class S>
void check_gamma(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), gain(0.0, 60.0), step(1e-4, 1e-2);
  for (int t = 0; t < kTrials; ++t) {
    AdvectedGamma<S> sys;
    sys.omega = Vec3<double>(5 * u(rng), 5 * u(rng), 5 * u(rng)).cast<S>();
    sys.measured = Vec3<double>(u(rng), u(rng), u(rng)).normalized().cast<S>();
    sys.kappa = S(t % 2 == 0 ? 0.0 : 10 * (u(rng) + 1));  // without and with fusion
    const Vec3<S> G0 = Vec3<double>(u(rng), u(rng), u(rng)).normalized().cast<S>();
    const Vec<S, 2> F0(S(1), S(0)), K(S(gain(rng)), S(gain(rng)));
    const Feedback<AdvectedGamma<S>> fb(sys, F0, K);
    const S h = S(step(rng));

    Vec3<S> lib = G0, hand = G0;
    rk4_step(fb, lib, h);
    bench::GammaFeedbackRk4<S> by_hand{};
    for (int i = 0; i < 3; ++i) by_hand.omega[i] = sys.omega[i], by_hand.measured[i] = sys.measured[i];
    by_hand.kappa = sys.kappa;
    for (int i = 0; i < 2; ++i) by_hand.F0[i] = F0[i], by_hand.K[i] = K[i];
    by_hand.step(hand.data(), h);
    ASSERT_LE((lib - hand).cwiseAbs().maxCoeff(), tolerance(S(2))) << "gamma trial " << t;
    ASSERT_NE(lib, G0);
  }
}

TEST(HandWrittenReference, SphericalPendulumStepsMatchTheLibraryFloat) { check_spherical<float>(11); }
TEST(HandWrittenReference, SphericalPendulumStepsMatchTheLibraryDouble) { check_spherical<double>(12); }
TEST(HandWrittenReference, SkateGammaEstimatorStepMatchesTheLibraryFloat) { check_gamma<float>(13); }
TEST(HandWrittenReference, SkateGammaEstimatorStepMatchesTheLibraryDouble) { check_gamma<double>(14); }

}  // namespace
