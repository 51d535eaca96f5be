// SPDX-License-Identifier: Apache-2.0
// Pendulum skate model (paper 003 §2.1, Example 8, §5): reduced (35)/(38) vs full (21),
// invariants (30), (36), (37 corrected), constraints, feedback integrator, reconstruction,
// equilibria and stability (Props. 11, 12, Appendix A.1). Parameter sets and initial conditions
// are swept; the paper's numbers are one case among several.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_analysis.hpp"
#include "attractor/systems/pendulum_skate_pose.hpp"
#include "no_alloc.hpp"
#include "numeric_jacobian.hpp"

using namespace attractor;

namespace {

// Parameter sets: the paper's §7.2, I2 > I3 variants, I2 < I3 (artanh branch of C2), I2 = I3.
std::vector<PendulumSkateParams<double>> param_sets() {
  return {
      {2.0, 0.8, 0.35, 0.35, 0.004, 9.8},  // paper §7.2
      {1.3, 0.5, 0.11, 0.2, 0.03, 9.81},   // I2 > I3, I1 != I2
      {4.0, 1.1, 0.6, 0.25, 0.05, 3.7},    // low gravity, heavy
      {0.7, 0.3, 0.02, 0.01, 0.03, 9.8},   // I2 < I3
      {1.0, 0.6, 0.05, 0.04, 0.04, 9.8},   // I2 = I3
  };
}

// A point on the constraint manifold: tilt phi, (v1, v2, v3).
Vec<double, 5> zeta_at(double v1, double v2, double v3, double phi) {
  Vec<double, 5> z;
  z << v1, v2, v3, std::sin(phi), std::cos(phi);
  return z;
}

// The misprinted C2 of (37): l/(I3(I2−I3)) instead of l/√(I3(I2−I3)).
double c2_printed(const PendulumSkateParams<double>& p, const Vec<double, 5>& z) {
  const double C1 = (p.I2 * z[3] * z[3] + p.I3 * z[4] * z[4]) * z[1];
  return p.l * z[3] * z[1] + z[2] +
         p.l / (p.I3 * (p.I2 - p.I3)) * C1 * std::atan(std::sqrt((p.I2 - p.I3) / p.I3) * z[3]);
}

TEST(PendulumSkate, ReducedAgreesWithFullEliminatedMultipliers) {
  // (35)/(38) in ζ against (21) in z with λ eliminated, from the same constrained initial state.
  for (const auto& p : param_sets()) {
    for (int ic = 0; ic < 2; ++ic) {
      const Vec<double, 5> q0 = ic == 0 ? zeta_at(0.1, 0.1, 1.0, 0.1) : zeta_at(-0.4, 2.0, 0.3, -0.3);
      PendulumSkate<double> red{p};
      PendulumSkateFull<double> full{p};
      Vec<double, 5> q = q0;
      Vec<double, 9> z = skate_full(q0);
      double worst = 0;
      {
        test::NoAllocGuard guard;
        for (int k = 0; k < 150; ++k) {  // t in [0, 0.15], h = 1e-3
          rk4_step(red, q, 1e-3);
          rk4_step(full, z, 1e-3);
          worst = std::max(worst, (skate_zeta(z) - q).cwiseAbs().maxCoeff());
        }
      }
      // two different O(h⁴) discretizations of the same flow: measured 3e-15 .. 4e-10
      EXPECT_LT(worst, 5e-9) << "set m=" << p.m << " ic " << ic;
    }
  }
}

TEST(PendulumSkate, ClosedFormMetricInverseAgreesWithLdlt) {
  // PendulumSkateFull::metric_solve (𝔾⁻¹ by its diagonal Schur complement) against a general
  // LDLT of 𝔾 (34), and 𝔾 applied to the result gives back the right-hand side.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-2, 2);
  for (const auto& p : param_sets()) {
    const PendulumSkateFull<double> full{p};
    const Mat<double, 6, 6> G = full.metric();
    const Eigen::LDLT<Mat<double, 6, 6>> ldlt(G);
    for (int t = 0; t < 50; ++t) {
      Vec<double, 6> r;
      for (int i = 0; i < 6; ++i) r[i] = U(rng);
      const Vec<double, 6> x = full.metric_solve(r.head<3>(), r.tail<3>());
      EXPECT_LT((x - ldlt.solve(r)).cwiseAbs().maxCoeff(), 1e-12 * (1 + x.cwiseAbs().maxCoeff()));
      EXPECT_LT((G * x - r).cwiseAbs().maxCoeff(), 1e-12 * (1 + r.cwiseAbs().maxCoeff()));
    }
  }
}

TEST(PendulumSkate, InvariantsConservedAlongAccurateTrajectories) {
  // E (30), C1 (36), C2 (37, corrected) and Γ2²+Γ3² are first integrals of (38); the printed C2 is not.
  for (const auto& p : param_sets()) {
    PendulumSkate<double> sk{p};
    const Vec<double, 5> q0 = zeta_at(0.3, 1.5, 0.7, 0.2);
    const Vec<double, 4> F0 = sk.invariants(q0);
    const double c2p0 = c2_printed(p, q0);
    double drift[2] = {0, 0}, drift_printed = 0;
    for (int r = 0; r < 2; ++r) {  // h = 1e-3 and 5e-4 over 1 s: the drift is RK4's O(h⁴) error
      Vec<double, 5> q = q0;
      const double h = r == 0 ? 1e-3 : 5e-4;
      test::NoAllocGuard guard;
      for (int k = 0; k < (r == 0 ? 1000 : 2000); ++k) {
        rk4_step(sk, q, h);
        drift[r] = std::max(drift[r], (sk.invariants(q) - F0).cwiseAbs().maxCoeff());
        if (r == 0 && p.I2 > p.I3) drift_printed = std::max(drift_printed, std::abs(c2_printed(p, q) - c2p0));
      }
    }
    EXPECT_LT(drift[0], 1e-6) << "m=" << p.m;  // measured <= 7e-8
    EXPECT_TRUE(drift[1] < drift[0] / 8 || drift[1] < 1e-12) << drift[0] << " " << drift[1];
    if (p.I2 > p.I3) {
      EXPECT_GT(drift_printed, 1e-3) << "printed C2 should drift (misprint)";
    }
  }
}

TEST(PendulumSkate, FullModelKeepsConstraintsAndInvariantsOffTheGrid) {
  // On the constraint manifold the full field is tangent to every level set of F; off the manifold
  // the eliminated multipliers still keep v4, v5, v6 constant (dF·X = 0 for those rows).
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1, 1);
  for (const auto& p : param_sets()) {
    PendulumSkateFull<double> full{p};
    for (int trial = 0; trial < 5; ++trial) {
      const Vec<double, 5> q = zeta_at(U(rng), 2 * U(rng), U(rng), 0.7 * U(rng));
      const Vec<double, 9> z = skate_full(q);
      const Vec<double, 8> rates = full.invariants_jacobian(z) * full.field(z);
      EXPECT_LT(rates.cwiseAbs().maxCoeff(), 1e-11) << rates.transpose();
      Vec<double, 9> off = z;
      for (int i = 0; i < 9; ++i) off[i] += 0.05 * U(rng);
      const Vec<double, 8> r2 = full.invariants_jacobian(off) * full.field(off);
      EXPECT_LT(r2.tail<3>().cwiseAbs().maxCoeff(), 1e-11);
    }
  }
}

