// SPDX-License-Identifier: Apache-2.0
// The reaction-wheel pendulum's controlled-Lagrangian law (control/reaction_wheel_law.hpp): the
// closed form against the generic ControlledLagrangian and plant (paper 003 (44), (52)–(53)),
// the stability range and its refusals, the conserved controlled energy and rotor momentum along
// an accurate closed-loop trajectory, and the linearization's eigenvalues against the range.

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include "attractor/control/controlled_lagrangian.hpp"
#include "attractor/control/linearize.hpp"
#include "attractor/control/reaction_wheel_law.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/systems/reaction_wheel_pendulum.hpp"
#include "no_alloc.hpp"

using namespace attractor;

namespace {

template <class T>
class WheelLaw : public ::testing::Test {};
using WheelScalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(WheelLaw, WheelScalars);

template <class S>
constexpr double rel_tol() {
  return std::is_same<S, float>::value ? 2e-5 : 1e-12;
}

// x = (Ω, Γ1, Γ2, θ̇) with |φ| ≤ 1 rad, |Ω| ≤ 3 rad/s, |θ̇| ≤ 100 rad/s.
Vec<double, 4> wheel_sample(std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1, 1);
  const double phi = U(rng);
  return Vec<double, 4>(3 * U(rng), std::sin(phi), std::cos(phi), 100 * U(rng));
}

TYPED_TEST(WheelLaw, ClosedFormMatchesGenericLawAndPlant) {
  using S = TypeParam;
  const ReactionWheelParams<S> p{};
  const SigmaRange<S> range = reaction_wheel_stability_range(p);
  const ReactionWheelHamel<S> h = ReactionWheelHamel<S>::from(p);
  const ReactionWheelPendulum<S> plant{p};
  std::mt19937 rng(41);
  for (const double frac : {0.05, 0.3, 0.64, 0.95}) {
    const S sigma = S(frac) * range.lower;
    const auto law = ReactionWheelLaw<S>::make(p, sigma);
    const auto cl = ControlledLagrangian<ReactionWheelHamel<S>>::make(h, Mat<S, 1, 1>::Constant(sigma));
    ASSERT_TRUE(law) << to_string(law.error());
    ASSERT_TRUE(cl) << to_string(cl.error());
    EXPECT_NEAR(double(cl->closed_loop_metric()(0, 0)), double(law->closed_loop_inertia()),
                rel_tol<S>() * std::abs(double(law->closed_loop_inertia())));
    EXPECT_NEAR(double(cl->rho()(0, 0)), double(law->rho()), rel_tol<S>() * double(law->rho()));
    for (int i = 0; i < 20; ++i) {
      const Vec<S, 4> x = wheel_sample(rng).cast<S>();
      const Vec<S, 1> v(x[0]), th(x[3]);
      const Vec<S, 2> Ga = x.template segment<2>(1);
      Vec<S, 1> vd;
      const S u_generic = cl->control(v, Ga, th, vd)[0];
      const S u = law->torque(x);
      EXPECT_NEAR(double(u_generic), double(u), rel_tol<S>() * (1 + std::abs(double(u))));
      EXPECT_NEAR(double(vd[0]), double(law->closed_loop_omega_dot(x)), rel_tol<S>() * (1 + std::abs(double(vd[0]))));
      EXPECT_NEAR(double(cl->controlled_rotor_momentum(v, Ga, th)[0]), double(law->controlled_rotor_momentum(x)),
                  rel_tol<S>() * (1e-3 + std::abs(double(law->controlled_rotor_momentum(x)))));
      // The plant's closed form against the generic (44) under the law's torque.
      const auto rates = hamel_rotor_rates(h, v, Ga, th, Vec<S, 1>(u));
      const Vec<S, 4> f = plant.field(x, u);
      const double scale = 1 + f.template cast<double>().cwiseAbs().maxCoeff();
      EXPECT_NEAR(double(rates.v_dot[0]), double(f[0]), rel_tol<S>() * scale);
      EXPECT_NEAR(double(rates.Gamma_dot[0]), double(f[1]), rel_tol<S>() * scale);
      EXPECT_NEAR(double(rates.Gamma_dot[1]), double(f[2]), rel_tol<S>() * scale);
      EXPECT_NEAR(double(rates.theta_ddot[0]), double(f[3]), rel_tol<S>() * scale);
      // Under the law the plant's Ω̇ is the closed loop's: 𝔾̃ Ω̇ = M g Γ1.
      EXPECT_NEAR(double(f[0]), double(law->closed_loop_omega_dot(x)), rel_tol<S>() * scale);
    }
  }
}

