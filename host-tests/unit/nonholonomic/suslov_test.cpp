// SPDX-License-Identifier: Apache-2.0
// Suslov problem on SO(3) (paper 000 §3.1): the Lie-group extension's first integrals and
// Jacobian, the paper's exact solution verified against the equations, and the paper's
// experiment (Euler, h = 1e-3, k = 100, t ∈ [0, 10]) against that solution, in float and double.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "attractor/core/documented.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/suslov.hpp"
#include "no_alloc.hpp"
#include "nonholonomic_checks.hpp"

using namespace attractor;
using namespace attractor::test;

namespace {

// The paper's exact solution for Π(0) = (0, 1, 1): Π = (−tanh t, sech t, sech t).
Vec3<double> suslov_exact(double t) { return Vec3<double>(-std::tanh(t), 1 / std::cosh(t), 1 / std::cosh(t)); }

template <class S>
typename Suslov<S>::State suslov_on_constraint(const Suslov<S>& sys, std::mt19937& rng) {
  const Vec3<S> e = sys.model().e;
  Vec3<S> Pi = random_vector<S, 3>(rng);
  Pi -= (Pi.dot(e) / e.dot(sys.model().I * e)) * (sys.model().I * e);  // Π·e = 0
  return Suslov<S>::state(random_rotation<S>(rng), Pi);
}

TEST(Suslov, PaperExactSolutionSolvesTheEquations) {
  // First the printed solution itself: its initial data, its derivative against the field, and
  // its invariants (J = 0, h = 1/2, as §3.1 states).
  const auto sys = *Suslov<double>::make();
  EXPECT_NEAR((sys.model().e - Vec3<double>(0, -1, 1)).norm(), 0, 1e-15);  // e = 𝕀⁻¹a/√(a·𝕀⁻¹a)
  EXPECT_NEAR((suslov_exact(0) - Vec3<double>(0, 1, 1)).norm(), 0, 0);
  for (double t : {0.0, 0.3, 1.0, 2.5, 7.0}) {
    const double s = 1 / std::cosh(t), th = std::tanh(t);
    const Vec3<double> dPi(-s * s, -s * th, -s * th);
    const auto x = Suslov<double>::state(Mat3<double>::Identity(), suslov_exact(t));
    EXPECT_NEAR((sys.field(x).tail<3>() - dPi).norm(), 0, 1e-15) << t;
    const auto F = sys.invariants(x);
    EXPECT_NEAR(F[0], 0, 1e-15);
    EXPECT_NEAR(F[1], 0.5, 1e-15);
  }
}

template <class T>
class SuslovTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SuslovTyped, Scalars);

// J and h̃ (and h) are first integrals of the extended field everywhere; on SO(3) so is each
// RᵀR row. A settable, non-symmetric constraint vector and a general inertia.
TYPED_TEST(SuslovTyped, ExtendedFieldConservesItsInvariants) {
  using S = TypeParam;
  SuslovParams<S> prm;
  prm.inertia << S(2), S(0.3), S(-0.1), S(0.3), S(1.5), S(0.2), S(-0.1), S(0.2), S(1);
  prm.constraint = Vec3<S>(S(0.4), S(-1), S(0.7));
  const auto sys = *Suslov<S>::make(prm);
  const auto sysH = *Suslov<S, EnergyRow::original>::make(prm);
  std::mt19937 rng(3);
  const double tol = std::is_same<S, float>::value ? 2e-6 : 1e-14;
  for (int trial = 0; trial < 50; ++trial) {
    const auto x = suslov_on_constraint(sys, rng);
    EXPECT_LT(first_integral_residual(sys, x), tol);
    EXPECT_LT(first_integral_residual(sysH, x, 1, 2), tol);
    // Off the constraint set J and h̃ stay first integrals (Theorem 2.6).
    auto y = x;
    y.template tail<3>() += random_vector<S, 3>(rng);
    EXPECT_LT(first_integral_residual(sys, y, 0, 2), tol);
    EXPECT_LT(first_integral_residual(sysH, y, 1, 2), tol);
  }
}

TEST(Suslov, JacobianMatchesCentralDifferences) {
  SuslovParams<double> prm;
  prm.constraint = Vec3<double>(0.4, -1, 0.7);
  const auto sys = *Suslov<double>::make(prm);
  const auto sysH = *Suslov<double, EnergyRow::original>::make(prm);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    auto x = suslov_on_constraint(sys, rng);
    x += random_vector<double, 12>(rng, 0.2);  // off SO(3) and off the constraint too
    EXPECT_LT(jacobian_error(sys, x), 1e-8);
    EXPECT_LT(jacobian_error(sysH, x), 1e-8);
  }
}