// The invariants' Jacobians: PendulumSkateConformance, PendulumSkateFullConformance
// (pendulum_skate_conformance_test.cpp). The field's Jacobian of (38), skate_jacobian(), for
// every parameter set (the I2 < I3 and I2 = I3 branches of C2's integral included):
TEST(PendulumSkate, FieldJacobianMatchesFiniteDifferences) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1, 1);
  for (const auto& p : param_sets()) {
    PendulumSkate<double> red{p};
    for (int trial = 0; trial < 3; ++trial) {
      Vec<double, 5> q;
      q << U(rng), U(rng), U(rng), 0.6 * U(rng), 0.8 + 0.1 * U(rng);
      const auto Df = test::numeric_jacobian<5>([&](const Vec<double, 5>& x) { return red.field(x); }, q);
      EXPECT_LT((Df - skate_jacobian(p, q)).cwiseAbs().maxCoeff(), 1e-6);
      const auto Jn = test::numeric_jacobian<4>([&](const Vec<double, 5>& x) { return red.invariants(x); }, q);
      EXPECT_LT((Jn - red.invariants_jacobian(q)).cwiseAbs().maxCoeff(), 1e-6);
    }
  }
}

// Fall time: first t with Γ3 = 0 (linear interpolation), or -1.
template <class Sys, int N>
double fall_time(const Sys& sys, Vec<double, N> x, int g3_index, double h, double T) {
  const int steps = int(std::lround(T / h));
  for (int k = 0; k < steps; ++k) {
    const double before = x[g3_index];
    rk4_step(sys, x, h);
    if (x[g3_index] <= 0) return k * h + h * before / (before - x[g3_index]);
  }
  return -1;
}

