// SPDX-License-Identifier: Apache-2.0
// The LQR baseline (control/lqr.hpp, control/linearize.hpp): zero-order hold against its closed
// form, the gain against the scalar DARE's closed form and the double integrator's continuous
// Riccati solution, the wheel pendulum's closed loop inside the unit circle (and upright on the
// nonlinear plant), refusals, float and double, no heap.

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "attractor/control/linearize.hpp"
#include "attractor/control/lqr.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/systems/reaction_wheel_pendulum.hpp"
#include "no_alloc.hpp"

using namespace attractor;

namespace {

template <class T>
class Lqr : public ::testing::Test {};
using LqrScalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Lqr, LqrScalars);

template <class S>
constexpr double eps_tol() {
  return std::is_same<S, float>::value ? 1e-5 : 1e-13;
}

template <class S, int N>
double spectral_radius(const Mat<S, N, N>& A) {
  const Eigen::EigenSolver<Mat<double, N, N>> es(A.template cast<double>());
  return es.eigenvalues().cwiseAbs().maxCoeff();
}

TYPED_TEST(Lqr, ZeroOrderHoldMatchesClosedForm) {
  using S = TypeParam;
  const S dt = S(0.05);
  Mat<S, 2, 2> A;
  A << S(0), S(1), S(0), S(0);
  const Mat<S, 2, 1> B(S(0), S(1));
  const auto d = zoh_discretize<S, 2, 1>(A, B, dt);
  ASSERT_TRUE(d);
  EXPECT_NEAR(double(d->A(0, 0)), 1.0, eps_tol<S>());
  EXPECT_NEAR(double(d->A(0, 1)), double(dt), eps_tol<S>());
  EXPECT_NEAR(double(d->A(1, 0)), 0.0, eps_tol<S>());
  EXPECT_NEAR(double(d->A(1, 1)), 1.0, eps_tol<S>());
  EXPECT_NEAR(double(d->B(0, 0)), double(dt) * double(dt) / 2, eps_tol<S>());
  EXPECT_NEAR(double(d->B(1, 0)), double(dt), eps_tol<S>());
  // Scalar ẋ = a x + b u, large a dt (several squarings): a_d = e^{a dt}, b_d = b (e^{a dt} − 1)/a.
  const double a = -2.0, b = 3.0, T = 1.7;
  const auto s = zoh_discretize<S, 1, 1>(Mat<S, 1, 1>::Constant(S(a)), Mat<S, 1, 1>::Constant(S(b)), S(T));
  ASSERT_TRUE(s);
  EXPECT_NEAR(double(s->A(0, 0)), std::exp(a * T), 4 * eps_tol<S>());
  EXPECT_NEAR(double(s->B(0, 0)), b * std::expm1(a * T) / a, 4 * eps_tol<S>());
}

// Scalar DARE: P = q + a²P − a²b²P²/(r + b²P) ⇔ b²P² + (r(1 − a²) − q b²) P − q r = 0, the
// positive root; K = a b P/(r + b²P).
TYPED_TEST(Lqr, ScalarGainMatchesClosedForm) {
  using S = TypeParam;
  const double a = 1.2, b = 0.5, q = 2.0, r = 0.3;
  const double c2 = b * b, c1 = r * (1 - a * a) - q * b * b, c0 = -q * r;
  const double P = (-c1 + std::sqrt(c1 * c1 - 4 * c2 * c0)) / (2 * c2);
  const double K = a * b * P / (r + b * b * P);
  const auto lqr = discrete_lqr<S, 1, 1>(Mat<S, 1, 1>::Constant(S(a)), Mat<S, 1, 1>::Constant(S(b)),
                                         Mat<S, 1, 1>::Constant(S(q)), Mat<S, 1, 1>::Constant(S(r)));
  ASSERT_TRUE(lqr) << to_string(lqr.error());
  EXPECT_NEAR(double(lqr->P(0, 0)), P, 4 * eps_tol<S>() * P);
  EXPECT_NEAR(double(lqr->K(0, 0)), K, 4 * eps_tol<S>() * K);
  EXPECT_LT(std::abs(a - b * K), 1.0);
}

