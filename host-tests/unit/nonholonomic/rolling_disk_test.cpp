// SPDX-License-Identifier: Apache-2.0
// Vertical rolling disk (paper 000 §3.4) on SE(2) × S¹ with R ∈ R^{2×2}: the paper's extended
// field (59) and multipliers against the Lie-group adapter, the field against the
// Lagrange–d'Alembert equations, the same system on the principal-bundle adapter (ψ as the
// shape) against the Lie-group one, the closed-form solution against an accurate integration,
// and a documented case (§3.4 has no experiment): m = R = 1, I = 1/2, J = 1/4, Πθ = 1/4, Πψ = 1
// (ω = 1, v = 2), Euler and RK4, h = 1e-3, all gains 50, t ∈ [0, 20], against the exact solution.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "attractor/core/documented.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/nonholonomic/principal_bundle_extension.hpp"
#include "attractor/systems/rolling_disk.hpp"
#include "no_alloc.hpp"
#include "nonholonomic_checks.hpp"

using namespace attractor;
using namespace attractor::test;

namespace {

RollingDiskParams<double> disk_other_params() {
  RollingDiskParams<double> p;
  p.mass = 1.7;
  p.radius = 0.6;
  p.inertia_axle = 0.4;
  p.inertia_spin = 0.3;
  return p;
}

Vec<double, 11> disk_random_state(std::mt19937& rng, const RollingDiskParams<double>& p, bool on_constraint) {
  const Vec<double, 4> r = random_vector<double, 4>(rng);
  const Vec<double, 4> pose = random_vector<double, 4>(rng, 3.0);
  const Vec<double, 4> Pi = on_constraint ? RollingDisk<double>::on_constraint(p, r[0], r[3]) : r;
  return RollingDisk<double>::state(pose[0], pose[1], pose[2], pose[3], Pi);
}

TEST(RollingDisk, PapersFieldAndMultipliersMatchTheAdapter) {
  const auto p = disk_other_params();
  const auto sys = *RollingDisk<double>::make(p);
  const double m = p.mass, R = p.radius, I = p.inertia_axle, J = p.inertia_spin, D = I + m * R * R;
  const double n2 = std::sqrt(m * I * D);
  std::mt19937 rng(41);
  for (int trial = 0; trial < 20; ++trial) {
    const auto x = disk_random_state(rng, p, false);  // (59) is the extension: all of G × 𝔤*
    const double th = std::atan2(x[1], x[0]), Pt = x[7], Px = x[8], Py = x[9], Pp = x[10];
    const double u = (R * Px + Pp) / D;
    // h̃ as printed, and its first integrals.
    EXPECT_NEAR(sys.extended_energy(x), Pt * Pt / (2 * J) + (R * Px + Pp) * (R * Px + Pp) / (2 * D), 1e-14);
    const auto F = sys.invariants(x);
    EXPECT_NEAR(F[0], Py / std::sqrt(m), 1e-15);
    EXPECT_NEAR(F[1], (I * Px - m * R * Pp) / n2, 1e-14);
    // (59a) and (59b) with the printed λ̃1 = ΠθΠx/(J√m), λ̃2 = −IΠθΠy/(J√(mI(I + mR²))).
    const double l1 = Pt * Px / (J * std::sqrt(m)), l2 = -I * Pt * Py / (J * n2);
    Vec<double, 4> Pd(-R * u * Py, Pt * Py / J, -Pt * Px / J, 0);
    Pd += l1 * Vec<double, 4>(0, 0, std::sqrt(m), 0) + l2 * Vec<double, 4>(0, m * I, 0, -m * R * I) / n2;
    const auto dx = sys.field(x);
    EXPECT_LT((dx.tail<4>() - Pd).norm(), 1e-13);
    EXPECT_NEAR(dx[4], R * u * std::cos(th), 1e-14);
    EXPECT_NEAR(dx[5], R * u * std::sin(th), 1e-14);
    EXPECT_NEAR(dx[6], u, 1e-14);
    EXPECT_NEAR(dx[1], Pt / J * std::cos(th), 1e-14);  // d/dt sin θ
    EXPECT_LT((sys.multipliers(x.tail<4>()) - Vec<double, 2>(l1, l2)).norm(), 1e-13);
  }
  // On the constraint set (59) is (60): every Π constant, ẋ = Πx cos θ/m, ψ̇ = Πψ/I.
  for (int trial = 0; trial < 10; ++trial) {
    const auto x = disk_random_state(rng, p, true);
    const auto dx = sys.field(x);
    EXPECT_LT(dx.tail<4>().norm(), 1e-14);
    EXPECT_NEAR(dx[4], x[8] * x[0] / m, 1e-14);
    EXPECT_NEAR(dx[6], x[10] / I, 1e-14);
  }
}

TEST(RollingDisk, FieldSolvesTheLagrangeDAlembertEquations) {
  // L = Jθ̇²/2 + m(ẋ² + ẏ²)/2 + Iψ̇²/2 with ẋ = Rψ̇ cos θ, ẏ = Rψ̇ sin θ.
  const auto p = disk_other_params();
  const auto sys = *RollingDisk<double>::make(p);
  const Mat<double, 4, 4> M = Vec<double, 4>(p.inertia_spin, p.mass, p.mass, p.inertia_axle).asDiagonal();
  const auto A = [&p](const Vec<double, 4>& q) {
    Mat<double, 2, 4> a;
    a << 0, 1, 0, -p.radius * std::cos(q[0]), 0, 0, 1, -p.radius * std::sin(q[0]);
    return a;
  };
  std::mt19937 rng(43);
  for (int trial = 0; trial < 20; ++trial) {
    const auto x = disk_random_state(rng, p, true);
    const PlanarMotion mo = planar_motion(sys, x);
    EXPECT_LT((mo.qd - M.inverse() * mo.p).norm(), 1e-13);  // q̇ = M⁻¹p
    EXPECT_LT((A(mo.q) * mo.qd).norm(), 1e-13);
    const Vec<double, 4> pd = M * lagrange_dalembert_acceleration<4>(M, A, mo.q, mo.qd);
    EXPECT_LT((mo.pd - pd).norm(), 1e-8 * (1 + pd.norm())) << trial;
  }
}

// The disk with SE(2) as the symmetry and ψ as the shape (paper 000 §2.3): the same extension.
struct DiskAsBundle {
  using Scalar = double;
  static constexpr int D = 3, P = 1, K = 2, G = 6, rotation_size = 2;
  RollingDiskModel<double> lie{};
  Mat<double, 4, 4> mass(const Vec<double, 1>&) const { return lie.locked_inertia(); }
  Mat<double, 4, 4> inverse_mass(const Vec<double, 1>&) const { return lie.inverse_locked_inertia(); }
  Vec<double, 1> kinetic_gradient(const Vec<double, 1>&, const Vec<double, 4>&) const { return Vec<double, 1>(0); }
  double potential(const Vec<double, 1>&) const { return 0; }
  Vec<double, 1> potential_gradient(const Vec<double, 1>&) const { return Vec<double, 1>(0); }
  Mat<double, 4, 2> constraint_fields(const Vec<double, 1>&) const { return lie.constraint_vectors(); }
  Mat<double, 4, 1> constraint_derivative(const Vec<double, 1>&, int) const { return Mat<double, 4, 1>::Zero(); }
  Vec3<double> ad_star(const Vec3<double>& xi, const Vec3<double>& mu) const { return se2_ad_star(xi, mu); }
  Vec<double, 6> group_velocity(const Vec<double, 6>& g, const Vec3<double>& xi) const {
    Vec<double, 6> d;
    se2_group_velocity(g, xi, d);
    return d;
  }
};

TEST(RollingDisk, PrincipalBundleAdapterAgreesWithTheLieGroupOne) {
  const auto p = disk_other_params();
  const auto lie = *RollingDisk<double>::make(p);
  DiskAsBundle model;
  model.lie.prm = p;
  const PrincipalBundleExtension<DiskAsBundle> bundle(model);
  std::mt19937 rng(47);
  for (int trial = 0; trial < 20; ++trial) {
    const auto x = disk_random_state(rng, p, trial % 2 == 0);  // both layouts are (R, x, y, ψ, Π)
    EXPECT_LT((bundle.field(x) - lie.field(x)).norm(), 1e-13);
    const auto Fl = lie.invariants(x);
    const auto Fb = bundle.invariants(x);
    EXPECT_LT((Fb.head<3>() - Fl.head<3>()).norm(), 1e-14);  // J1, J2, h̃
    EXPECT_LT((Fb.tail<3>() - Fl.tail<3>()).norm(), 1e-14);  // RᵀR − I
    EXPECT_LT(first_integral_residual(bundle, x, 0, 3), 1e-14);
    EXPECT_LT(jacobian_error(bundle, x), 1e-8);
  }
}

TEST(RollingDisk, ClosedFormSolvesTheEquations) {
  // Against RK4 at h = 1e-4 of the plain extended field, for the documented start and another
  // (other parameters, moved and turned start, backwards spin).
  const auto p = disk_other_params();
  const Vec<double, 11> xa =
      RollingDisk<double>::state(0, 0, 0, 0, RollingDisk<double>::on_constraint(RollingDiskParams<double>{}, 0.25, 1));
  const Vec<double, 11> xb =
      RollingDisk<double>::state(2.1, 0.3, -1.2, 0.7, RollingDisk<double>::on_constraint(p, -0.8, 0.6));
  const std::pair<RollingDiskParams<double>, Vec<double, 11>> cases[] = {{RollingDiskParams<double>{}, xa}, {p, xb}};
  for (const auto& c : cases) {
    const auto sys = *RollingDisk<double>::make(c.first);
    Vec<double, 11> x = c.second;
    for (int k = 1; k <= 50000; ++k) {
      rk4_step(sys, x, 1e-4);
      if (k % 10000 == 0) {
        EXPECT_LT((x - sys.exact_state(c.second, k * 1e-4)).norm(), 1e-10) << k;
      }
    }
  }
  // The documented case: a circle of radius v/ω = 2 about (0, 2).
  const auto sys = *RollingDisk<double>::make();
  for (double t : {0.5, 3.0, 7.0}) {
    const auto x = sys.exact_state(xa, t);
    EXPECT_NEAR(x[4], 2 * std::sin(t), 1e-14);
    EXPECT_NEAR(x[5], 2 - 2 * std::cos(t), 1e-14);
    EXPECT_NEAR(x[6], 2 * t, 1e-14);
  }
}

template <class T>
class RollingDiskTyped : public ::testing::Test {};
using DiskScalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(RollingDiskTyped, DiskScalars);

TYPED_TEST(RollingDiskTyped, ExtendedFieldConservesItsInvariants) {
  using S = TypeParam;
  const auto pd = disk_other_params();
  RollingDiskParams<S> p;
  p.mass = S(pd.mass), p.radius = S(pd.radius), p.inertia_axle = S(pd.inertia_axle),
  p.inertia_spin = S(pd.inertia_spin);
  const auto sys = *RollingDisk<S>::make(p);
  const auto sysH = *RollingDisk<S, EnergyRow::original>::make(p);
  std::mt19937 rng(53);
  const double tol = std::is_same<S, float>::value ? 2e-6 : 1e-14;
  for (int trial = 0; trial < 30; ++trial) {
    const Vec<S, 11> on = disk_random_state(rng, pd, true).cast<S>();
    EXPECT_LT(first_integral_residual(sys, on, 0, 4), tol);  // J1, J2, h̃, Πθ
    EXPECT_LT(first_integral_residual(sysH, on, 0, 4), tol);
    const Vec<S, 11> off = disk_random_state(rng, pd, false).cast<S>();
    EXPECT_LT(first_integral_residual(sys, off, 0, 3), tol);   // J1, J2, h̃ everywhere (Theorem 2.6)
    EXPECT_LT(first_integral_residual(sysH, off, 0, 3), tol);  // h (Corollary 2.7)
  }
}

TEST(RollingDisk, JacobianGroupsAndValidate) {
  const auto sys = *RollingDisk<double>::make(disk_other_params());
  const auto sysH = *RollingDisk<double, EnergyRow::original>::make(disk_other_params());
  std::mt19937 rng(59);
  for (int trial = 0; trial < 20; ++trial) {
    EXPECT_LT(jacobian_error(sys, random_vector<double, 11>(rng)), 1e-8);
    EXPECT_LT(jacobian_error(sysH, random_vector<double, 11>(rng)), 1e-8);
  }
  static_assert(
      RollingDisk<double>::M == 7 && RollingDisk<double>::gain_group(6) == 4 && RollingDisk<double>::gain_group(3) == 3,
      "Πθ its own row, RᵀR − I one group");
  const auto F0 = sys.invariant_targets(Vec<double, 7>(1, 2, 3, 4, 5, 6, 7));
  EXPECT_EQ(F0, (Vec<double, 7>() << 0, 0, 3, 4, 0, 0, 0).finished());
  RollingDiskParams<double> p;
  p.radius = 0;
  EXPECT_EQ(RollingDisk<double>::make(p).error(), Error::invalid_parameter);
  p = {};
  p.inertia_spin = -1;
  EXPECT_EQ(RollingDisk<double>::make(p).error(), Error::invalid_parameter);
  p = {};
  p.mass = INFINITY;
  EXPECT_EQ(RollingDisk<double>::make(p).error(), Error::non_finite);
}

TYPED_TEST(RollingDiskTyped, DocumentedCaseKeepsItsInvariants) {
  using S = TypeParam;
  const RollingDiskParams<S> prm;
  const auto sys = *RollingDisk<S>::make(prm);
  const auto x0 = RollingDisk<S>::state(S(0), S(0), S(0), S(0), RollingDisk<S>::on_constraint(prm, S(0.25), S(1)));
  EXPECT_NEAR((x0.template cast<double>() - documented_x0<double, RollingDiskFacts>()).norm(), 0, 1e-6);
  const auto fb = *Feedback<RollingDisk<S>>::make(sys, x0, documented_gains<S, RollingDiskFacts>());
  const auto exact = RollingDisk<double>::make()->exact_state(x0.template cast<double>(), 20.0);
  const bool is_float = std::is_same<S, float>::value;
  for (int scheme = 0; scheme < 2; ++scheme) {
    auto x = x0;
    RunRecord<7> rec;
    {
      NoAllocGuard guard;
      rec = scheme == 0 ? run_feedback(fb, x, S(1e-3), 20000, EulerStep{}, NoEach{})
                        : run_feedback(fb, x, S(1e-3), 20000, Rk4Step{}, NoEach{});
    }
    ASSERT_TRUE(rec.finite);
    const double err = (x.template cast<double>() - exact).norm();
    // Measured |x(20) − exact|, RᵀR − I — double Euler 1.1e-3, 7.1e-6; double RK4 1.6e-10,
    // 1.5e-10; float Euler 1.7e-3, 7.3e-6; float RK4 2.0e-2, 7.6e-7 (float: the rounding of the
    // heading accumulated over 20 rad, not the scheme). J1, J2, h̃ and Πθ stay exactly at their
    // values: on the constraint set Π̇ = 0 term by term. Bounds ~3x.
    const bool euler = scheme == 0;
    EXPECT_LT(err, is_float ? (euler ? 6e-3 : 6e-2) : (euler ? 4e-3 : 5e-10));
    EXPECT_LT(rec.max_dev.template head<4>().maxCoeff(), is_float ? 1e-6 : 1e-12);
    EXPECT_LT(rec.max_dev.template tail<3>().maxCoeff(), euler ? 2.5e-5 : (is_float ? 3e-6 : 5e-10));
  }
  // Started off both constraints, the feedback pulls J1, J2 to 0 and Π to Π0's level set.
  auto off = x0;
  off[9] += S(1e-2);
  off[8] += S(1e-2);
  for (int k = 0; k < 2000; ++k) rk4_step(fb, off, S(1e-3));
  const auto F = sys.invariants(off);
  EXPECT_LT(std::abs(double(F[0])) + std::abs(double(F[1])), is_float ? 1e-5 : 1e-9);
}

}  // namespace