TEST(PendulumSkate, Section72FallTime) {
  // Paper 003 §7.2: m=2, l=0.8, I=(0.35,0.35,0.004), (59) with φ0=0.1: Γ3 = 0 at t ≈ 1.025.
  const PendulumSkateParams<double> p{};
  const Vec<double, 9> z0 = skate_tilted_sliding_state(0.1);
  const double t_red = fall_time(PendulumSkate<double>{p}, skate_zeta(z0), 4, 1e-3, 2.0);
  const double t_full = fall_time(PendulumSkateFull<double>{p}, z0, 8, 1e-3, 2.0);
  EXPECT_NEAR(t_red, 1.025, 0.01 * 1.025);  // measured 1.02505
  EXPECT_NEAR(t_full, t_red, 1e-9);
}

TEST(PendulumSkate, SlidingEquilibriumUnstableAtPredictedRate) {
  // Prop. 12: near ζsl, Γ2 grows like exp(√(mgl/Ī1) t). Measure the log-slope of Γ2.
  for (const auto& p : param_sets()) {
    PendulumSkate<double> sk{p};
    const double lam = sliding_unstable_rate(p);
    Vec<double, 5> q = sliding_equilibrium(0.8);
    const double eps = 1e-7;
    q[3] = eps;
    q[4] = std::sqrt(1 - eps * eps);
    q[0] = lam * eps;  // on the unstable eigenvector (v1 = λ Γ2)
    const double T = 5.0 / lam, h = T / 2000;
    for (int k = 0; k < 2000; ++k) rk4_step(sk, q, h);
    const double rate = std::log(q[3] / eps) / T;
    EXPECT_NEAR(rate, lam, 1e-3 * lam);  // Γ2 still ~1e-5: linear regime
    // Eigenvalues of the analytic Df at ζsl: {0,0,0,±λ}
    const Eigen::EigenSolver<Mat<double, 5, 5>> es(skate_jacobian(p, sliding_equilibrium(0.8)));
    EXPECT_NEAR(es.eigenvalues().real().maxCoeff(), lam, 1e-9);
  }
}

