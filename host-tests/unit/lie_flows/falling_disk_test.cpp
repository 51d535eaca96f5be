// SPDX-License-Identifier: Apache-2.0
// The falling rolling disk (systems/falling_disk.hpp): its accelerations against the
// Lagrange–d'Alembert equations with multipliers of the slides' Lagrangian and constraints, the
// printed momentum equations against ṗ1 = mR²ṙψ̇ cos r, ṗ2 = −mR²ṙφ̇ cos r, the reduced volume kept
// (measure helper), energy and constraints kept by the feedback integrator in float and double,
// and the exact straight rolling of the upright disk.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/measure.hpp"
#include "attractor/systems/falling_disk.hpp"
#include "lagrange_dalembert.hpp"

namespace attractor {
namespace {

using Disk = FallingDisk<double>;

FallingDiskParams<double> disk_params() {
  FallingDiskParams<double> p;
  p.mass = 1.3, p.radius = 0.7, p.A = 0.2, p.B = 0.35, p.gravity = 9.81;
  return p;
}

// A state on the constraints: tilt r, rates (ṙ, φ̇, ψ̇), heading φ.
Disk::State disk_state(const Disk& d, double r, double rd, double phid, double psid, double phi) {
  Disk::State x = Disk::State::Zero();
  const double w = phid * std::sin(r) + psid;
  x[Disk::PHI] = phi, x[Disk::TILT] = r, x[Disk::TILT_RATE] = rd;
  x[Disk::P1] = d.prm.A * std::cos(r) * std::cos(r) * phid + d.Ib * w * std::sin(r);
  x[Disk::P2] = d.Ib * w;
  return d.on_constraint(x);
}

// The slides' Lagrangian in q = (x, y, θ, φ, ψ), θ the tilt, and their constraints.
double slides_lagrangian(const FallingDiskParams<double>& p, const Vec<double, 5>& q, const Vec<double, 5>& v) {
  const double m = p.mass, R = p.radius, th = q[2], phi = q[3];
  const double xi = v[0] * std::cos(phi) + v[1] * std::sin(phi) + R * v[4];
  const double eta = -v[0] * std::sin(phi) + v[1] * std::cos(phi);
  const double w = v[3] * std::sin(th) + v[4];
  return m / 2 *
             (std::pow(xi - R * w, 2) + eta * eta * std::pow(std::sin(th), 2) +
              std::pow(eta * std::cos(th) + R * v[2], 2)) +
         0.5 * (p.A * (v[2] * v[2] + v[3] * v[3] * std::pow(std::cos(th), 2)) + p.B * w * w) -
         m * p.gravity * R * std::cos(th);
}

TEST(FallingDisk, AccelerationsAreTheLagrangeDAlembertEquations) {
  const auto p = disk_params();
  const Disk d = *Disk::make(p);
  auto L = [&](const Vec<double, 5>& q, const Vec<double, 5>& v) { return slides_lagrangian(p, q, v); };
  auto A = [&](const Vec<double, 5>& q) {  // ẋ + Rψ̇ cos φ = 0, ẏ + Rψ̇ sin φ = 0
    Mat<double, 2, 5> a = Mat<double, 2, 5>::Zero();
    a(0, 0) = 1, a(0, 4) = p.radius * std::cos(q[3]);
    a(1, 1) = 1, a(1, 4) = p.radius * std::sin(q[3]);
    return a;
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 6; ++trial) {
    const Disk::State x = disk_state(d, 0.9 * u(rng), u(rng), 2 * u(rng), 3 * u(rng), 3 * u(rng));
    const Disk::State X = d.field(x);
    const Vec<double, 5> q(x[0], x[1], x[Disk::TILT], x[Disk::PHI], x[Disk::PSI]);
    const Vec<double, 5> v(x[Disk::VX], x[Disk::VY], x[Disk::TILT_RATE], X[Disk::PHI], X[Disk::PSI]);
    const Vec<double, 5> acc = test::lagrange_dalembert_accel<5, 2>(L, A, q, v);
    // φ̈, ψ̈ of the model: the rates' derivative along X.
    const double e = 1e-6;
    const Disk::State xp = x + e * X, xm = x - e * X;
    const double phidd = (d.heading_rate(xp) - d.heading_rate(xm)) / (2 * e);
    const double psidd = (d.spin_rate(xp) - d.spin_rate(xm)) / (2 * e);
    const Vec<double, 5> model(X[Disk::VX], X[Disk::VY], X[Disk::TILT_RATE], phidd, psidd);
    EXPECT_LT((acc - model).norm(), 1e-5 * (1 + acc.norm()))
        << trial << ": " << acc.transpose() << " vs " << model.transpose();
    // The printed momentum equations are the φ, ψ rows: ṗ1 = mR²ṙψ̇ cos r, ṗ2 = −mR²ṙφ̇ cos r.
    const double c = d.mR2 * x[Disk::TILT_RATE] * std::cos(x[Disk::TILT]);
    EXPECT_NEAR(X[Disk::P1], c * X[Disk::PSI], 1e-12);
    EXPECT_NEAR(X[Disk::P2], -c * X[Disk::PHI], 1e-12);
  }
}

// The reduced volume: div X = 0 at every state (differences), so ∫ div X dt stays at the
// differencing level along a wobbling run, and with the constant density log ρ changes by 0.
TEST(FallingDisk, ReducedVolumeIsPreserved) {
  const Disk d = *Disk::make(disk_params());
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    Disk::State x = disk_state(d, 1.2 * u(rng), u(rng), 2 * u(rng), 3 * u(rng), 3 * u(rng));
    x[Disk::VX] += 0.1 * u(rng);  // off the constraints too
    EXPECT_LT(std::abs(numeric_divergence(d, x)), 1e-8) << trial;
  }
  Disk::State x = disk_state(d, 0.3, 0, 1.0, 6.0, 0);
  MeasureTracker<Disk> m(d, x);
  double rmin = 1, rmax = -1;
  for (int k = 0; k < 20000; ++k) {
    rk4_step(d, x, 1e-3);
    m.record(x, 1e-3);
    rmin = std::min(rmin, x[Disk::TILT]), rmax = std::max(rmax, x[Disk::TILT]);
  }
  EXPECT_GT(rmax - rmin, 0.05);  // it wobbles: the tilt moves
  EXPECT_LT(std::abs(m.divergence_integral()), 1e-7);
  EXPECT_LT(std::abs(m.log_measure_change()), 1e-7);
}

template <class T>
class FallingDiskTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FallingDiskTyped, Scalars);

