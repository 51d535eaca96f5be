// SPDX-License-Identifier: Apache-2.0
// Deterministic cost benchmark image: instruction counts per integrator step (float and
// double, each system, each scheme, with and without the feedback term) and per control tick
// of the runtime, printed through the board console. Run it in QEMU with
// -icount shift=0,align=off,sleep=off (the default of attractor_qemu_command): virtual time
// advances 1 ns per guest instruction, so the board's cost clock, converted to ns, counts
// instructions. Two runs print identical numbers (CTest bench.<board>.reproducible).
// These are INSTRUCTION counts, not cycles: see docs/runtime.md for how they relate to cycles.
//
// Adding a system: one bench_system(...) line in systems<S>(); an app: one line in ticks<S>().
// Also: the hand-written reference steps of hand_written.hpp beside the library's (references<S>),
// and every method of the accuracy-per-cost chart at every step size of its grid (methods<S>).
#include <cmath>
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/control/skate_rotor_controller.hpp"
#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/estimate/vertical_estimator.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/rattle.hpp"
#include "attractor/integrate/splitting.hpp"
#include "attractor/plant/simulated_skate_rotor.hpp"
#include "attractor/rt/loop.hpp"
#include "attractor/rt/tick.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "hand_written.hpp"

using namespace attractor;
using board::Board;

