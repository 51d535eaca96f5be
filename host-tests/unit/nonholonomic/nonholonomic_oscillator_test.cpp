// SPDX-License-Identifier: Apache-2.0
// Nonholonomic oscillator (paper 000 §3.7): the printed H̃, ∇H̃ and λ̃ against the cotangent
// adapter, the unit constraint (the library's system, generated) and the non-unit one (Remark 2.4;
// the hand derivation of host-tests/support) giving one field, first integrals and
// Jacobian, and the paper's experiment (Euler, h = 1e-3, k = (500, 300, 300), t ∈ [0, 200]) in
// float and double against y = cos t and an accurate reference integration.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "attractor/core/documented.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/nonholonomic_oscillator.hpp"
#include "hand_nonholonomic_oscillator.hpp"
#include "no_alloc.hpp"
#include "nonholonomic_checks.hpp"

using namespace attractor;
using namespace attractor::test;

namespace {

TEST(NonholonomicOscillator, PapersFormulasMatchTheAdapter) {
  const auto sys = *NonholonomicOscillator<double>::make();
  std::mt19937 rng(17);
  for (int trial = 0; trial < 20; ++trial) {
    const auto x = random_vector<double, 6>(rng);
    const double X = x[0], y = x[1], z = x[2], px = x[3], py = x[4], pz = x[5], s2 = 1 + y * y;
    const auto t = sys.terms(x);
    EXPECT_NEAR(t.H_ext, (y * px - pz) * (y * px - pz) / (2 * s2) + py * py / 2 + x.head<3>().squaredNorm() / 2, 1e-13);
    EXPECT_NEAR((t.dHq - Vec3<double>(X, y + (y * px - pz) * (px + y * pz) / (s2 * s2), z)).norm(), 0, 1e-13);
    EXPECT_NEAR((t.dHp - Vec3<double>((y * px - pz) * y / s2, py, (pz - y * px) / s2)).norm(), 0, 1e-13);
    EXPECT_NEAR(sys.multipliers(t, x)[0], ((X + y * z) * s2 + (px * y - pz) * py) / std::pow(s2, 1.5), 1e-13);
  }
}

TEST(NonholonomicOscillator, UnitAndNonUnitConstraintGiveOneField) {
  // e = (1, 0, y) through Remark 2.4's general formulas gives the same field as the normalised e
  // on the constraint set, and the same H̃ everywhere; the constraint rows differ by √(1 + y²).
  // Off the constraint set the two extensions differ by a force ∝ c (each keeps its own c).
  const auto unit = *NonholonomicOscillator<double>::make();
  const auto raw = *hand::NonholonomicOscillator<double>::make(false);
  std::mt19937 rng(19);
  for (int trial = 0; trial < 20; ++trial) {
    const auto on = cotangent_on_constraint(unit, rng);
    EXPECT_NEAR((unit.field(on) - raw.field(on)).norm(), 0, 1e-13);
    const auto x = random_vector<double, 6>(rng);
    EXPECT_NEAR(unit.invariants(x)[1], raw.invariants(x)[1], 1e-13);
    EXPECT_NEAR(unit.invariants(x)[0] * std::sqrt(1 + x[1] * x[1]), raw.invariants(x)[0], 1e-13);
    EXPECT_LT(jacobian_error(unit, x), 1e-8);
    EXPECT_LT(jacobian_error(raw, x), 1e-8);
    EXPECT_LT(jacobian_error(hand::NonholonomicOscillator<double, EnergyRow::original>::make(false).value(), x), 1e-8);
  }
}

template <class T>
class OscillatorTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(OscillatorTyped, Scalars);

// sys, sysH: the extension with the energy row H̃ and H; unit_e: their constraint row is the unit one.
template <class S, class Sys, class SysH>
void expect_conserved(const Sys& sys, const SysH& sysH, bool unit_e, std::mt19937& rng) {
  const double tol = std::is_same<S, float>::value ? 2e-6 : 1e-14;
  for (int trial = 0; trial < 30; ++trial) {
    const auto x = cotangent_on_constraint(sys, rng);
    EXPECT_LT(first_integral_residual(sys, x), tol);
    EXPECT_LT(first_integral_residual(sysH, x), tol);
    // Off the constraint set J and H̃ (and H) stay first integrals; H_y does not
    // (nonholonomic_oscillator.hpp).
    const auto y = random_vector<S, 6>(rng);
    EXPECT_LT(first_integral_residual(sys, y, 0, 2), tol);
    // H = H̃ + ½ cᵀC(q)c is one only when C is constant (cotangent_extension.hpp).
    if (unit_e) {
      EXPECT_LT(first_integral_residual(sysH, y, 0, 2), tol);
    }
    const double s2 = 1 + double(y[1]) * y[1];
    const double dHy = -double(y[4]) * (double(y[1]) * y[3] - y[5]) * (double(y[3]) + double(y[1]) * y[5]) / (s2 * s2);
    EXPECT_NEAR(double(sys.invariants_jacobian(y).row(2).dot(sys.field(y))), dHy, 1e-5 * (1 + std::abs(dHy)));
  }
}

TYPED_TEST(OscillatorTyped, ExtendedFieldConservesItsInvariants) {
  using S = TypeParam;
  std::mt19937 rng(23);
  expect_conserved<S>(*NonholonomicOscillator<S>::make(), *NonholonomicOscillator<S, EnergyRow::original>::make(), true,
                      rng);
  expect_conserved<S>(*hand::NonholonomicOscillator<S>::make(false),
                      *hand::NonholonomicOscillator<S, EnergyRow::original>::make(false), false, rng);
}

// The paper's experiment: q0 = (1, 1, 1), p0 = 0, Euler, h = 1e-3, k1 = 500 on H̃, k2 = 300 on
// H_y, k3 = 300 on J, t ∈ [0, 200]; RK4 alongside. y(t) = cos t exactly on the constraint set;
// the state is compared with RK4 at h = 5e-4 of the plain field at t = 20. RK4 runs t ∈ [0, 50]
// only (the suite's run time under ASan).
TYPED_TEST(OscillatorTyped, PaperExperimentKeepsTheInvariants) {
  using S = TypeParam;
  const auto sys = *NonholonomicOscillator<S>::make();
  const Vec<S, 6> x0 = documented_x0<S, NonholonomicOscillatorFacts>();
  const auto fb =
      *Feedback<NonholonomicOscillator<S>>::make(sys, x0, documented_gains<S, NonholonomicOscillatorFacts>());
  EXPECT_EQ(fb.reference()[1], S(1.5));  // H̃0 = |q0|²/2
  EXPECT_EQ(fb.reference()[2], S(0.5));  // H_y0
  // Reference at t = 20.
  const auto ref_sys = *NonholonomicOscillator<double>::make();
  Vec<double, 6> ref = x0.template cast<double>();
  for (int k = 0; k < 40000; ++k) rk4_step(ref_sys, ref, 5e-4);
  const bool is_float = std::is_same<S, float>::value;
  for (int scheme = 0; scheme < 2; ++scheme) {
    auto x = x0;
    double worst_y = 0, at20 = 0;
    const auto each = [&](long k, const Vec<S, 6>& xs) {
      worst_y = std::max(worst_y, std::abs(double(xs[1]) - std::cos(double(k) * 1e-3)));
      if (k == 20000) at20 = (xs.template cast<double>() - ref).norm();
    };
    RunRecord<3> rec;
    {
      NoAllocGuard guard;
      rec = scheme == 0 ? run_feedback(fb, x, S(1e-3), 200000, EulerStep{}, each)
                        : run_feedback(fb, x, S(1e-3), 50000, Rk4Step{}, each);
    }
    ASSERT_TRUE(rec.finite);
    // Measured |y − cos t|, |x(20) − ref|, J, H̃, H_y — double Euler 3.2e-4, 2.0e-3, 4.5e-6, 1.3e-6,
    // 1.7e-6; double RK4 (t ≤ 50) 7.8e-8, 1.0e-7, 6.8e-8, 2.2e-7, 8.6e-8; float Euler 3.1e-4, 2.0e-3,
    // 4.6e-6, 1.7e-6, 1.9e-6; float RK4 4.4e-6, 6.4e-6, 3.0e-7, 4.8e-7, 3.9e-7. Bounds about 4x.
    const bool euler = scheme == 0;
    EXPECT_LT(worst_y, euler ? 1.3e-3 : (is_float ? 2e-5 : 4e-7));
    EXPECT_LT(at20, euler ? 8e-3 : (is_float ? 3e-5 : 5e-7));
    EXPECT_LT(rec.max_dev[0], euler ? 2e-5 : (is_float ? 1.5e-6 : 3e-7));
    EXPECT_LT(rec.max_dev[1], euler ? 7e-6 : (is_float ? 2.5e-6 : 1e-6));
    EXPECT_LT(rec.max_dev[2], euler ? 8e-6 : (is_float ? 1.6e-6 : 4e-7));
  }
}

}  // namespace