TYPED_TEST(FallingDiskTyped, FeedbackKeepsEnergyAndConstraints) {
  using S = TypeParam;
  FallingDiskParams<S> p;
  const auto pd = disk_params();
  p.mass = S(pd.mass), p.radius = S(pd.radius), p.A = S(pd.A), p.B = S(pd.B), p.gravity = S(pd.gravity);
  const auto d = *FallingDisk<S>::make(p);
  const Disk ref = *Disk::make(pd);
  const Disk::State x0d = disk_state(ref, 0.3, 0, 1.0, 6.0, 0);
  Vec<S, 10> x = x0d.cast<S>();
  // |∇c_i|² reaches ~230 and |∇E|² ~120 along this wobble: gains (2, 2, 1) keep
  // h Σ K_i |∇F_i|² < 1, inside RK4's limit 2.79.
  const auto fb = *Feedback<FallingDisk<S>>::make(d, x, Vec<S, 3>(S(2), S(2), S(1)));
  const auto F0 = ref.invariants(x0d);
  double worst_c = 0, worst_e = 0;
  for (int k = 0; k < 20000; ++k) {
    rk4_step(fb, x, S(1e-3));
    const auto F = ref.invariants(x.template cast<double>());
    worst_c = std::max({worst_c, std::abs(F[0]), std::abs(F[1])});
    worst_e = std::max(worst_e, std::abs(F[2] - F0[2]));
  }
  const bool is_float = std::is_same<S, float>::value;
  EXPECT_LT(worst_c, is_float ? 1e-4 : 1e-6);  // |Rψ̇| ≈ 4
  EXPECT_LT(worst_e, is_float ? 1e-4 : 1e-6);  // E0 ≈ 30
}

// Upright straight rolling (r = ṙ = p1 = 0) is exact: x(t) = x0 − Rψ̇ t (cos φ, sin φ).
TEST(FallingDisk, UprightDiskRollsStraight) {
  const Disk d = *Disk::make(disk_params());
  Disk::State x = disk_state(d, 0, 0, 0, 2.5, 0.4);
  const Disk::State x0 = x;
  for (int k = 0; k < 4000; ++k) rk4_step(d, x, 1e-3);
  const double s = d.prm.radius * 2.5 * 4;
  EXPECT_NEAR(x[0], x0[0] - s * std::cos(0.4), 1e-12);
  EXPECT_NEAR(x[1], x0[1] - s * std::sin(0.4), 1e-12);
  EXPECT_NEAR(x[Disk::PSI], 2.5 * 4, 1e-11);
  EXPECT_NEAR(x[Disk::TILT], 0, 1e-15);
}

TEST(FallingDisk, RefusesBadParameters) {
  for (int i = 0; i < 5; ++i) {
    FallingDiskParams<double> p;
    double* field[] = {&p.mass, &p.radius, &p.A, &p.B, &p.gravity};
    *field[i] = -1;
    EXPECT_FALSE(Disk::make(p)) << i;
    *field[i] = NAN;
    EXPECT_FALSE(Disk::make(p)) << i;
  }
}

// Each positive parameter refuses 0 (invalid_parameter) and each non-finite value is
// non_finite; gravity may be 0 (a disk rolling without gravity: the energy is kinetic only).
TEST(FallingDisk, ZeroIsRefusedExceptForGravity) {
  for (int i = 0; i < 4; ++i) {
    FallingDiskParams<double> p;
    double* field[] = {&p.mass, &p.radius, &p.A, &p.B};
    *field[i] = 0;
    EXPECT_EQ(Disk::make(p).error(), Error::invalid_parameter) << i;
    *field[i] = -1;
    EXPECT_EQ(Disk::make(p).error(), Error::invalid_parameter) << i;
    *field[i] = INFINITY;
    EXPECT_EQ(Disk::make(p).error(), Error::non_finite) << i;
  }
  FallingDiskParams<double> p;
  p.gravity = 0;
  ASSERT_TRUE(Disk::make(p));
  EXPECT_EQ(Disk::make(p)->prm.gravity, 0.0);
  p.gravity = -1e-300;
  EXPECT_EQ(Disk::make(p).error(), Error::invalid_parameter);
}

}  // namespace
}  // namespace attractor