namespace {

#ifndef BENCH_REPS
#define BENCH_REPS 200  // repetitions per measurement: resolution = clock quantum / BENCH_REPS
#endif

// Keep the compiler from folding the measured work away.
template <class T>
inline void escape(T* p) {
  __asm__ volatile("" : : "r"(p) : "memory");
}

// Instructions (ns of virtual time) of one call of fn, averaged over Reps calls, with the cost
// of the empty measurement loop subtracted.
template <int Reps = BENCH_REPS, class F>
double instructions_per_call(F&& fn) {
  auto measure = [](auto&& body) {
    const std::uint32_t t0 = Board::cost_now();
    for (int i = 0; i < Reps; ++i) body();
    return ((Board::cost_now() - t0) & Board::cost_mask());
  };
  int dummy = 0;
  const std::uint32_t empty = measure([&] { escape(&dummy); });
  const std::uint32_t full = measure(fn);
  const double counts = double(full) - double(empty);
  return rt::counts_to_ns(counts, Board::cost_hz()) / Reps;
}

void print_line(const char* prec, const char* what, const char* scheme, const char* kind, double instr) {
  Text<160> t;
  t << "bench " << Board::name() << " " << prec << " " << what << " " << scheme << " " << kind << " instructions/step ";
  t.fixed(instr, 1);
  t << "\n";
  board::write(t.c_str());
}

template <class Sys>
void bench_system(const char* prec, const char* name, const Sys& sys, const Vec<typename Sys::Scalar, Sys::N>& x0,
                  const Vec<typename Sys::Scalar, Sys::M>& gains, typename Sys::Scalar h) {
  using S = typename Sys::Scalar;
  using State = Vec<S, Sys::N>;
  const auto fb = feedback(sys, x0, gains);
  auto field = [&sys](const State& x) { return sys.field(x); };
  const Scheme schemes[] = {Scheme::euler, Scheme::heun, Scheme::rk4};
  for (Scheme s : schemes) {
    State x = x0;
    const double plain = instructions_per_call([&] {
      step<S>(s, field, x, h);
      escape(x.data());
    });
    x = x0;
    const double with_fb = instructions_per_call([&] {
      step<S>(s, fb, x, h);
      escape(x.data());
    });
    print_line(prec, name, to_string(s), "field", plain);
    print_line(prec, name, to_string(s), "feedback", with_fb);
  }
}

// A minimal system of the DESIGN.md shape: harmonic oscillator, invariant H = (q^2 + p^2)/2.
template <class S>
struct Oscillator {
  using Scalar = S;
  static constexpr int N = 2, M = 1;
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  State field(const State& x) const { return State(x[1], -x[0]); }
  Invariants invariants(const State& x) const { return Invariants(S(0.5) * (x[0] * x[0] + x[1] * x[1])); }
  Mat<S, M, N> invariants_jacobian(const State& x) const { return Mat<S, M, N>(x[0], x[1]); }
};

template <class S>
Vec<S, 6> spherical_x0() {  // q on the unit sphere, p tangent to it (q . p = 0)
  Vec<S, 6> x;
  x << S(0.479425538604203), S(0), S(-0.877582561890373), S(0), S(0.3), S(0);
  return x;
}

// ---- The systems benchmarked: one line each ----
template <class S>
void systems(const char* prec) {
  bench_system(prec, "oscillator", Oscillator<S>{}, Vec<S, 2>(S(1), S(0)), Vec<S, 1>(S(10)), S(0.01));
  bench_system(prec, "spherical_pendulum", SphericalPendulum<S>::make(S(1), S(1), S(1)).value(), spherical_x0<S>(),
               Vec<S, 4>(S(20), S(20), S(20), S(20)), S(0.001));
  // Pendulum skate (paper 003), state (59): reduced (35)/(38), full (21), rotor plant (44), Γ.
  const Vec<S, 9> z0 = skate_initial_condition_59<S>(S(0.1));
  const PendulumSkate<S> skate{PendulumSkateParams<S>{}};
  const Vec<S, 5> zeta0 = skate_zeta<S>(z0);
  bench_system(prec, "pendulum_skate", skate, zeta0, balanced_gains(skate, zeta0, S(20)), S(0.001));
  const PendulumSkateFull<S> full{PendulumSkateParams<S>{}};
  bench_system(prec, "pendulum_skate_full", full, z0, balanced_gains(full, z0, S(20)), S(0.001));
  Vec<S, 6> xr;
  xr << zeta0, S(0);
  bench_system(prec, "skate_rotor_plant", SkateRotorPlant<S>{PendulumSkateRotor<S>{}}, xr, Vec<S, 1>(S(50)), S(0.001));
  AdvectedGamma<S> gamma;
  gamma.omega = Vec3<S>(S(0.1), S(0.01), S(0.1));
  bench_system(prec, "skate_gamma", gamma, Vec3<S>(S(0), S(0.0998), S(0.995)), Vec<S, 2>(S(50), S(50)), S(0.001));
}

// ---- Hand-written references (hand_written.hpp): library step and hand-written step, same
// system, state, gains and h as the systems<S>() rows ----
void print_reference(const char* prec, const char* what, const char* method, double library, double hand) {
  Text<200> t;
  t << "bench " << Board::name() << " " << prec << " reference " << what << " " << method << " library ";
  t.fixed(library, 1);
  t << " hand_written ";
  t.fixed(hand, 1);
  t << " instructions/step\n";
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
    const double lib = instructions_per_call([&] {
      rk4_step(fb, x, h);
      escape(x.data());
    });
    const bench::SphericalFeedbackRk4<S> by_hand(S(1), S(1), fb.reference().data(), gains.data());
    x = spherical_x0<S>();
    const double hand = instructions_per_call([&] {
      by_hand.step(x.data(), h);
      escape(x.data());
    });
    print_reference(prec, "spherical_pendulum", "feedback-rk4", lib, hand);
  }
  {
    auto field = [&sys](const Vec<S, 6>& x) { return sys.field(x); };
    Vec<S, 6> x = spherical_x0<S>();
    const double lib = instructions_per_call([&] {
      rk4_step(field, x, h);
      escape(x.data());
    });
    const bench::SphericalRk4<S> by_hand(S(1), S(1));
    x = spherical_x0<S>();
    const double hand = instructions_per_call([&] {
      by_hand.step(x.data(), h);
      escape(x.data());
    });
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
    const double lib = instructions_per_call([&] {
      rk4_step(fg, G, h);
      escape(G.data());
    });
    bench::GammaFeedbackRk4<S> by_hand{};
    for (int i = 0; i < 3; ++i) by_hand.omega[i] = gamma.omega[i], by_hand.measured[i] = gamma.measured[i];
    by_hand.kappa = gamma.kappa;
    for (int i = 0; i < 2; ++i) by_hand.F0[i] = fg.reference()[i], by_hand.K[i] = kg[i];
    G = G0;
    const double hand = instructions_per_call([&] {
      by_hand.step(G.data(), h);
      escape(G.data());
    });
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
    print_method(prec, name, "feedback-euler", hd, instructions_per_call<kMethodReps>([&] {
                   euler_step(fe, x, h);
                   escape(x.data());
                 }));
    x = x0;
    const auto fr = auto_fb(Scheme::rk4);
    print_method(prec, name, "feedback-rk4", hd, instructions_per_call<kMethodReps>([&] {
                   rk4_step(fr, x, h);
                   escape(x.data());
                 }));
    x = x0;
    auto field = [&sys](const State& y) { return sys.field(y); };
    print_method(prec, name, "rk4", hd, instructions_per_call<kMethodReps>([&] {
                   rk4_step(field, x, h);
                   escape(x.data());
                 }));
    Rattle<Sys> r(sys, x0);
    print_method(prec, name, "rattle", hd, instructions_per_call<kMethodReps>([&] {
                   Error e = r.step(h);
                   escape(&e);
                 }));
    x = x0;
    print_method(prec, name, "lie-trotter", hd, instructions_per_call<kMethodReps>([&] {
                   lie_trotter_step(sys, x, h);
                   escape(x.data());
                 }));
    x = x0;
    print_method(prec, name, "strang", hd, instructions_per_call<kMethodReps>([&] {
                   strang_step(sys, x, h);
                   escape(x.data());
                 }));
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

// The runtime's tick with a representative app: validate 6 sensor values, one RK4 feedback
// step of the spherical pendulum as the estimator, a linear law on 3 outputs.
template <class S>
struct TickApp : rt::AppBase<S, 6, 3> {
  using Base = rt::AppBase<S, 6, 3>;
  using typename Base::Command;
  using typename Base::Sensors;
  SphericalPendulum<S> sys = SphericalPendulum<S>::make(S(1), S(1), S(1)).value();
  Feedback<SphericalPendulum<S>> fb = feedback(sys, spherical_x0<S>(), Vec<S, 4>(S(20), S(20), S(20), S(20)));
  Vec<S, 6> x = spherical_x0<S>();
  Command u_out = Command::Zero();

  bool sample(Sensors& y) {
    y = x;  // a stand-in for sensor drivers / a HIL frame
    return true;
  }
  void estimate(const Sensors&, S dt) { rk4_step(fb, x, dt); }
  Command control() { return -S(0.5) * x.template tail<3>(); }
  void actuate(const Command& u) { u_out = u; }
};

// Runs an app for 500 ticks at 1 kHz on the board's runtime and prints its per-tick cost.
template <class App>
void bench_app_tick(const char* prec, const char* label, App& app) {
  rt::Config cfg = rt::rate_hz(1000);
  cfg.max_ticks = 500;
  const rt::Report r = rt::run<Board>(app, cfg);
  Text<200> t;
  t << "bench " << Board::name() << " " << prec << " rt_tick " << label << " instructions/tick mean ";
  t.fixed(rt::counts_to_ns(r.cost.mean(), r.cost_hz), 1);
  t << " min ";
  t.fixed(rt::counts_to_ns(r.cost.min(), r.cost_hz), 0);
  t << " max ";
  t.fixed(rt::counts_to_ns(r.cost.max(), r.cost_hz), 0);
  t << " (" << r.steps << " ticks, " << r.overruns << " overruns, mode " << to_string(r.mode) << ")\n";
  board::write(t.c_str());
}

void print_phase(const char* prec, const char* app, const char* phase, double instr) {
  Text<160> t;
  t << "bench " << Board::name() << " " << prec << " phase " << app << " " << phase << " instructions/call ";
  t.fixed(instr, 1);
  t << "\n";
  board::write(t.c_str());
}

// apps/skate-rotor's tick split into its phases, each measured alone on copies of the parts
// (sample = the SIL plant's RK4 step + measurement; estimate = the Γ̂ feedback integrator;
// law = ζ (33) + law (56); actuate = the command write). The runtime's share (validation,
// supervisor, encode, timing) is the tick minus their sum (docs/BENCHMARKS.md).
template <class S>
void skate_phases(const char* prec) {
  using Signals = SkateRotorSignals<S>;
  auto source = SimulatedSkateRotor<S>::make({}, S(1e-3)).value();
  typename Signals::Measurement y;
  source.sample(y);
  print_phase(prec, "skate-rotor(sil)", "sample", instructions_per_call([&] {
                source.sample(y);
                escape(y.data());
              }));
  auto est = VerticalEstimator<S>::make({}, S(1e-3)).value();
  const Vec3<S> rate = y.template segment<3>(Signals::gyro);
  const Vec3<S> vert = y.template segment<3>(Signals::vertical);
  Vec3<S> G = est.update(rate, vert);
  print_phase(prec, "skate-rotor(sil)", "estimate", instructions_per_call([&] {
                G = est.update(rate, vert);
                escape(G.data());
              }));
  const SkateRotorControllerConfig<S> cfg{};
  const auto law = SkateRotorLaw<S>::make(cfg.params, cfg.sigma).value();
  S u(0);
  print_phase(prec, "skate-rotor(sil)", "law", instructions_per_call([&] {
                escape(G.data());
                u = law.torque(skate_zeta<S>(rate, Vec3<S>(y[Signals::blade_speed], S(0), S(0)), G));
                escape(&u);
              }));
  typename Signals::Command cmd(u);
  print_phase(prec, "skate-rotor(sil)", "actuate", instructions_per_call([&] {
                escape(cmd.data());
                source.actuate(cmd);
                escape(&source);
              }));
}

// ---- The apps' ticks benchmarked: one line each ----
template <class S>
void ticks(const char* prec) {
  TickApp<S> generic;
  bench_app_tick(prec, "spherical_pendulum+rk4", generic);
  // apps/skate-rotor's loop: SIL plant step + Γ fusion + law (56), from the library types.
  rt::Loop<SimulatedSkateRotor<S>, SkateRotorController<S>, SkateRotorOutcome<S>> skate(
      SimulatedSkateRotor<S>::make({}, S(1e-3)).value(), SkateRotorController<S>::make({}, S(1e-3)).value());
  bench_app_tick(prec, "skate-rotor(sil)", skate);
  skate_phases<S>(prec);
}

}  // namespace

int main() {
  board::initialize();
  {
    Text<240> t;
    t << "bench " << Board::name() << ": cost clock " << Board::cost_hz() << " Hz (" << Board::cost_unit() << "), "
      << BENCH_REPS << " reps; numbers are guest INSTRUCTIONS under QEMU -icount shift=0 (not cycles)\n";
    board::write(t.c_str());
  }
  systems<float>("float");
  systems<double>("double");
  ticks<float>("float");
  ticks<double>("double");
  references<float>("float");
  references<double>("double");
  methods<float>("float");
  methods<double>("double");
  return 0;
}