TYPED_TEST(WheelLaw, RangeRefusesOutsideAndBadInput) {
  using S = TypeParam;
  const ReactionWheelParams<S> p{};
  const SigmaRange<S> range = reaction_wheel_stability_range(p);
  EXPECT_NEAR(double(range.lower), -double(p.I_w * p.I_w / (p.I_p + p.m_w * p.l_w * p.l_w)), 1e-6 * -range.lower);
  EXPECT_EQ(range.upper, S(0));
  EXPECT_TRUE(ReactionWheelLaw<S>::make(p, S(0.5) * range.lower));
  EXPECT_EQ(ReactionWheelLaw<S>::make(p, S(1.01) * range.lower).error(), Error::outside_stability_range);
  EXPECT_EQ(ReactionWheelLaw<S>::make(p, range.lower).error(), Error::outside_stability_range);
  EXPECT_EQ(ReactionWheelLaw<S>::make(p, S(0)).error(), Error::outside_stability_range);
  EXPECT_EQ(ReactionWheelLaw<S>::make(p, S(-0.01) * range.lower).error(), Error::outside_stability_range);
  EXPECT_EQ(ReactionWheelLaw<S>::make(p, std::numeric_limits<S>::quiet_NaN()).error(), Error::non_finite);
  // Experiments outside the range are allowed, but not σ = 0 or the singular points.
  EXPECT_TRUE(ReactionWheelLaw<S>::make_unchecked(p, S(1.01) * range.lower));
  EXPECT_EQ(ReactionWheelLaw<S>::make_unchecked(p, S(0)).error(), Error::invalid_parameter);
  EXPECT_EQ(ReactionWheelLaw<S>::make_unchecked(p, range.lower).error(), Error::singular);
  EXPECT_EQ(ReactionWheelLaw<S>::make_unchecked(p, p.I_w).error(), Error::singular);
  ReactionWheelParams<S> bad = p;
  bad.I_w = S(0);
  EXPECT_EQ(ReactionWheelLaw<S>::make(p, S(0.5) * range.lower).error(), Error::none);
  EXPECT_EQ(ReactionWheelLaw<S>::make(bad, S(-1e-6)).error(), Error::invalid_parameter);
  bad = p;
  bad.m_p = -bad.m_p;
  EXPECT_EQ(ReactionWheelLaw<S>::make(bad, S(0.5) * range.lower).error(), Error::invalid_parameter);
  bad = p;
  bad.l = std::numeric_limits<S>::infinity();
  EXPECT_EQ(ReactionWheelLaw<S>::make(bad, S(0.5) * range.lower).error(), Error::non_finite);
  // A bad state gives a bad torque, not a silent zero.
  const auto law = ReactionWheelLaw<S>::make(p, S(0.5) * range.lower);
  EXPECT_TRUE(std::isnan(law->torque(Vec<S, 4>(S(0), std::numeric_limits<S>::quiet_NaN(), S(1), S(0)))));
}

