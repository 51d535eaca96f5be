// SPDX-License-Identifier: Apache-2.0
// Long float32 runs of the Suslov problem and the Chaplygin sleigh (paper 000 §3.1, §3.3), shared
// by the host test (host-tests/unit/nonholonomic, 10⁶ steps) and the on-target image
// (host-tests/target/nonholonomic_float.cpp, 10⁵ steps in QEMU): the same cases, the same
// integration and the same measurement on both. No GoogleTest, no allocation, no I/O.
//
// A run integrates the float system with RK4 at h = 1e-3, either its feedback field (Feedback<>)
// or its plain extended field, and records the largest deviation of each kind of invariant
// (constraint J, energy h̃, RᵀR − I) from its target (integrate/system.hpp: invariant_targets),
// the invariants evaluated in double from the float state every `sample` steps so that the
// numbers measure the state's error, not the rounding of the check. NaN propagates into the
// maxima (and fails any bound).
#pragma once

#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/chaplygin_sleigh.hpp"
#include "attractor/systems/suslov.hpp"

namespace attractor::test {

// Largest |F − F0| of a run per kind of invariant (row 0 constraint, row 1 energy, the rest
// the RᵀR − I group, as in both systems' layouts).
struct FloatRunDeviation {
  double constraint = 0, energy = 0, rotation = 0;
  double worst() const {
    const double a = constraint > energy ? constraint : energy;
    return a > rotation ? a : rotation;
  }
};

inline void raise_to(double& max, double v) {
  const double a = std::fabs(v);
  if (!(a <= max)) max = a;  // NaN propagates into the max
}

// The paper's Suslov experiment (§3.1): 𝕀 and e of SuslovParams, R0 = I, Π0 = (0, 1, 1), all
// gains k = 100 (K = (k1, k2, k0 × 6)).
struct SuslovFloatCase {
  template <class S>
  using System = Suslov<S>;
  static constexpr const char* name = "suslov";
  template <class S>
  static typename Suslov<S>::State x0() {
    return Suslov<S>::state(Mat3<S>::Identity(), Vec3<S>(S(0), S(1), S(1)));
  }
  static Vec<float, 8> gains() { return Vec<float, 8>::Constant(100.f); }
};

// The Chaplygin sleigh with the SE(2) embedding, the documented case of its host test (§3.3 has
// no experiment): m = I = 1, a = 0.5, θ = x = y = 0, Π0 = (1, 1, 0.4) on maΠθ = (I + ma²)Πy, all
// gains 50 (K = (k1, k2, k0 × 3)).
struct SleighFloatCase {
  template <class S>
  using System = ChaplyginSleigh<S, true>;
  static constexpr const char* name = "chaplygin_sleigh";
  template <class S>
  static typename ChaplyginSleigh<S, true>::State x0() {
    return ChaplyginSleigh<S, true>::state(S(0), S(0), S(0), Vec3<S>(S(1), S(1), S(0.4)));
  }
  static Vec<float, 5> gains() { return Vec<float, 5>::Constant(50.f); }
};

// `steps` RK4 steps of h = 1e-3 in float from Case's x0, with the feedback field (feedback =
// true) or the plain extended field; deviations sampled every `sample` steps.
template <class Case>
FloatRunDeviation float_rk4_run(bool with_feedback, long steps, long sample) {
  using FloatSys = typename Case::template System<float>;
  using DoubleSys = typename Case::template System<double>;
  constexpr int M = FloatSys::M;
  const FloatSys sys = FloatSys::make().value();
  const DoubleSys ref = DoubleSys::make().value();
  typename FloatSys::State x = Case::template x0<float>();
  const Vec<double, M> F0 = invariant_reference(ref, ref.invariants(x.template cast<double>()));
  const Feedback<FloatSys> fb = feedback(sys, x, Case::gains());
  FloatRunDeviation d;
  for (long k = 1; k <= steps; ++k) {
    if (with_feedback) {
      rk4_step(fb, x, 1e-3f);
    } else {
      rk4_step(sys, x, 1e-3f);
    }
    if (k % sample != 0) continue;
    const Vec<double, M> dF = ref.invariants(x.template cast<double>()) - F0;
    raise_to(d.constraint, dF[0]);
    raise_to(d.energy, dF[1]);
    for (int i = 2; i < M; ++i) raise_to(d.rotation, dF[i]);
  }
  return d;
}

}  // namespace attractor::test
