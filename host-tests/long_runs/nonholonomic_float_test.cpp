// SPDX-License-Identifier: Apache-2.0
// The Suslov problem and the Chaplygin sleigh in float32 for 10⁶ RK4 steps (h = 1e-3, t up to
// 1000): feedback RK4 keeps every invariant within a few hundred float epsilons for the whole run;
// plain RK4 on the same extended field is run beside it, its deviations printed and required to be
// well above the feedback's. Measured (x86, max |dJ|, |dh̃|, |RᵀR − I|): Suslov feedback 6.0e-8,
// 3.1e-7, 2.4e-7, plain 0 (Π2 = Π3 by symmetry), 9.7e-6, 4.0e-5; sleigh feedback 1.1e-7, 9.7e-7,
// 4.5e-7, plain 2.3e-7, 4.9e-5, 6.6e-5. Bound 1e-5 (~170 float eps) for each. (Cases and
// measurement: support/nonholonomic_float_runs.hpp, shared with the on-target image
// host-tests/target/nonholonomic_float.cpp, which runs 10⁵ steps on the M4F). Built without
// sanitizers (host-tests/CMakeLists.txt): numbers, not memory; the same paths run sanitized in
// host-tests/unit/nonholonomic.
#include <gtest/gtest.h>

#include <cstdio>

#include "nonholonomic_float_runs.hpp"

using namespace attractor;
using namespace attractor::test;

namespace {

constexpr long kFloatSteps = 1000000;
constexpr long kFloatSample = 100;

template <class Case>
void print_float_runs(const FloatRunDeviation& fb, const FloatRunDeviation& plain) {
  std::printf("%s float, %ld RK4 steps, max |dJ| |dh| |RtR-I|: feedback %.3g %.3g %.3g, plain %.3g %.3g %.3g\n",
              Case::name, kFloatSteps, fb.constraint, fb.energy, fb.rotation, plain.constraint, plain.energy,
              plain.rotation);
}

TEST(NonholonomicFloat, SuslovMillionStepsStayOnTheInvariantSet) {
  const FloatRunDeviation fb = float_rk4_run<SuslovFloatCase>(true, kFloatSteps, kFloatSample);
  const FloatRunDeviation plain = float_rk4_run<SuslovFloatCase>(false, kFloatSteps, kFloatSample);
  print_float_runs<SuslovFloatCase>(fb, plain);
  EXPECT_LT(fb.constraint, 1e-5);
  EXPECT_LT(fb.energy, 1e-5);
  EXPECT_LT(fb.rotation, 1e-5);
  EXPECT_GT(plain.worst(), 10 * fb.worst());  // measured 128x: the feedback, not the scheme, holds them
}

TEST(NonholonomicFloat, SleighMillionStepsStayOnTheInvariantSet) {
  const FloatRunDeviation fb = float_rk4_run<SleighFloatCase>(true, kFloatSteps, kFloatSample);
  const FloatRunDeviation plain = float_rk4_run<SleighFloatCase>(false, kFloatSteps, kFloatSample);
  print_float_runs<SleighFloatCase>(fb, plain);
  EXPECT_LT(fb.constraint, 1e-5);
  EXPECT_LT(fb.energy, 1e-5);
  EXPECT_LT(fb.rotation, 1e-5);
  EXPECT_GT(plain.worst(), 10 * fb.worst());  // measured 68x: the feedback, not the scheme, holds them
}

}  // namespace
