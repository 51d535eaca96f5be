// SPDX-License-Identifier: Apache-2.0
// On-target: the Suslov problem (paper 000 §3.1, its experiment: R0 = I, Π0 = (0, 1, 1), gains
// 100) and the Chaplygin sleigh with the SE(2) embedding (§3.3, the documented case m = I = 1,
// a = 0.5, Π0 = (1, 1, 0.4), gains 50) in float, RK4 at h = 1e-3 for 10⁵ steps (t ∈ [0, 100]),
// with the feedback field and with the plain extended field. Cases and measurement are the host
// test's (host-tests/support/nonholonomic_float_runs.hpp; 10⁶ steps there): the invariants
// evaluated in double from the float state every 100 steps (soft double on the M4F, outside the
// integration), so the limits measure the state's error, not the rounding of the check.
//
// Limits (float32 epsilon 6e-8; |Π| ~ 1, |R| ~ 1): feedback RK4 holds each invariant at the
// rounding level, a few eps per step pulled back at rate ~ k |∇F|² per unit time: measured on
// mps2-an386 (10⁵ steps) Suslov |dJ| 6.0e-8, |dh̃| 3.1e-7, |RᵀR − I| 2.4e-7; sleigh 1.1e-7,
// 9.7e-7, 4.6e-7 (the maxima come in the first seconds, while Π turns). Limit 1e-5 (~170 eps)
// for each. Plain RK4 drifts (mps2-an386: Suslov h̃ 9.6e-6, RᵀR − I 3.9e-5, J stays 0 by the
// symmetry Π2 = Π3; sleigh 2.0e-7, 4.9e-5, 6.6e-5): its largest deviation must exceed the
// feedback's largest by kDriftFactor (measured 68x and 126x).
// Without an FPU (soft-float M3) the images run 10⁴ steps instead, to keep QEMU time short; the
// arithmetic is the same IEEE float, so the feedback limits still hold.
#include "../support/nonholonomic_float_runs.hpp"
#include "attractor/core/text.hpp"
#include "check.hpp"

using namespace attractor;
using attractor::test::FloatRunDeviation;

namespace {

#if defined(__ARM_FP) && (__ARM_FP & 4)
constexpr long kSteps = 100000;  // single-precision FPU: t ∈ [0, 100]
constexpr double kDriftFactor = 5.0;
#else
constexpr long kSteps = 10000;  // soft float
constexpr double kDriftFactor = 2.0;
#endif
constexpr long kSample = 100;
constexpr double kFeedbackLimit = 1e-5;

void print_run(const char* name, const char* method, const FloatRunDeviation& d) {
  Text<160> t;
  t << "  info " << name << " " << method << " max |dJ| ";
  t.scientific(d.constraint, 3);
  t << " |dh| ";
  t.scientific(d.energy, 3);
  t << " |RtR-I| ";
  t.scientific(d.rotation, 3);
  t << "\n";
  board::write(t.c_str());
}

template <class Case>
void check_case(target_test::Checker& c) {
  const FloatRunDeviation fb = test::float_rk4_run<Case>(true, kSteps, kSample);
  const FloatRunDeviation plain = test::float_rk4_run<Case>(false, kSteps, kSample);
  print_run(Case::name, "feedback-rk4", fb);
  print_run(Case::name, "plain-rk4", plain);
  Text<80> t;
  t << Case::name << " feedback-RK4 max |dJ|";
  c.le(t.c_str(), fb.constraint, kFeedbackLimit);
  t.clear();
  t << Case::name << " feedback-RK4 max |dh|";
  c.le(t.c_str(), fb.energy, kFeedbackLimit);
  t.clear();
  t << Case::name << " feedback-RK4 max |RtR-I|";
  c.le(t.c_str(), fb.rotation, kFeedbackLimit);
  t.clear();
  t << Case::name << " plain RK4 worst (drift, vs feedback-RK4 x factor)";
  c.ge(t.c_str(), plain.worst(), kDriftFactor * fb.worst());
}

}  // namespace

int main() {
  board::initialize();
  target_test::Checker c("nonholonomic systems in float, RK4 h = 1e-3 (paper 000 §3.1, §3.3)");
  check_case<test::SuslovFloatCase>(c);
  check_case<test::SleighFloatCase>(c);
  return c.finish();
}