// Double integrator with Q_d = Q dt, R_d = R dt (the continuous cost sampled): as dt → 0 the
// discrete gain tends to the continuous one, K = [1, √3] for Q = 𝟙, R = 1 (P = [[√3, 1], [1, √3]]),
// with an O(dt) difference; the returned P solves the DARE to rounding.
TYPED_TEST(Lqr, DoubleIntegratorMatchesContinuousRiccati) {
  using S = TypeParam;
  Mat<S, 2, 2> A;
  A << S(0), S(1), S(0), S(0);
  const Mat<S, 2, 1> B(S(0), S(1));
  for (const double dt : {1e-2, 1e-3}) {
    const Mat<S, 2, 2> Q = Mat<S, 2, 2>::Identity() * S(dt);
    const Mat<S, 1, 1> R = Mat<S, 1, 1>::Constant(S(dt));
    const auto d = zoh_discretize<S, 2, 1>(A, B, S(dt));
    ASSERT_TRUE(d);
    Result<DiscreteLqr<S, 2, 1>> lqr = Error::invalid_parameter;
    {
      test::NoAllocGuard guard;
      lqr = discrete_lqr<S, 2, 1>(d->A, d->B, Q, R);
    }
    ASSERT_TRUE(lqr) << to_string(lqr.error());
    EXPECT_NEAR(double(lqr->K(0, 0)), 1.0, 2 * dt);
    EXPECT_NEAR(double(lqr->K(0, 1)), std::sqrt(3.0), 2 * dt);
    EXPECT_NEAR(double(lqr->P(0, 0)), std::sqrt(3.0), 2 * dt);
    EXPECT_NEAR(double(lqr->P(0, 1)), 1.0, 2 * dt);
    EXPECT_LE(lqr->doublings, 30);
    // DARE residual, evaluated in double from the scalar's P.
    const Mat<double, 2, 2> Ad = d->A.template cast<double>(), P = lqr->P.template cast<double>();
    const Mat<double, 2, 1> Bd = d->B.template cast<double>();
    const double Rd = dt;
    const Mat<double, 2, 2> rhs =
        Mat<double, 2, 2>::Identity() * dt + Ad.transpose() * P * Ad -
        Ad.transpose() * P * Bd * (Bd.transpose() * P * Ad) / (Rd + (Bd.transpose() * P * Bd)(0, 0));
    const double res_tol = std::is_same<S, float>::value ? 1e-5 : 1e-12;
    EXPECT_LT((rhs - P).cwiseAbs().maxCoeff(), res_tol * P.cwiseAbs().maxCoeff());
    // Continuous closed-loop poles (−√3 ± i)/2, |e^{s dt}| = e^{−√3 dt/2}.
    const Mat<S, 2, 2> A_cl = d->A - d->B * lqr->K;
    EXPECT_NEAR((spectral_radius<S, 2>(A_cl)), std::exp(-std::sqrt(3.0) * dt / 2), 2 * dt * dt + 20 * eps_tol<S>());
  }
}

TYPED_TEST(Lqr, WheelPendulumClosedLoopIsInsideUnitCircle) {
  using S = TypeParam;
  const ReactionWheelAngles<S> plant{};
  const auto f = [&](const Vec<S, 3>& x, const Vec<S, 1>& u) { return plant.field(x, u); };
  Result<Linearization<S, 3, 1>> ab = Error::invalid_parameter;
  Result<DiscreteLqr<S, 3, 1>> lqr = Error::invalid_parameter;
  const S dt = S(1e-3);
  Mat<S, 3, 3> Q = Mat<S, 3, 3>::Zero();
  Q.diagonal() << S(10) * dt, S(1) * dt, S(1e-3) * dt;  // φ, Ω, and a light wheel-speed weight
  const Mat<S, 1, 1> R = Mat<S, 1, 1>::Constant(S(100) * dt);
  {
    test::NoAllocGuard guard;
    ab = linearize<S, 3, 1>(f, Vec<S, 3>::Zero(), Vec<S, 1>::Zero());
    ASSERT_TRUE(ab);
    lqr = lqr_zoh<S, 3, 1>(ab->A, ab->B, Q, R, dt);
  }
  ASSERT_TRUE(lqr) << to_string(lqr.error());
  // The analytic linearization: Ω̇ = (M g φ − u)/𝕀, θ̈ = u/I_w − Ω̇.
  const double I = double(plant.p.body_inertia()), mg = double(plant.p.gravity_moment()), Iw = double(plant.p.I_w);
  const double lin_tol = std::is_same<S, float>::value ? 1e-3 : 1e-8;
  EXPECT_NEAR(double(ab->A(1, 0)), mg / I, lin_tol * mg / I);
  EXPECT_NEAR(double(ab->A(2, 0)), -mg / I, lin_tol * mg / I);
  EXPECT_NEAR(double(ab->B(1, 0)), -1 / I, lin_tol / I);
  EXPECT_NEAR(double(ab->B(2, 0)), 1 / Iw + 1 / I, lin_tol / Iw);
  const auto d = zoh_discretize<S, 3, 1>(ab->A, ab->B, dt);
  ASSERT_TRUE(d);
  EXPECT_GT((spectral_radius<S, 3>(d->A)), 1.0);  // upright is unstable open loop
  const double rho = spectral_radius<S, 3>(Mat<S, 3, 3>(d->A - d->B * lqr->K));
  ::testing::Test::RecordProperty("closed_loop_spectral_radius", ::testing::PrintToString(rho));
  ::testing::Test::RecordProperty("doublings", lqr->doublings);
  EXPECT_LT(rho, 1.0);
  // The gain on the nonlinear plant, torque held for dt (zero-order hold): back upright from 0.2 rad.
  const LinearStateFeedback<S, 3, 1> ctl{lqr->K};
  Vec<S, 3> x(S(0.2), S(0), S(0));
  for (int i = 0; i < 5000; ++i) {
    const Vec<S, 1> u = ctl.control(x);
    const auto held = [&](const Vec<S, 3>& y) { return plant.field(y, u); };
    for (int j = 0; j < 10; ++j) rk4_step(held, x, dt / S(10));
  }
  EXPECT_LT(std::abs(double(x[0])), 1e-2);
  EXPECT_LT(std::abs(double(x[1])), 1e-2);
}