TEST(Suslov, RotationRowsGiveThePapersGradient) {
  // With one gain k0 on the six rows, DFᵀK(F − 0) on R equals k0 R(RᵀR − I) (eq. (37)).
  const auto sys = *Suslov<double>::make();
  std::mt19937 rng(9);
  const Mat3<double> R = random_rotation<double>(rng) + 0.1 * Mat3<double>::Random();
  const auto x = Suslov<double>::state(R, Vec3<double>(0, 1, 1));
  Vec<double, 8> K = Vec<double, 8>::Zero();
  K.tail<6>().setConstant(7.0);
  const auto fb = *Feedback<Suslov<double>>::make(sys, x, K);
  const auto g = fb.gradient(x);
  const Mat3<double> expect = 7.0 * R * (R.transpose() * R - Mat3<double>::Identity());
  EXPECT_NEAR((Eigen::Map<const Mat3<double>>(g.data()) - expect).norm(), 0, 1e-13);
  static_assert(Suslov<double>::gain_group(2) == 2 && Suslov<double>::gain_group(7) == 2, "one group");
  EXPECT_EQ(fb.reference().tail<6>().norm(), 0.0);
}

TEST(Suslov, ValidateRejectsBadParameters) {
  SuslovParams<double> prm;
  prm.constraint.setZero();
  EXPECT_EQ(Suslov<double>::make(prm).error(), Error::invalid_parameter);
  prm = {};
  prm.inertia(0, 0) = -1;
  EXPECT_EQ(Suslov<double>::make(prm).error(), Error::invalid_parameter);
  prm = {};
  prm.inertia(0, 1) = 0.5;  // not symmetric
  EXPECT_EQ(Suslov<double>::make(prm).error(), Error::invalid_parameter);
  prm = {};
  // Symmetric, I11 > 0 and det I = 3 > 0, but the second leading minor is 1 - 4 < 0 (Sylvester):
  // indefinite, so only that minor's check refuses it.
  prm.inertia << 1, 2, 0, 2, 1, 0, 0, 0, -1;
  EXPECT_EQ(Suslov<double>::make(prm).error(), Error::invalid_parameter);
  prm = {};
  prm.constraint[1] = NAN;
  EXPECT_EQ(Suslov<double>::make(prm).error(), Error::non_finite);
}

// The paper's experiment: Euler, h = 1e-3, all gains 100, t ∈ [0, 10]; and RK4 at the same h.
TYPED_TEST(SuslovTyped, PaperExperimentTracksTheExactSolution) {
  using S = TypeParam;
  const auto sys = *Suslov<S>::make();
  const auto x0 = documented_x0<S, SuslovFacts>();
  EXPECT_EQ(x0, Suslov<S>::state(Mat3<S>::Identity(), Vec3<S>(0, 1, 1)));
  const auto fb = *Feedback<Suslov<S>>::make(sys, x0, documented_gains<S, SuslovFacts>());
  const bool is_float = std::is_same<S, float>::value;
  for (int scheme = 0; scheme < 2; ++scheme) {
    auto x = x0;
    double worst_pi = 0, worst_h = 0;
    const S h = S(1e-3);
    const auto each = [&](long k, const typename Suslov<S>::State& xs) {
      const double t = double(k) * 1e-3;
      worst_pi = std::max(worst_pi, (xs.template tail<3>().template cast<double>() - suslov_exact(t)).norm());
      worst_h = std::max(worst_h, std::abs(double(sys.energy(xs)) - 0.5));
    };
    RunRecord<8> rec;
    {
      NoAllocGuard guard;
      rec = scheme == 0 ? run_feedback(fb, x, h, 10000, EulerStep{}, each)
                        : run_feedback(fb, x, h, 10000, Rk4Step{}, each);
    }
    ASSERT_TRUE(rec.finite);
    // Measured (Euler; RK4 double, float): |ΔΠ| 1.9e-4; 2.6e-10, 3.3e-6. J 4.8e-6; 3.6e-10, 3.0e-7.
    // h 9.8e-6; 2.3e-10, 9.5e-7. RᵀR − I 3.7e-6; 6.5e-10, 6.7e-7. Bounds: about 4x.
    const bool euler = scheme == 0;
    EXPECT_LT(worst_pi, euler ? 8e-4 : (is_float ? 1.5e-5 : 1e-9)) << scheme;
    EXPECT_LT(rec.max_dev[0], euler ? 2e-5 : (is_float ? 1.5e-6 : 1.5e-9)) << scheme;  // J
    EXPECT_LT(worst_h, euler ? 4e-5 : (is_float ? 4e-6 : 1e-9)) << scheme;             // h
    EXPECT_LT(rec.max_dev.template tail<6>().maxCoeff(), euler ? 1.5e-5 : (is_float ? 3e-6 : 3e-9)) << scheme;
  }
}

}  // namespace
