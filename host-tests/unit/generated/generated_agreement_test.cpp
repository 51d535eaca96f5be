// SPDX-License-Identifier: Apache-2.0
// The generated pendulums (models/*.toml, scripts/attractor-model, lib/include/attractor/
// generated/) against the hand-written ones: the field, the invariants and the fused feedback
// field at random states, and feedback RK4 trajectories of the documented cases, in float and
// double. The generated spherical pendulum's second row is the rate of its constraint,
// d|q|²/dt = 2 q·p/m, where the hand-written one monitors q·p: the same row scaled by 2/m, so
// its gain is scaled by (m/2)² for the same Lyapunov function V.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "attractor/generated/planar_pendulum.hpp"
#include "attractor/generated/spherical_pendulum.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "relative_difference.hpp"

using namespace attractor;
using attractor::generated_test::relative_difference;

namespace {

template <class S>
struct Tolerance;
template <>
struct Tolerance<float> {
  static constexpr double at_state = 2e-6, trajectory = 2e-5;
};
template <>
struct Tolerance<double> {
  static constexpr double at_state = 1e-13, trajectory = 1e-12;
};

template <class S>
Vec<S, 6> pendulum_state(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  Vec<double, 6> x;
  do
    for (int i = 0; i < 6; ++i) x[i] = u(rng);
  while (x.head<3>().norm() < 0.5);
  return x.cast<S>();
}

// Max relative difference of two feedback RK4 runs of `steps` steps from x0.
template <class FbA, class FbB, class State>
double trajectory_difference(const FbA& a, const FbB& b, State x0, double h, int steps) {
  State xa = x0, xb = x0;
  double worst = 0;
  using S = typename State::Scalar;
  for (int k = 0; k < steps; ++k) {
    rk4_step(a, xa, S(h));
    rk4_step(b, xb, S(h));
    worst = std::max(worst, relative_difference(xa, xb));
  }
  return worst;
}

template <class S>
class Generated : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Generated, Scalars);

TYPED_TEST(Generated, SphericalPendulumAgreesWithTheHandWritten) {
  using S = TypeParam;
  const S m = S(1.3), g = S(9.81), l = S(0.7);
  const auto hand = *SphericalPendulum<S>::make(m, g, l);
  generated::SphericalPendulumParams<S> gp;
  gp.mass = m, gp.gravity = g, gp.length = l;
  const auto gen = *generated::SphericalPendulum<S>::make(gp);
  const Vec<S, 4> row_scale(S(1), S(2) / m, S(1), S(1));  // generated F = row_scale ∘ hand-written F
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> gain(0.1, 10.0);
  double field = 0, inv = 0, fused = 0;
  for (int i = 0; i < 200; ++i) {
    const Vec<S, 6> x = pendulum_state<S>(rng);
    const Vec<S, 4> F0 = hand.invariants(pendulum_state<S>(rng));
    Vec<S, 4> K;
    for (int r = 0; r < 4; ++r) K[r] = S(gain(rng));
    const Vec<S, 4> Kg = K.cwiseQuotient(row_scale.cwiseProduct(row_scale));
    field = std::max(field, relative_difference(gen.field(x), hand.field(x)));
    inv = std::max(inv, relative_difference(gen.invariants(x), Vec<S, 4>(row_scale.cwiseProduct(hand.invariants(x)))));
    fused = std::max(fused, relative_difference(gen.feedback_field(x, row_scale.cwiseProduct(F0), Kg),
                                                hand.feedback_field(x, F0, K)));
  }
  // Paper 002 §2.3's case with gains 50, t in [0, 20].
  const Vec<S, 6> x0 = (Vec<S, 6>() << 0, 1, 0, 1, 0, 1).finished();
  const Vec<S, 4> K = Vec<S, 4>::Constant(S(50));
  const auto fa = *Feedback<SphericalPendulum<S>>::make(*SphericalPendulum<S>::make(S(1), S(1), S(1)), x0, K);
  const Vec<S, 4> unit_scale(S(1), S(2), S(1), S(1));
  const auto fb = *Feedback<generated::SphericalPendulum<S>>::make(
      *generated::SphericalPendulum<S>::make(), x0, Vec<S, 4>(K.cwiseQuotient(unit_scale.cwiseProduct(unit_scale))));
  const double traj = trajectory_difference(fa, fb, x0, 1e-3, 20000);
  std::printf("spherical pendulum (%s): field %.2e, invariants %.2e, feedback field %.2e, RK4 trajectory %.2e\n",
              sizeof(S) == 4 ? "float" : "double", field, inv, fused, traj);
  EXPECT_LT(field, Tolerance<S>::at_state);
  EXPECT_LT(inv, Tolerance<S>::at_state);
  EXPECT_LT(fused, 10 * Tolerance<S>::at_state);
  EXPECT_LT(traj, Tolerance<S>::trajectory);
}