TYPED_TEST(Lqr, RefusesUnstabilizableAndBadInput) {
  using S = TypeParam;
  const Mat<S, 2, 1> B(S(0), S(1));
  const Mat<S, 2, 2> Q = Mat<S, 2, 2>::Identity();
  const Mat<S, 1, 1> R = Mat<S, 1, 1>::Identity();
  Mat<S, 2, 2> A = Mat<S, 2, 2>::Zero();
  A.diagonal() << S(1.1), S(0.5);  // the unstable mode is one B cannot reach
  EXPECT_EQ((discrete_lqr<S, 2, 1>(A, B, Q, R).error()), Error::out_of_range);
  A.diagonal() << S(0.5), S(1.1);  // the unstable mode reachable, the other stable: stabilizable
  const auto ok = discrete_lqr<S, 2, 1>(A, B, Q, R);
  ASSERT_TRUE(ok) << to_string(ok.error());
  EXPECT_LT((spectral_radius<S, 2>(Mat<S, 2, 2>(A - B * ok->K))), 1.0);
  // Continuous unstabilizable pair through the hold.
  Mat<S, 2, 2> Ac = Mat<S, 2, 2>::Zero();
  Ac.diagonal() << S(1), S(-1);
  EXPECT_EQ((lqr_zoh<S, 2, 1>(Ac, B, Q, R, S(0.01)).error()), Error::out_of_range);
  // The iteration cap: one doubling step cannot converge a slow 1 kHz double integrator.
  Mat<S, 2, 2> Ad;
  Ad << S(1), S(1e-3), S(0), S(1);
  EXPECT_EQ((discrete_lqr<S, 2, 1>(Ad, Mat<S, 2, 1>(S(5e-7), S(1e-3)), Q, R, 1).error()), Error::out_of_range);
  // Bad weights and inputs.
  Mat<S, 2, 2> Qbad = Q;
  Qbad(1, 1) = S(0);  // only semidefinite
  EXPECT_EQ((discrete_lqr<S, 2, 1>(A, B, Qbad, R).error()), Error::invalid_parameter);
  Qbad = Q;
  Qbad(0, 1) = S(0.3);  // not symmetric
  EXPECT_EQ((discrete_lqr<S, 2, 1>(A, B, Qbad, R).error()), Error::invalid_parameter);
  EXPECT_EQ((discrete_lqr<S, 2, 1>(A, B, Q, Mat<S, 1, 1>::Constant(S(-1))).error()), Error::invalid_parameter);
  Mat<S, 2, 2> Anan = A;
  Anan(0, 0) = std::numeric_limits<S>::quiet_NaN();
  EXPECT_EQ((discrete_lqr<S, 2, 1>(Anan, B, Q, R).error()), Error::non_finite);
  EXPECT_EQ((zoh_discretize<S, 2, 1>(A, B, S(0)).error()), Error::invalid_parameter);
  EXPECT_EQ((zoh_discretize<S, 2, 1>(A, B, std::numeric_limits<S>::infinity()).error()), Error::non_finite);
  const auto f = [](const Vec<S, 2>& x, const Vec<S, 1>& u) { return Vec<S, 2>(x[1], u[0]); };
  EXPECT_EQ((linearize<S, 2, 1>(f, Vec<S, 2>::Zero(), Vec<S, 1>::Zero(), S(0)).error()), Error::invalid_parameter);
  EXPECT_EQ((linearize<S, 2, 1>(f, Vec<S, 2>(std::numeric_limits<S>::quiet_NaN(), S(0)), Vec<S, 1>::Zero()).error()),
            Error::non_finite);
}

}  // namespace
