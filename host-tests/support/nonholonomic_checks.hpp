// SPDX-License-Identifier: Apache-2.0
// Checks shared by the nonholonomic systems' tests (their suite and its conformance suite): first integrals of
// the extended field, the analytic Jacobian against central differences, random on-constraint
// states, and a feedback run that records the worst invariant deviations.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/nonholonomic/small_inverse.hpp"

namespace attractor::test {

// Worst |∇F_i · X| / (|∇F_i| |X|) over the rows in [first, last) at x.
template <class Sys>
double first_integral_residual(const Sys& sys, const typename Sys::State& x, int first = 0, int last = Sys::M) {
  const auto X = sys.field(x);
  const auto J = sys.invariants_jacobian(x);
  double worst = 0;
  for (int i = first; i < last; ++i) {
    const double scale = double(J.row(i).norm()) * double(X.norm()) + 1e-30;
    worst = std::max(worst, std::abs(double(J.row(i).dot(X))) / scale);
  }
  return worst;
}

// Worst relative difference between the analytic DF and central differences (double).
template <class Sys>
double jacobian_error(const Sys& sys, const typename Sys::State& x) {
  constexpr int N = Sys::N, M = Sys::M;
  const Mat<double, M, N> J = sys.invariants_jacobian(x);
  Mat<double, M, N> Jd;
  for (int k = 0; k < N; ++k) {
    const double h = 1e-6 * std::max(1.0, std::abs(x[k]));
    typename Sys::State xp = x, xm = x;
    xp[k] += h;
    xm[k] -= h;
    Jd.col(k) = (sys.invariants(xp) - sys.invariants(xm)) / (2 * h);
  }
  return (J - Jd).norm() / (J.norm() + 1e-30);
}

// A random rotation by the Cayley map R = (I − A)⁻¹(I + A), A skew.
template <class S>
Mat3<S> random_rotation(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  Mat3<double> A;
  const double a = u(rng), b = u(rng), c = u(rng);
  A << 0, -c, b, c, 0, -a, -b, a, 0;
  const Mat3<double> I = Mat3<double>::Identity();
  return (small_inverse<double, 3>(Mat3<double>(I - A)) * (I + A)).cast<S>();
}

template <class S, int N>
Vec<S, N> random_vector(std::mt19937& rng, double r = 1.5) {
  std::uniform_real_distribution<double> u(-r, r);
  Vec<double, N> v;
  for (int i = 0; i < N; ++i) v[i] = u(rng);
  return v.template cast<S>();
}

// A random state of a CotangentExtension moved onto its constraint set: p ← p − m E C c.
template <class Sys>
typename Sys::State cotangent_on_constraint(const Sys& sys, std::mt19937& rng, double r = 1.5) {
  using S = typename Sys::Scalar;
  typename Sys::State x = random_vector<S, Sys::N>(rng, r);
  const auto t = sys.terms(x);
  x.template tail<Sys::Q>() -= t.m * (t.e * (t.C * t.c));
  return x;
}

// Worst |F_i − F0_i| of a run, per row, and whether it stayed finite.
template <int M>
struct RunRecord {
  Vec<double, M> max_dev = Vec<double, M>::Zero();
  bool finite = true;
};

// Integrates fb from x for `steps` steps of size h with `step(fb, x, h)`, recording the worst
// deviation of each invariant from fb.reference() (its target); `each(k, x)` sees every state.
template <class Fb, class Step, class Each>
RunRecord<Fb::M> run_feedback(const Fb& fb, typename Fb::State& x, typename Fb::Scalar h, long steps, Step step,
                              Each each) {
  RunRecord<Fb::M> rec;
  for (long k = 1; k <= steps; ++k) {
    step(fb, x, h);
    if (!all_finite(x)) {
      rec.finite = false;
      return rec;
    }
    const Vec<double, Fb::M> d = (fb.system().invariants(x) - fb.reference()).template cast<double>().cwiseAbs();
    rec.max_dev = rec.max_dev.cwiseMax(d);
    each(k, x);
  }
  return rec;
}

// q̈ of the Lagrange–d'Alembert equations M q̈ = Aᵀλ, A(q) q̇ = 0, for a mass matrix M constant
// in the coordinates q: λ = −(A M⁻¹ Aᵀ)⁻¹ Ȧ q̇, with Ȧ q̇ by central differences of A along q̇.
template <int Qn, class AFn>
Vec<double, Qn> lagrange_dalembert_acceleration(const Mat<double, Qn, Qn>& M, AFn A, const Vec<double, Qn>& q,
                                                const Vec<double, Qn>& qd) {
  const double h = 1e-5;
  const auto A0 = A(q);
  // eval(): an unevaluated expression would refer to the two temporaries A(q ± h q̇) after this line.
  const auto Adot = ((A(Vec<double, Qn>(q + h * qd)) - A(Vec<double, Qn>(q - h * qd))) / (2 * h)).eval();
  const Mat<double, Qn, Qn> Minv = M.inverse();
  const auto G = (A0 * Minv * A0.transpose()).eval();
  const auto lambda = (-(G.inverse() * (Adot * qd))).eval();
  return Minv * (A0.transpose() * lambda);
}

// A planar system's state (R ∈ R^{2×2} column-major, x, y, s, μθ, μx, μy, μs) in coordinates
// q = (θ, x, y, s) with spatial momentum p = (μθ, R (μx, μy), μs), and their rates under the
// system's field.
struct PlanarMotion {
  Vec<double, 4> q, qd, p, pd;
};
template <class Sys>
PlanarMotion planar_motion(const Sys& sys, const Vec<double, 11>& x) {
  const Vec<double, 11> dx = sys.field(x);
  Mat<double, 2, 2> R, Rd;
  R << x[0], x[2], x[1], x[3];
  Rd << dx[0], dx[2], dx[1], dx[3];
  PlanarMotion m;
  m.q << std::atan2(x[1], x[0]), x[4], x[5], x[6];
  m.qd << dx[1] * x[0] - dx[0] * x[1], dx[4], dx[5], dx[6];  // θ̇ = (sin θ)˙ cos θ − (cos θ)˙ sin θ
  const Vec<double, 2> v = x.segment<2>(8), vd = dx.segment<2>(8);
  m.p << x[7], R * v, x[10];
  m.pd << dx[7], Rd * v + R * vd, dx[10];
  return m;
}

struct EulerStep {
  template <class F, class X, class S>
  void operator()(const F& f, X& x, S h) const {
    euler_step(f, x, h);
  }
};
struct Rk4Step {
  template <class F, class X, class S>
  void operator()(const F& f, X& x, S h) const {
    rk4_step(f, x, h);
  }
};
struct NoEach {
  template <class X>
  void operator()(long, const X&) const {}
};

}  // namespace attractor::test
