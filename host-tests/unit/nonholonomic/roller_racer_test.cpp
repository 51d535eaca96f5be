// SPDX-License-Identifier: Apache-2.0
// Roller racer (paper 000 §3.5) on the principal-bundle adapter (SE(2) symmetry, joint angle ϕ
// as the shape) with R ∈ R^{2×2}: the field against the Lagrange–d'Alembert equations and against
// the paper's (62) with λ̃_i = {h̃, J_i} from the bracket (19) and the printed h̃, J_i and e_i♭;
// first integrals and Jacobian; and a documented case (§3.5 has no experiment): m = I1 = d1 = 1,
// I2 = d2 = 1/2, ϕ0 = 0.5, Πθ = 1, pϕ = 0.2, Euler and RK4, h = 1e-3, all gains 50, t ∈ [0, 20],
// against RK4 at h = 1e-4 of the plain field (the system has no closed form).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "attractor/core/documented.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/roller_racer.hpp"
#include "no_alloc.hpp"
#include "nonholonomic_checks.hpp"

using namespace attractor;
using namespace attractor::test;

namespace {

RollerRacerParams<double> racer_other_params() {
  RollerRacerParams<double> p;
  p.mass = 1.4;
  p.inertia1 = 0.7;
  p.inertia2 = 0.3;
  p.d1 = 0.8;
  p.d2 = -0.45;
  return p;
}

Vec<double, 11> racer_random_state(std::mt19937& rng, const RollerRacerParams<double>& p, bool on_constraint) {
  const Vec<double, 4> r = random_vector<double, 4>(rng);
  const Vec<double, 4> pose = random_vector<double, 4>(rng, 3.0);
  const double phi = pose[3] + (std::abs(std::sin(pose[3])) < 0.2 ? 0.5 : 0.0);  // Πx from sin ϕ ≠ 0
  const Vec<double, 4> z = on_constraint ? RollerRacer<double>::on_constraint(p, phi, r[0], r[3]) : r;
  return RollerRacer<double>::state(pose[0], pose[1], pose[2], phi, z);
}

TEST(RollerRacer, FieldSolvesTheLagrangeDAlembertEquations) {
  // L = m(ẋ² + ẏ²)/2 + I1θ̇²/2 + I2(θ̇ + ϕ̇)²/2; −sin θ ẋ + cos θ ẏ = 0 and
  // (d1 cos ϕ + d2) θ̇ − sin ϕ (cos θ ẋ + sin θ ẏ) + d2 ϕ̇ = 0 (Bloch's roller racer).
  const auto p = racer_other_params();
  const auto sys = *RollerRacer<double>::make(p);
  Mat<double, 4, 4> M;
  M << p.inertia1 + p.inertia2, 0, 0, p.inertia2, 0, p.mass, 0, 0, 0, 0, p.mass, 0, p.inertia2, 0, 0, p.inertia2;
  const auto A = [&p](const Vec<double, 4>& q) {
    const double c = std::cos(q[0]), s = std::sin(q[0]);
    Mat<double, 2, 4> a;
    a << 0, -s, c, 0, p.d1 * std::cos(q[3]) + p.d2, -std::sin(q[3]) * c, -std::sin(q[3]) * s, p.d2;
    return a;
  };
  std::mt19937 rng(61);
  for (int trial = 0; trial < 20; ++trial) {
    const auto x = racer_random_state(rng, p, true);
    const PlanarMotion mo = planar_motion(sys, x);
    EXPECT_LT((mo.qd - M.inverse() * mo.p).norm(), 1e-13);
    EXPECT_LT((A(mo.q) * mo.qd).norm(), 1e-13);
    const Vec<double, 4> pd = M * lagrange_dalembert_acceleration<4>(M, A, mo.q, mo.qd);
    EXPECT_LT((mo.pd - pd).norm(), 1e-8 * (1 + pd.norm())) << trial;
  }
}

// The paper's h̃ and J1, J2 of (Π, ϕ, pϕ) = v[0..4] = (Πθ, Πx, Πy, ϕ, pϕ), as printed.
struct RacerPrinted {
  RollerRacerParams<double> p;
  double n2(double phi) const {
    const double s = std::sin(phi), c = std::cos(phi);
    return s * s / p.mass + p.d1 * p.d1 * c * c / p.inertia1 + p.d2 * p.d2 / p.inertia2;
  }
  double J1(const Vec<double, 5>& v) const {
    const double k = p.d1 * std::cos(v[3]) / p.inertia1;
    return (k * v[0] - std::sin(v[3]) / p.mass * v[1] + (-k + p.d2 / p.inertia2) * v[4]) / std::sqrt(n2(v[3]));
  }
  double J2(const Vec<double, 5>& v) const { return v[2] / std::sqrt(p.mass); }
  double h_ext(const Vec<double, 5>& v) const {
    const double k = p.d1 * std::cos(v[3]) / p.inertia1;
    const double num = k * v[0] - std::sin(v[3]) / p.mass * v[1] + (-k + p.d2 / p.inertia2) * v[4];
    return v[1] * v[1] / (2 * p.mass) + (v[0] - v[4]) * (v[0] - v[4]) / (2 * p.inertia1) +
           v[4] * v[4] / (2 * p.inertia2) - num * num / (2 * n2(v[3]));
  }
};

template <class F>
Vec<double, 5> gradient5(F f, const Vec<double, 5>& v) {
  Vec<double, 5> g;
  for (int k = 0; k < 5; ++k) {
    Vec<double, 5> a = v, b = v;
    a[k] += 1e-6;
    b[k] -= 1e-6;
    g[k] = (f(a) - f(b)) / 2e-6;
  }
  return g;
}

// {f1, f2} of (19): −⟨μ, [δf1/δμ, δf2/δμ]⟩ + ∂f1/∂ϕ ∂f2/∂pϕ − ∂f2/∂ϕ ∂f1/∂pϕ; ⟨μ, [a, b]⟩ = ⟨ad*_a μ, b⟩.
double racer_bracket(const Vec<double, 5>& v, const Vec<double, 5>& g1, const Vec<double, 5>& g2) {
  const Vec3<double> mu = v.head<3>();
  return -se2_ad_star(Vec3<double>(g1.head<3>()), mu).dot(g2.head<3>()) + g1[3] * g2[4] - g2[3] * g1[4];
}

TEST(RollerRacer, PapersExtendedFieldMatchesTheAdapter) {
  const auto p = racer_other_params();
  const auto sys = *RollerRacer<double>::make(p);
  const RacerPrinted pr{p};
  std::mt19937 rng(67);
  for (int trial = 0; trial < 20; ++trial) {
    const auto x = racer_random_state(rng, p, false);  // (62) is the extension: everywhere
    Vec<double, 5> v;
    v << x.segment<3>(7), x[6], x[10];
    const auto F = sys.invariants(x);
    EXPECT_NEAR(F[0], pr.J1(v), 1e-14);
    EXPECT_NEAR(F[1], pr.J2(v), 1e-14);
    EXPECT_NEAR(F[2], pr.h_ext(v), 1e-14);
    const auto hf = [&pr](const Vec<double, 5>& y) { return pr.h_ext(y); };
    const Vec<double, 5> dh = gradient5(hf, v);
    const Vec<double, 5> dJ1 = gradient5([&pr](const Vec<double, 5>& y) { return pr.J1(y); }, v);
    const Vec<double, 5> dJ2 = gradient5([&pr](const Vec<double, 5>& y) { return pr.J2(y); }, v);
    EXPECT_NEAR(dh[2], 0, 1e-9);  // h̃ independent of Πy
    const double l1 = racer_bracket(v, dh, dJ1), l2 = racer_bracket(v, dh, dJ2);
    const double s = std::sin(v[3]), c = std::cos(v[3]), n = std::sqrt(pr.n2(v[3]));
    const Vec<double, 4> e1f = Vec<double, 4>(p.d1 * c + p.d2, -s, 0, p.d2) / n;  // e1♭ as printed
    const Vec<double, 4> e2f(0, 0, std::sqrt(p.mass), 0);
    const Vec<double, 4> zd = Vec<double, 4>(-v[2] * dh[1], v[2] * dh[0], -v[1] * dh[0], -dh[3]) + l1 * e1f + l2 * e2f;
    const auto dx = sys.field(x);
    EXPECT_LT((dx.tail<4>() - zd).norm(), 1e-7 * (1 + zd.norm())) << trial;  // (62c)
    EXPECT_NEAR(dx[6], dh[4], 1e-8);                                         // (62b)
    EXPECT_NEAR(dx[4], dh[1] * x[0], 1e-8);                                  // (62a): ẋ = ∂h̃/∂Πx cos θ
    EXPECT_NEAR(dx[1], dh[0] * x[0], 1e-8);                                  // d/dt sin θ = θ̇ cos θ
  }
}

template <class T>
class RollerRacerTyped : public ::testing::Test {};
using RacerScalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(RollerRacerTyped, RacerScalars);

TYPED_TEST(RollerRacerTyped, ExtendedFieldConservesItsInvariants) {
  using S = TypeParam;
  const auto pd = racer_other_params();
  RollerRacerParams<S> p;
  p.mass = S(pd.mass), p.inertia1 = S(pd.inertia1), p.inertia2 = S(pd.inertia2), p.d1 = S(pd.d1), p.d2 = S(pd.d2);
  const auto sys = *RollerRacer<S>::make(p);
  const auto sysH = *RollerRacer<S, EnergyRow::original>::make(p);
  std::mt19937 rng(71);
  const double tol = std::is_same<S, float>::value ? 2e-6 : 1e-14;
  for (int trial = 0; trial < 30; ++trial) {
    const Vec<S, 11> off = racer_random_state(rng, pd, trial % 3 == 0).cast<S>();
    EXPECT_LT(first_integral_residual(sys, off, 0, 3), tol);   // J1, J2, h̃ everywhere (Theorem 2.9)
    EXPECT_LT(first_integral_residual(sysH, off, 0, 3), tol);  // h too: e_i orthonormal (Corollary 2.10)
  }
}

TEST(RollerRacer, JacobianGroupsAndValidate) {
  const auto sys = *RollerRacer<double>::make(racer_other_params());
  const auto sysH = *RollerRacer<double, EnergyRow::original>::make(racer_other_params());
  std::mt19937 rng(73);
  for (int trial = 0; trial < 20; ++trial) {
    EXPECT_LT(jacobian_error(sys, random_vector<double, 11>(rng)), 1e-8);
    EXPECT_LT(jacobian_error(sysH, random_vector<double, 11>(rng)), 1e-8);
  }
  static_assert(RollerRacer<double>::M == 6 && RollerRacer<double>::gain_group(5) == 3, "RᵀR − I one group");
  // The feedback's targets: constraint rows and RᵀR − I pulled to 0, the energy (row K = 2) held.
  EXPECT_EQ(sys.invariant_targets((Vec<double, 6>() << 1, 2, 3, 4, 5, 6).finished()),
            (Vec<double, 6>() << 0, 0, 3, 0, 0, 0).finished());
  RollerRacerParams<double> p;
  p.d2 = 0;
  EXPECT_EQ(RollerRacer<double>::make(p).error(), Error::invalid_parameter);
  p = {};
  p.inertia2 = 0;
  EXPECT_EQ(RollerRacer<double>::make(p).error(), Error::invalid_parameter);
  p = {};
  p.d1 = NAN;
  EXPECT_EQ(RollerRacer<double>::make(p).error(), Error::non_finite);
}

TYPED_TEST(RollerRacerTyped, DocumentedCaseKeepsItsInvariants) {
  using S = TypeParam;
  const RollerRacerParams<S> prm;
  const auto sys = *RollerRacer<S>::make(prm);
  const auto x0 =
      RollerRacer<S>::state(S(0), S(0), S(0), S(0.5), RollerRacer<S>::on_constraint(prm, S(0.5), S(1), S(0.2)));
  EXPECT_NEAR((x0.template cast<double>() - documented_x0<double, RollerRacerFacts>()).norm(), 0, 1e-6);
  const auto fb = *Feedback<RollerRacer<S>>::make(sys, x0, documented_gains<S, RollerRacerFacts>());
  const auto ref_sys = *RollerRacer<double>::make();
  // Reference: double RK4 at h = 5e-4, within 4e-12 of h = 1e-4 at t = 20 (rounding-limited), far
  // below the smallest bound checked against it (1.5e-9).
  Vec<double, 11> ref = x0.template cast<double>();
  for (int k = 0; k < 40000; ++k) rk4_step(ref_sys, ref, 5e-4);
  const bool is_float = std::is_same<S, float>::value;
  for (int scheme = 0; scheme < 2; ++scheme) {
    auto x = x0;
    RunRecord<6> rec;
    {
      NoAllocGuard guard;
      rec = scheme == 0 ? run_feedback(fb, x, S(1e-3), 20000, EulerStep{}, NoEach{})
                        : run_feedback(fb, x, S(1e-3), 20000, Rk4Step{}, NoEach{});
    }
    ASSERT_TRUE(rec.finite);
    const double err = (x.template cast<double>() - ref).norm();
    // Measured |x(20) − ref|, J1, h̃, RᵀR − I — double Euler 3.5e-3, 8.1e-6, 2.6e-6, 1.9e-5; double
    // RK4 4.2e-10, 6.6e-10, 4.6e-10, 4.1e-10; float Euler 3.5e-3, 8.6e-6, 3.1e-6, 1.9e-5; float RK4
    // 1.6e-3, 3.2e-6, 4.8e-6, 8.4e-7. J2 = Πy stays 0 (its rate cancels exactly). Bounds ~3x.
    const bool euler = scheme == 0;
    EXPECT_LT(err, euler ? 1e-2 : (is_float ? 5e-3 : 1.5e-9));
    EXPECT_LT(rec.max_dev[0], euler ? 3e-5 : (is_float ? 1e-5 : 2e-9));
    EXPECT_LT(rec.max_dev[1], is_float ? 1e-6 : 1e-12);
    EXPECT_LT(rec.max_dev[2], euler ? 1e-5 : (is_float ? 1.5e-5 : 1.5e-9));
    EXPECT_LT(rec.max_dev.template tail<3>().maxCoeff(), euler ? 6e-5 : (is_float ? 3e-6 : 1.5e-9));
  }
  // Started 1e-2 off the rear-axle constraint, the feedback pulls J1 back (rate ~ k = 50); the plain
  // field keeps it (J1 is a first integral of the extension).
  auto off = x0;
  off[8] += S(1e-2);
  const S J1_off = sys.invariants(off)[0];
  auto plain = off;
  for (int k = 0; k < 2000; ++k) {
    rk4_step(fb, off, S(1e-3));
    rk4_step(sys, plain, S(1e-3));
  }
  EXPECT_LT(std::abs(double(sys.invariants(off)[0])), is_float ? 1e-6 : 1e-9);
  EXPECT_NEAR(double(sys.invariants(plain)[0]), double(J1_off), is_float ? 2e-5 : 1e-12);
  EXPECT_GT(std::abs(double(J1_off)), 1e-3);
}

}  // namespace
