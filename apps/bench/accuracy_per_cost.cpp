// SPDX-License-Identifier: Apache-2.0
// The bench image's second translation unit (apps/bench/bench.cpp calls it last): the library's
// hot paths beside the hand-written straight-line references of hand_written.hpp, and one step
// of every accuracy-per-cost method at every step size of its grid (docs/BENCHMARKS.md). A
// separate unit so that the instantiations here do not change GCC's inlining decisions in
// bench.cpp, and the hand-written steps are compiled in a small unit, as a hand-written routine
// would be.
#include <cmath>
#include <cstdint>

#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/rattle.hpp"
#include "attractor/integrate/splitting.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "hand_written.hpp"
#include "measure.hpp"

namespace attractor::bench {
namespace {

// ---- Hand-written references (hand_written.hpp): library step and hand-written step, same
// system, state, gains and h as the systems<S>() rows ----
// "... library N hand_written M instructions/step at 0xL 0xH": both measured the same way
// (measure.hpp), the addresses for scripts/bench_floor.py.
void print_reference(const char* prec, const char* what, const char* method, StepCost library, StepCost hand) {
  Text<200> t;
  t << "bench " << Board::name() << " " << prec << " reference " << what << " " << method << " library ";
  t.fixed(library.instructions, 1);
  t << " hand_written ";
  t.fixed(hand.instructions, 1);
  t << " instructions/step at ";
  t.hex(static_cast<std::uint32_t>(library.address));
  t << " ";
  t.hex(static_cast<std::uint32_t>(hand.address));
  t << "\n";
  board::write(t.c_str());
}

template <class S>
void references(const char* prec) {
  const S h = S(0.001);
  const auto sys = SphericalPendulum<S>::make(S(1), S(1), S(1)).value();
  const Vec<S, 4> gains(S(20), S(20), S(20), S(20));
  const auto fb = feedback(sys, spherical_x0<S>(), gains);
  {
    Vec<S, 6> x = spherical_x0<S>();
    const StepCost lib = step_cost([&] { rk4_step(fb, x, h); });
    const SphericalFeedbackRk4<S> by_hand(S(1), S(1), fb.reference().data(), gains.data());
    x = spherical_x0<S>();
    const StepCost hand = step_cost([&] { by_hand.step(x.data(), h); });
    print_reference(prec, "spherical_pendulum", "feedback-rk4", lib, hand);
  }
  {
    auto field = [&sys](const Vec<S, 6>& x) { return sys.field(x); };
    Vec<S, 6> x = spherical_x0<S>();
    const StepCost lib = step_cost([&] { rk4_step(field, x, h); });
    const SphericalRk4<S> by_hand(S(1), S(1));
    x = spherical_x0<S>();
    const StepCost hand = step_cost([&] { by_hand.step(x.data(), h); });
    print_reference(prec, "spherical_pendulum", "rk4", lib, hand);
  }
  {
    // The skate-rotor estimator's step as the skate_gamma row measures it (κ = 0, the fusion
    // term still computed), Feedback<AdvectedGamma> + RK4.
    AdvectedGamma<S> gamma;
    gamma.omega = Vec3<S>(S(0.1), S(0.01), S(0.1));
    const Vec3<S> G0(S(0), S(0.0998), S(0.995));
    const Vec<S, 2> kg(S(50), S(50));
    const auto fg = feedback(gamma, G0, kg);
    Vec3<S> G = G0;
    const StepCost lib = step_cost([&] { rk4_step(fg, G, h); });
    GammaFeedbackRk4<S> by_hand{};
    for (int i = 0; i < 3; ++i) by_hand.omega[i] = gamma.omega[i], by_hand.measured[i] = gamma.measured[i];
    by_hand.kappa = gamma.kappa;
    for (int i = 0; i < 2; ++i) by_hand.F0[i] = fg.reference()[i], by_hand.K[i] = kg[i];
    G = G0;
    const StepCost hand = step_cost([&] { by_hand.step(G.data(), h); });
    print_reference(prec, "skate_gamma", "feedback-rk4", lib, hand);
  }
}

// ---- Accuracy per cost (docs/BENCHMARKS.md): one step of every method of the chart, at every
// step size of its grid (the splittings' cost depends on h: sinc switches to its series for
// small angles). scripts/accuracy_runs.py reads the grid from these lines and measures the
// invariant error of the same methods and steps with attractor-sim on the host. ----
constexpr double kStepGrid[] = {1e-1, 5e-2, 2e-2, 1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4};
constexpr int kMethodReps = 20;  // resolution 2 instructions; each step costs the same every time

void print_method(const char* prec, const char* system, const char* method, double h, double instr) {
  Text<200> t;
  t << "bench " << Board::name() << " " << prec << " method " << system << " " << method << " h ";
  t.scientific(h, 0);
  t << " instructions/step ";
  t.fixed(instr, 1);
  t << "\n";
  board::write(t.c_str());
}

// feedback-euler, feedback-rk4 (gains of the --gains auto rule at x0: rate = 0.1 × stability
// limit / (h M), balanced_gains; docs/auto-gains.md), rk4 on X, rattle, lie-trotter, strang.
template <class Sys>
void bench_methods(const char* prec, const char* name, const Sys& sys, const typename Sys::State& x0) {
  using S = typename Sys::Scalar;
  using State = typename Sys::State;
  for (double hd : kStepGrid) {
    const S h = S(hd);
    auto auto_fb = [&](Scheme s) {
      const S rate = S(0.1) * real_stability_limit<S>(s) / (h * S(Sys::M));
      return feedback(sys, x0, balanced_gains(sys, x0, rate));
    };
    State x = x0;
    const auto fe = auto_fb(Scheme::euler);
    print_method(prec, name, "feedback-euler", hd, step_cost<kMethodReps>([&] { euler_step(fe, x, h); }).instructions);
    x = x0;
    const auto fr = auto_fb(Scheme::rk4);
    print_method(prec, name, "feedback-rk4", hd, step_cost<kMethodReps>([&] { rk4_step(fr, x, h); }).instructions);
    x = x0;
    auto field = [&sys](const State& y) { return sys.field(y); };
    print_method(prec, name, "rk4", hd, step_cost<kMethodReps>([&] { rk4_step(field, x, h); }).instructions);
    Rattle<Sys> r(sys, x0);
    print_method(prec, name, "rattle", hd, step_cost<kMethodReps>([&] { (void)r.step(h); }).instructions);
    x = x0;
    print_method(prec, name, "lie-trotter", hd,
                 step_cost<kMethodReps>([&] { lie_trotter_step(sys, x, h); }).instructions);
    x = x0;
    print_method(prec, name, "strang", hd, step_cost<kMethodReps>([&] { strang_step(sys, x, h); }).instructions);
  }
}

template <class S>
void methods(const char* prec) {
  // Off the symmetric points, so that no product is trivially zero: 0.5 rad from the bottom,
  // p tangent.
  Vec<S, 4> xp;
  xp << S(0.479425538604203), S(-0.877582561890373), S(0.3 * 0.877582561890373), S(0.3 * 0.479425538604203);
  bench_methods(prec, "planar_pendulum", PlanarPendulum<S>::make(S(1), S(1), S(1)).value(), xp);
  bench_methods(prec, "spherical_pendulum", SphericalPendulum<S>::make(S(1), S(1), S(1)).value(), spherical_x0<S>());
}

}  // namespace

void references_and_methods() {
  references<float>("float");
#ifndef ATTRACTOR_BENCH_FLOAT_ONLY  // the suite's float-only image (row_registry.hpp)
  references<double>("double");
#endif
  methods<float>("float");
#ifndef ATTRACTOR_BENCH_FLOAT_ONLY
  methods<double>("double");
#endif
}

}  // namespace attractor::bench