// RK4 at h = 1e-4 s for 5 s (about 9 periods) from 0.3 rad off upright: the controlled energy
// and rotor momentum stay put, and the pendulum stays within its starting tilt.
TYPED_TEST(WheelLaw, ClosedLoopConservesControlledEnergy) {
  using S = TypeParam;
  const ReactionWheelParams<S> p{};
  const auto law = ReactionWheelLaw<S>::make(p, S(0.64) * reaction_wheel_stability_range(p).lower);
  ASSERT_TRUE(law);
  const ReactionWheelClosedLoop<S> cl{ReactionWheelPendulum<S>{p}, *law};
  Vec<S, 4> x(S(0), S(std::sin(0.3)), S(std::cos(0.3)), S(5));
  const double E0 = double(law->controlled_energy(x)), pi0 = double(law->controlled_rotor_momentum(x));
  double dE = 0, dpi = 0, min_G2 = 1;
  {
    test::NoAllocGuard guard;
    for (int i = 0; i < 50000; ++i) {
      rk4_step(cl, x, S(1e-4));
      dE = std::max(dE, std::abs(double(law->controlled_energy(x)) - E0));
      dpi = std::max(dpi, std::abs(double(law->controlled_rotor_momentum(x)) - pi0));
      min_G2 = std::min(min_G2, double(x[2]));
    }
  }
  const double mg = double(p.gravity_moment());
  ::testing::Test::RecordProperty("energy_drift", ::testing::PrintToString(dE));
  ::testing::Test::RecordProperty("rotor_momentum_drift", ::testing::PrintToString(dpi));
  if (std::is_same<S, double>::value) {
    EXPECT_LT(dE, 1e-12 * mg);  // measured 4e-15
    EXPECT_LT(dpi, 1e-15);      // measured 1.2e-17
  } else {
    EXPECT_LT(dE, 1e-5 * mg);  // measured 6e-7
    EXPECT_LT(dpi, 1e-7);      // measured 6e-9
  }
  EXPECT_GT(min_G2, std::cos(0.3) - 1e-3);  // conservative: never past the starting tilt
}

// Linearized closed loop in (φ, Ω, θ̇) by central differences, its eigenvalues: ±i√(Mg/|𝔾̃|) and
// 0 inside the range; a real positive √(Mg/𝔾̃) just outside it on either side.
template <class S>
Vec<std::complex<double>, 3> closed_loop_eigenvalues(const ReactionWheelLaw<S>& law) {
  const ReactionWheelAngles<S> plant{law.params()};
  const auto f = [&](const Vec<S, 3>& x, const Vec<S, 1>& u) {
    const Vec<S, 4> xh(x[1], std::sin(x[0]), std::cos(x[0]), x[2]);
    return plant.field(x, Vec<S, 1>(law.torque(xh) + u[0]));
  };
  const auto ab = linearize<S, 3, 1>(f, Vec<S, 3>::Zero(), Vec<S, 1>::Zero());
  EXPECT_TRUE(ab);
  const Eigen::EigenSolver<Mat<double, 3, 3>> es(ab->A.template cast<double>());
  return es.eigenvalues();
}

TYPED_TEST(WheelLaw, LinearizationEigenvaluesFollowTheRange) {
  using S = TypeParam;
  const double tol = std::is_same<S, float>::value ? 2e-3 : 1e-6;
  const ReactionWheelParams<S> p{};
  const S lower = reaction_wheel_stability_range(p).lower;
  const double mg = double(p.gravity_moment());
  for (const double frac : {0.02, 0.5, 0.98}) {
    const auto law = ReactionWheelLaw<S>::make(p, S(frac) * lower);
    ASSERT_TRUE(law);
    const double omega = std::sqrt(mg / -double(law->closed_loop_inertia()));
    const auto ev = closed_loop_eigenvalues(*law);
    double max_im = 0;
    for (int i = 0; i < 3; ++i) {
      EXPECT_LT(std::abs(ev[i].real()), tol * omega) << "σ = " << frac << "·lower";
      max_im = std::max(max_im, std::abs(ev[i].imag()));
    }
    EXPECT_NEAR(max_im, omega, tol * omega);
  }
  for (const double frac : {1.02, -0.02}) {  // just below the lower bound, just above 0
    const auto law = ReactionWheelLaw<S>::make_unchecked(p, S(frac) * lower);
    ASSERT_TRUE(law);
    EXPECT_FALSE(ReactionWheelLaw<S>::make(p, S(frac) * lower));
    const double growth = std::sqrt(mg / double(law->closed_loop_inertia()));
    const auto ev = closed_loop_eigenvalues(*law);
    double max_re = -1;
    for (int i = 0; i < 3; ++i) max_re = std::max(max_re, ev[i].real());
    EXPECT_NEAR(max_re, growth, tol * growth) << "σ = " << frac << "·lower";
    EXPECT_GT(max_re, 0.0);
  }
}

}  // namespace
