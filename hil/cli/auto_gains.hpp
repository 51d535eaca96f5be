// SPDX-License-Identifier: Apache-2.0
// --gains auto: the largest equal pull-back rate whose h * stiffness stays within a safety
// fraction of the scheme's real-axis stability interval over the reachable region (the bound
// Feedback::check_step uses, attractor/integrate/feedback.hpp). With K_i = rate / max_k |∇F_i(x_k)|²
// over the region's sample states (balanced_gains), stiffness <= M * rate on the region, so
// rate = safety * limit / (h * M) keeps h * stiffness <= safety * limit. Host-only.
#pragma once

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"

namespace attractor::cli {

constexpr double kAutoGainSafety = 0.1;  // fraction of the stability interval (docs/auto-gains.md)
// The documented promise, checked by hil/tests/auto_gains_test.cpp: in double with RK4, the max
// invariant deviation with auto gains is at most that of plain RK4 plus
// kAutoGainDriftMargin * (1 + |F_i(x0)|) over the paper experiments' horizons.
constexpr double kAutoGainDriftMargin = 1e-8;

template <class System, int Count>
Vec<typename System::Scalar, System::M> auto_gains(const System& sys,
                                                   const Vec<typename System::Scalar, System::N> (&region)[Count],
                                                   Scheme scheme, typename System::Scalar h) {
  using S = typename System::Scalar;
  const S rate = S(kAutoGainSafety) * real_stability_limit<S>(scheme) / (h * S(System::M));
  return balanced_gains(sys, region, rate);
}

}  // namespace attractor::cli
