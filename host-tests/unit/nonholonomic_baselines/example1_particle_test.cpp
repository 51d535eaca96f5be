// SPDX-License-Identifier: Apache-2.0
// Paper 001 Example 1, the nonholonomic particle: what the Verlet method (11) and DLA each keep
// at the discrete level, and the Remark 5 start-up's period-two multiplier.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "baselines_support.hpp"

using namespace attractor;
using namespace baselines_support;

namespace {

using ParticleModel = NonholonomicParticleModel<double>;
using ParticleVerlet = NonholonomicVerlet<ParticleModel>;

// Example 1: Theorem 1 (the one-sided momenta keep their norm: |Δq/h| constant, V = 0), the
// constraint on p̃ and the momentum py = ẏ (Corollary 4, ξ2 = (0, 1, 0)) to rounding, and the
// iterates satisfy eqs. (14a)-(14c) as printed.
TEST(Example1Particle, VerletKeepsEnergyConstraintAndMomentumAndSolvesEq14) {
  const double h = 0.05;
  Vec<double, 6> x = particle_x0();
  auto s = *ParticleVerlet::make(ParticleModel{}, x);
  Vec3<double> q0 = x.head<3>(), q1;
  double E_half = -1, worst_E = 0, worst_c = 0, worst_py = 0, worst_14a = 0, worst_14c = 0;
  for (int k = 0; k < 10000; ++k) {
    ASSERT_EQ(step(s, x, h), Error::none);
    const Vec3<double> q2 = x.head<3>();
    const double E = 0.5 * ((q2 - (k == 0 ? q0 : q1)) / h).squaredNorm();
    if (E_half < 0) E_half = E;
    worst_E = std::max(worst_E, std::abs(E - E_half));
    worst_c = std::max(worst_c, std::abs(x[5] - x[1] * x[3]));
    worst_py = std::max(worst_py, std::abs(x[4] - particle_x0()[4]));
    if (k > 0) {  // (q0, q1, q2) consecutive
      // relative to the rounding of q1 (|q| grows to ~1e4 over the run)
      const double ulp = 1e-16 * (1 + q1.lpNorm<Eigen::Infinity>() * (1 + std::abs(q1[1])));
      worst_14a =
          std::max(worst_14a, std::abs((q2[0] - 2 * q1[0] + q0[0]) + q1[1] * (q2[2] - 2 * q1[2] + q0[2])) / ulp);
      worst_14c = std::max(worst_14c, std::abs((q2[2] - q0[2]) - q1[1] * (q2[0] - q0[0])) / ulp);
      q0 = q1;
    }
    q1 = q2;
  }
  EXPECT_LT(worst_E, 1e-11);
  EXPECT_LT(worst_c, 1e-12);
  EXPECT_LT(worst_py, 1e-12);
  EXPECT_LT(worst_14a, 1e3);  // in roundings of q1
  EXPECT_LT(worst_14c, 1e3);
  // The continuous flow has the closed form exact_state (Example 1's equations).
  const Vec<double, 6> x0 = particle_x0();
  EXPECT_LT(
      (NonholonomicParticle<double>::make().value().exact_state(x0, 2) - reference_flow(ParticleModel{}, x0, 2, 2000))
          .norm(),
      1e-10);
  ParticleModel heavy;
  heavy.prm.m = 2.5;
  const Vec<double, 6> x2 = (Vec<double, 6>() << x0.head<3>(), 2.5 * x0.tail<3>()).finished();
  EXPECT_LT(
      (NonholonomicParticle<double>::make(2.5).value().exact_state(x2, 2) - reference_flow(heavy, x2, 2, 2000)).norm(),
      1e-9);
}

// DLA keeps its discrete constraint (z2 − z1) − ((y1 + y2)/2)(x2 − x1) = 0 and py (eq. (14b)) to
// rounding; its energy is not kept (Figure 2): it varies far more than the Verlet method's.
TEST(Example1Particle, DlaKeepsItsDiscreteConstraintNotTheEnergy) {
  const double h = 0.05;
  Vec<double, 6> x = particle_x0();
  auto d = *DiscreteLagrangeDAlembert<ParticleModel>::make(ParticleModel{}, x);
  const double E0 = 0.5 * x.tail<3>().squaredNorm();
  double worst_E = 0, worst_c = 0, worst_py = 0;
  for (int k = 0; k < 10000; ++k) {
    const Vec<double, 6> before = x;
    ASSERT_EQ(step(d, x, h), Error::none);
    worst_c = std::max(worst_c, std::abs((x[2] - before[2]) - 0.5 * (x[1] + before[1]) * (x[0] - before[0])));
    worst_py = std::max(worst_py, std::abs(x[4] - particle_x0()[4]));
    worst_E = std::max(worst_E, std::abs(0.5 * x.tail<3>().squaredNorm() - E0));
  }
  EXPECT_LT(worst_c, 1e-12);
  EXPECT_LT(worst_py, 1e-12);
  EXPECT_GT(worst_E, 1e-6);
  EXPECT_LT(worst_E, 1e-3);
}

// DLA's multiplier() is the λ_k of its last step, the constraint impulse of the discrete
// Lagrange–d'Alembert equation: with V = 0 and a constant mass, p_k − m (q_{k+1} − q_k)/h =
// m E(q_k) λ_k, and it is not zero (the particle turns).
TEST(Example1Particle, DlaMultiplierIsTheStepsConstraintImpulse) {
  const double h = 0.05;
  ParticleModel heavy;
  heavy.prm.m = 2.5;
  const Vec<double, 6> x0 = particle_x0();
  Vec<double, 6> x = (Vec<double, 6>() << x0.head<3>(), 2.5 * x0.tail<3>()).finished();
  auto d = *DiscreteLagrangeDAlembert<ParticleModel>::make(heavy, x);
  EXPECT_EQ(d.multiplier()[0], 0.0);  // no step yet
  double worst = 0, largest = 0;
  for (int k = 0; k < 200; ++k) {
    const Vec<double, 6> before = x;
    ASSERT_EQ(step(d, x, h), Error::none);
    const Vec3<double> q = before.head<3>(), v = (x.head<3>() - q) / h;
    const Vec3<double> impulse = before.tail<3>() - heavy.mass(q) * v;
    const Vec3<double> by_lambda = heavy.mass(q) * heavy.constraint_fields(q) * d.multiplier();
    worst = std::max(worst, (impulse - by_lambda).norm());
    largest = std::max(largest, std::abs(d.multiplier()[0]));
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(largest, 1e-2);  // an impulse: O(h)
}

// Remark 5's start (λ̃_0 = 0) leaves λ̃_k − λ(t_k) zig-zagging with amplitude |λ(0)| (the
// parasitic root −1 of (10b)); the consistent start does not. Both keep p̃ on the constraint.
TEST(NonholonomicVerlet, Remark5StartLeavesAPeriodTwoMultiplierOscillation) {
  const CotangentExtension<ParticleModel> ext{ParticleModel{}};
  const Vec<double, 6> x0 = particle_x0();
  const double lambda0 = -ext.multipliers(ext.terms(x0), x0)[0];
  ASSERT_GT(std::abs(lambda0), 0.1);
  for (auto start : {ParticleVerlet::Start::remark5, ParticleVerlet::Start::consistent}) {
    auto s = *ParticleVerlet::make(ParticleModel{}, x0, start);
    Vec<double, 6> x = x0;
    double worst = 0, sign_changes = 0, last = 0;
    for (int k = 0; k < 2000; ++k) {
      ASSERT_EQ(step(s, x, 0.05), Error::none);
      const double dev = s.multiplier()[0] - (-ext.multipliers(ext.terms(x), x)[0]);
      worst = std::max(worst, std::abs(dev));
      if (dev * last < 0) ++sign_changes;
      last = dev;
    }
    if (start == ParticleVerlet::Start::remark5) {
      EXPECT_NEAR(worst, std::abs(lambda0), 0.05 * std::abs(lambda0));
      EXPECT_GT(sign_changes, 1990);
    } else {
      EXPECT_LT(worst, 1e-3);
    }
  }
}

}  // namespace