TEST(PendulumSkate, SpinningStabilityProp11AndEnergyCasimir) {
  for (const auto& p : param_sets()) {
    const double ml2 = p.m * p.l * p.l, mgl = p.m * p.g * p.l, k = p.I3 + ml2 - p.I2;
    for (double W : {0.5, 3.0, 12.0}) {
      const auto a = spinning_stability(p, W);
      // λ² of Df(ζsp) (A.1, eigenvalues) against the numerically computed spectrum.
      const Eigen::EigenSolver<Mat<double, 5, 5>> es(skate_jacobian(p, spinning_equilibrium(W)));
      double l2 = 0;
      for (int i = 0; i < 5; ++i) {
        const std::complex<double> e = es.eigenvalues()[i];
        l2 = std::max(l2, std::abs(e * e));
      }
      EXPECT_NEAR(l2, std::abs(a.lambda2), 1e-9 * (1 + l2));
      // Energy–Casimir: gradient zero, Hessian = finite differences of E + c1 C1 + c2 C2 + c3 C3.
      const auto ec = spinning_energy_casimir(p, W);
      EXPECT_LT(ec.gradient.cwiseAbs().maxCoeff(), 1e-12);
      PendulumSkate<double> sk{p};
      auto L = [&](const Vec<double, 5>& x) {
        const Vec<double, 4> F = sk.invariants(x);
        return F[0] + ec.c[0] * F[1] + ec.c[1] * F[2] + ec.c[2] * 0.5 * F[3];
      };
      const Vec<double, 5> z0 = spinning_equilibrium(W);
      auto grad = [&](const Vec<double, 5>& x) {
        Vec<double, 5> g;
        for (int j = 0; j < 5; ++j) {
          Vec<double, 5> u = x, d = x;
          u[j] += 1e-5;
          d[j] -= 1e-5;
          g[j] = (L(u) - L(d)) / 2e-5;
        }
        return g;
      };
      EXPECT_LT(grad(z0).cwiseAbs().maxCoeff(), 1e-6);
      const auto Hn = test::numeric_jacobian<5>(grad, z0);
      EXPECT_LT((Hn - ec.hessian).cwiseAbs().maxCoeff(), 1e-3 * (1 + W * W)) << Hn << "\n" << ec.hessian;
      // The tangent basis is in ker(DC1, DC2, DC3).
      const Mat<double, 4, 5> J = sk.invariants_jacobian(z0);
      for (int r = 1; r < 4; ++r) {
        EXPECT_NEAR(J.row(r).dot(ec.w1), 0, 1e-12);
        EXPECT_NEAR(J.row(r).dot(ec.w2), 0, 1e-12);
      }
      EXPECT_NEAR(ec.q1, p.Ibar1(), 1e-12);
      EXPECT_NEAR(ec.q2, k * W * W - mgl, 1e-9 * (1 + W * W));
      EXPECT_NEAR(ec.q12, 0, 1e-12);
      // Verdict (42) against simulation of a perturbed spin for 4 s.
      Vec<double, 5> q = spinning_equilibrium(W);
      q[3] = 0.02;
      q[4] = std::sqrt(1 - 0.0004);
      double min_g3 = 1;
      for (int s = 0; s < 4000; ++s) {
        rk4_step(sk, q, 1e-3);
        min_g3 = std::min(min_g3, q[4]);
      }
      if (a.verdict == SpinningStability::stable) {
        EXPECT_GT(min_g3, 0.95) << "W=" << W;  // measured >= 0.975 (nutation)
      }
      if (a.lambda2 > 0) {
        EXPECT_LT(min_g3, 0.9) << "W=" << W;  // exponential growth: falls
      }
    }
  }
}

TEST(PendulumSkate, SpinningStabilityVerdicts) {
  PendulumSkateParams<double> p{};  // I3+ml² > I2: bound √(mgl/(I3+ml²−I2)) ≈ 4.097
  EXPECT_NEAR(spinning_stability(p, 1.0).omega_min, std::sqrt(15.68 / 0.934), 1e-12);
  EXPECT_EQ(spinning_stability(p, 5.0).verdict, SpinningStability::stable);
  EXPECT_EQ(spinning_stability(p, 3.0).verdict, SpinningStability::unstable);
  p.I2 = 2.0;  // I3 + ml² < I2: Prop. 11 (i)
  EXPECT_EQ(spinning_stability(p, 50.0).verdict, SpinningStability::unstable);
}

TEST(PendulumSkate, ReconstructionConsistentWithGamma) {
  // Ṙ = RΩ^, ẋ = RY: Rᵀe3 must follow Γ of (35b), x3 stays 0, and on the sliding equilibrium the
  // blade moves on a straight line at speed Y0.
  for (const auto& p : param_sets()) {
    PendulumSkate<double> sk{p};
    Vec<double, 5> q = zeta_at(0.2, 1.0, 0.9, 0.15);
    SkatePose<double> P = skate_pose_from_gamma(Vec3<double>(0, q[3], q[4]), 0.3);
    EXPECT_LT((P.R.transpose() * Vec3<double>::UnitZ() - Vec3<double>(0, q[3], q[4])).norm(), 1e-14);
    double worst = 0, worst_x3 = 0;
    for (int k = 0; k < 500; ++k) {
      Vec3<double> W0, Y0, W1, Y1;
      skate_body_rates(q, W0, Y0);
      rk4_step(sk, q, 1e-3);
      skate_body_rates(q, W1, Y1);
      advance_pose(P, W0, Y0, W1, Y1, 1e-3);
      worst = std::max(worst, (P.R.transpose() * Vec3<double>::UnitZ() - Vec3<double>(0, q[3], q[4])).norm());
      worst_x3 = std::max(worst_x3, std::abs(P.x[2]));
    }
    EXPECT_LT(worst, 2e-5);  // second-order reconstruction, measured <= 2.8e-6
    EXPECT_LT(worst_x3, 1e-6);
  }
  PendulumSkate<double> sk{};
  Vec<double, 5> q = sliding_equilibrium(1.5);
  EXPECT_LT(sk.field(q).norm(), 1e-15);
  EXPECT_LT(sk.field(spinning_equilibrium(3.0)).norm(), 1e-15);
  SkatePose<double> P = skate_pose_from_gamma(Vec3<double>(0, 0, 1), 0.5);
  for (int k = 0; k < 1000; ++k) {
    Vec3<double> W, Y;
    skate_body_rates(q, W, Y);
    advance_pose(P, W, Y, W, Y, 1e-3);
  }
  EXPECT_LT((P.x - 1.5 * Vec3<double>(std::cos(0.5), std::sin(0.5), 0)).norm(), 1e-12);
}