TYPED_TEST(Generated, PlanarPendulumAgreesWithTheHandWritten) {
  using S = TypeParam;
  const S m = S(0.8), g = S(9.81), l = S(1.5);
  const auto hand = *PlanarPendulum<S>::make(m, g, l);
  generated::PlanarPendulumParams<S> gp;
  gp.mass = m, gp.gravity = g, gp.length = l;
  const auto gen = *generated::PlanarPendulum<S>::make(gp);
  const Vec<S, 3> row_scale(S(1), S(2) / m, S(1));  // generated F = row_scale ∘ hand-written F
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-2.0, 2.0), gain(0.1, 10.0);
  double field = 0, inv = 0, fused = 0;
  for (int i = 0; i < 200; ++i) {
    Vec<S, 4> x, y;
    do
      for (int k = 0; k < 4; ++k) x[k] = S(u(rng)), y[k] = S(u(rng));
    while (x.template head<2>().norm() < S(0.5) || y.template head<2>().norm() < S(0.5));
    const Vec<S, 3> F0 = hand.invariants(y), K(S(gain(rng)), S(gain(rng)), S(gain(rng)));
    const Vec<S, 3> Kg = K.cwiseQuotient(row_scale.cwiseProduct(row_scale));
    field = std::max(field, relative_difference(gen.field(x), hand.field(x)));
    inv = std::max(inv, relative_difference(gen.invariants(x), Vec<S, 3>(row_scale.cwiseProduct(hand.invariants(x)))));
    fused = std::max(fused, relative_difference(gen.feedback_field(x, row_scale.cwiseProduct(F0), Kg),
                                                hand.feedback_field(x, F0, K)));
  }
  // Paper 002 §2.4's case, m = g = l = 1, gains 50, about one period.
  const Vec<S, 4> x0 = (Vec<S, 4>() << 1, 0, 0, 0).finished();
  const Vec<S, 3> K = Vec<S, 3>::Constant(S(50));
  const auto fa = *Feedback<PlanarPendulum<S>>::make(*PlanarPendulum<S>::make(S(1), S(1), S(1)), x0, K);
  const Vec<S, 3> unit_scale(S(1), S(2), S(1));
  const auto fb = *Feedback<generated::PlanarPendulum<S>>::make(
      *generated::PlanarPendulum<S>::make(), x0, Vec<S, 3>(K.cwiseQuotient(unit_scale.cwiseProduct(unit_scale))));
  const double traj = trajectory_difference(fa, fb, x0, 1e-3, 7416);
  std::printf("planar pendulum (%s): field %.2e, invariants %.2e, feedback field %.2e, RK4 trajectory %.2e\n",
              sizeof(S) == 4 ? "float" : "double", field, inv, fused, traj);
  EXPECT_LT(field, Tolerance<S>::at_state);
  EXPECT_LT(inv, Tolerance<S>::at_state);
  EXPECT_LT(fused, 10 * Tolerance<S>::at_state);
  EXPECT_LT(traj, Tolerance<S>::trajectory);
}

}  // namespace
