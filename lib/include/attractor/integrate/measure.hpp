// SPDX-License-Identifier: Apache-2.0
// Measure checks of a system's own field X (not the feedback field, which contracts toward the
// invariant set by design), in double: its divergence and its integral along a run.
//
// Liouville: the flow of ẋ = X(x) keeps the volume dⁿx iff div X = 0, and keeps the measure
// ρ(x) dⁿx iff d/dt log ρ(x(t)) + div X(x(t)) = 0 (paper 004, "Invariant Measures of the
// Euler–Poincaré–Suslov Equations"). Along a computed run x_0, x_1, … (step h) this records
//
//   divergence_integral  = ∫ div X dt                       (trapezoid rule on the recorded states)
//   log_measure_change   = log ρ(x(t)) − log ρ(x0) + ∫ div X dt     (NaN without a density)
//
// The first is the log of the volume ratio a small ball around the trajectory goes through;
// both are 0 up to the integration and quadrature error when the measure is invariant.
//
// Optional system hooks, detected at compile time:
//   double divergence(const Vec<double, N>& x) const;   // div X, analytic
//   double log_density(const Vec<double, N>& x) const;  // log ρ of an invariant measure
// Without divergence() the trace of DX is taken by central differences.
//
// Systems whose invariants are first integrals of X (the extensions of paper 000) are foliated
// by the level sets of F: there the ambient divergence is the divergence on each level set with
// respect to the measure dⁿx / dF it inherits, so it measures the flow on the constraint set.
// Host-side analysis: double only, allocation-free.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "attractor/core/types.hpp"

namespace attractor {

namespace detail {
template <class, class = void>
struct has_divergence : std::false_type {};
template <class T>
struct has_divergence<
    T, std::void_t<decltype(double(std::declval<const T&>().divergence(std::declval<const Vec<double, T::N>&>())))>>
    : std::true_type {};
template <class, class = void>
struct has_log_density : std::false_type {};
template <class T>
struct has_log_density<
    T, std::void_t<decltype(double(std::declval<const T&>().log_density(std::declval<const Vec<double, T::N>&>())))>>
    : std::true_type {};
}  // namespace detail

// True when Sys supplies divergence(x), resp. log_density(x) (see above).
template <class Sys>
constexpr bool has_divergence_v = detail::has_divergence<Sys>::value;
template <class Sys>
constexpr bool has_log_density_v = detail::has_log_density<Sys>::value;

// div X at x by central differences: step ε^(1/3) scaled by |x_k| (truncation and rounding
// errors balanced, ~1e-10 relative). Sys is a double system.
template <class Sys>
double numeric_divergence(const Sys& sys, const Vec<double, Sys::N>& x) {
  static_assert(std::is_same<typename Sys::Scalar, double>::value, "measure checks run in double");
  double div = 0;
  for (int k = 0; k < Sys::N; ++k) {
    const double d = 6e-6 * std::max(1.0, std::abs(x[k]));
    Vec<double, Sys::N> xp = x, xm = x;
    xp[k] += d;
    xm[k] -= d;
    div += (sys.field(xp)[k] - sys.field(xm)[k]) / (xp[k] - xm[k]);
  }
  return div;
}

// div X at x: the system's analytic divergence() where it has one, else central differences.
template <class Sys>
double field_divergence(const Sys& sys, const Vec<double, Sys::N>& x) {
  if constexpr (has_divergence_v<Sys>) {
    return sys.divergence(x);
  } else {
    return numeric_divergence(sys, x);
  }
}

// log ρ(x), or NaN when Sys knows no invariant density.
template <class Sys>
double log_density_or_nan(const Sys& sys, const Vec<double, Sys::N>& x) {
  if constexpr (has_log_density_v<Sys>) {
    return sys.log_density(x);
  } else {
    (void)sys, (void)x;
    return std::numeric_limits<double>::quiet_NaN();
  }
}

// ∫ div X dt and the log-measure change along a run, fed one state per step.
template <class Sys>
class MeasureTracker {
 public:
  using State = Vec<double, Sys::N>;

  MeasureTracker(const Sys& sys, const State& x0)
      : sys_(&sys), div_last_(field_divergence(sys, x0)), log_rho0_(log_density_or_nan(sys, x0)), log_rho_(log_rho0_) {}

  // The next state of the run, a time dt after the previous one (trapezoid rule).
  void record(const State& x, double dt) {
    const double d = field_divergence(*sys_, x);
    integral_ += 0.5 * dt * (div_last_ + d);
    div_last_ = d;
    max_abs_div_ = std::max(max_abs_div_, std::abs(d));
    if constexpr (has_log_density_v<Sys>) log_rho_ = sys_->log_density(x);
  }

  double divergence_integral() const { return integral_; }
  // log ρ(x(t)) − log ρ(x0) + ∫ div X dt; NaN without a density.
  double log_measure_change() const { return log_rho_ - log_rho0_ + integral_; }
  // The largest |div X| met after x0.
  double max_abs_divergence() const { return max_abs_div_; }

 private:
  const Sys* sys_;
  double div_last_;
  double log_rho0_, log_rho_;
  double integral_ = 0, max_abs_div_ = 0;
};

}  // namespace attractor
