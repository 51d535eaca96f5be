// SPDX-License-Identifier: Apache-2.0
// Float32 RK4 on two documented cases (paper 000 §3.6 Heisenberg, §3.3 Chaplygin sleigh, h = 1e-3)
// is as accurate as RK4 with one rounding of the state per step. The reference is emulated here:
// the double-precision step taken from the float state, its result rounded to float once. If the
// state were rounded once per stage, the errors would be 3-4 times the reference's here (the
// Heisenberg plain run's largest |J1| 3.4e-4 against 8.2e-5, its feedback run's |H − H0| 1.1e-6
// against 3.7e-7; the sleigh's plain |h̃ − h̃0| 2.1e-4 against 4.9e-5). Invariants are evaluated
// in double from the state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/chaplygin_sleigh.hpp"
#include "attractor/systems/heisenberg.hpp"

using namespace attractor;

namespace {

struct RunMaxima {
  double library = 0, reference = 0;  // largest |F_row − F_row(x0)| of each run
};

// `steps` RK4 steps of h from x0: the float field ff (a system or a Feedback<>) against the
// double field fd applied to the float state and rounded once; `check` is the double system whose
// invariant row `row` is compared.
template <class FF, class FD, class Check, int N>
RunMaxima rk4_against_one_rounding(const FF& ff, const FD& fd, const Check& check, const Vec<float, N>& x0, int row,
                                   int steps) {
  const float h = 1e-3f;
  const double F0 = check.invariants(x0.template cast<double>())[row];
  Vec<float, N> lib = x0, ref = x0;
  RunMaxima m;
  for (int k = 0; k < steps; ++k) {
    rk4_step(ff, lib, h);
    Vec<double, N> wide = ref.template cast<double>();
    rk4_step(fd, wide, double(h));
    ref = wide.template cast<float>();  // the one rounding of the step
    m.library = std::max(m.library, std::fabs(check.invariants(lib.template cast<double>())[row] - F0));
    m.reference = std::max(m.reference, std::fabs(check.invariants(ref.template cast<double>())[row] - F0));
  }
  return m;
}

// Within 1.5 times the reference (measured 0.98-1.0 on x86-64); one rounding per stage gives 3-4.
void expect_one_rounding_accuracy(const RunMaxima& m, const char* what) {
  EXPECT_GT(m.reference, 0) << what;  // the reference measures rounding, not nothing
  EXPECT_LT(m.library, 1.5 * m.reference) << what << ": library " << m.library << ", reference " << m.reference;
}

Vec<float, 6> heisenberg_x0() {  // the documented case (docs/tools.md, heisenberg)
  Vec<float, 6> x0;
  x0 << 0.5f, -0.3f, 0.2f, 0.4f, 0.7f, 0.f;
  x0[5] = -(x0[0] * x0[4] - x0[1] * x0[3]);  // J1 = 0
  return x0;
}

TEST(FloatRk4Rounding, HeisenbergPlainFieldKeepsJ1AsOneRoundingDoes) {
  const Vec<float, 6> x0 = heisenberg_x0();
  const RunMaxima m =
      rk4_against_one_rounding(Heisenberg<float>{}, Heisenberg<double>{}, Heisenberg<double>{}, x0, 0, 5000);
  expect_one_rounding_accuracy(m, "heisenberg rk4 J1");
}

TEST(FloatRk4Rounding, HeisenbergFeedbackKeepsEveryInvariantAsOneRoundingDoes) {
  const Vec<float, 6> x0 = heisenberg_x0();
  const Vec<float, 3> K(10.f, 10.f, 50.f);
  const auto ff = feedback(Heisenberg<float>{}, x0, K);
  const auto fd = feedback(Heisenberg<double>{}, Vec<double, 6>(x0.cast<double>()), Vec<double, 3>(K.cast<double>()));
  const char* const names[] = {"J1", "J2", "H"};
  for (int row = 0; row < 3; ++row)
    expect_one_rounding_accuracy(rk4_against_one_rounding(ff, fd, Heisenberg<double>{}, x0, row, 5000), names[row]);
}

TEST(FloatRk4Rounding, ChaplyginSleighPlainFieldKeepsTheEnergyAsOneRoundingDoes) {
  // m = I = 1, a = 0.5, at rest pose, Π0 = (1, 1, 0.4) on the constraint, t ∈ [0, 20].
  const Vec<float, 9> x0 = ChaplyginSleigh<float, true>::state(0.f, 0.f, 0.f, Vec3<float>(1.f, 1.f, 0.4f));
  const auto sf = *ChaplyginSleigh<float, true>::make();
  const auto sd = *ChaplyginSleigh<double, true>::make();
  expect_one_rounding_accuracy(rk4_against_one_rounding(sf, sd, sd, x0, 1, 20000), "sleigh rk4 h~");
}

}  // namespace