// (59) lies on the constraint (33) for any Ω1, Ω3, φ0: |Γ| = 1, Γ1 = 0, v4 = v5 = v6 = 0, and
// the round trip through ζ rebuilds it exactly (nothing was projected away). Before the fix
// Ω2 = Ω1 tan φ0 left v4 = (Ω3 − Ω1) sin φ0 ≠ 0 and skate_full(skate_zeta(z)) changed Ω3.
TEST(PendulumSkate, InitialCondition59IsOnTheConstraint) {
  const PendulumSkateFull<double> full{};
  for (double phi0 : {0.0, 0.1, -0.3, 0.7})
    for (double W1 : {0.1, 0.0, -0.4, 2.0})
      for (double W3 : {0.1, 0.3, -1.5}) {
        const Vec<double, 9> z = skate_tilted_sliding_state(phi0, W1, W3, 1.0);
        const Vec<double, 8> F = full.invariants(z);
        EXPECT_NEAR(F[3], 1.0, 1e-15) << "|Γ|² at φ0=" << phi0;
        EXPECT_EQ(F[4], 0.0) << "Γ1";
        EXPECT_NEAR(F[5], 0.0, 1e-15) << "v4 = (E1×Γ)·Ω at Ω1=" << W1 << " Ω3=" << W3 << " φ0=" << phi0;
        EXPECT_EQ(F[6], 0.0) << "v5 = Γ·Y";
        EXPECT_EQ(F[7], 0.0) << "v6 = (E1×Γ)·Y";
        EXPECT_LT((skate_full(skate_zeta(z)) - z).norm(), 1e-14);
        EXPECT_EQ(z[0], W1);
        EXPECT_NEAR(z[2], W3, 1e-15);  // Ω3 kept as given (today's CLI ran --Omega3 0.3 as 0.296)
      }
}

// The other initial states the library builds are on their constraints too: the equilibria
// (40)/(41) and skate_full(ζ) for any ζ with Γ2² + Γ3² = 1.
TEST(PendulumSkate, BuiltStatesAreOnTheirConstraints) {
  EXPECT_EQ(PendulumSkate<double>{}.invariants(sliding_equilibrium(0.8))[3], 1.0);
  EXPECT_EQ(PendulumSkate<double>{}.invariants(spinning_equilibrium(3.0))[3], 1.0);
  const Vec<double, 8> F = PendulumSkateFull<double>{}.invariants(skate_full(zeta_at(0.3, -0.2, 1.1, 0.4)));
  EXPECT_NEAR(F[3], 1.0, 1e-15);
  EXPECT_LT(F.tail<4>().cwiseAbs().maxCoeff(), 1e-15);  // Γ1, v4, v5, v6
}

TEST(PendulumSkate, ParameterValidation) {
  EXPECT_EQ(PendulumSkateParams<double>{}.validate(), Error::none);
  EXPECT_EQ((PendulumSkateParams<double>{-1, 0.8, 0.35, 0.35, 0.004, 9.8}.validate()), Error::invalid_parameter);
  EXPECT_EQ((PendulumSkateParams<double>{2, 0.8, 0.35, NAN, 0.004, 9.8}.validate()), Error::non_finite);
  EXPECT_EQ((PendulumSkateParams<double>{2, 0.8, 0.35, 0.35, 0.0, 9.8}.validate()), Error::invalid_parameter);
}

}  // namespace
