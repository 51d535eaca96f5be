// SPDX-License-Identifier: Apache-2.0
// Deterministic cost benchmark image: instruction counts per integrator step (float and
// double, each system, each scheme, with and without the feedback term) and per control tick
// of the runtime, printed through the board console. Run it in QEMU with
// -icount shift=0,align=off,sleep=off (the default of attractor_qemu_command): virtual time
// advances 1 ns per guest instruction, so the board's cost clock, converted to ns, counts
// instructions. Two runs print identical numbers (CTest bench.<board>.reproducible).
// These are INSTRUCTION counts, not cycles: see docs/runtime.md for how they relate to cycles.
//
// Adding a system: one bench_system(...) line in a rows_*.cpp (system_rows.hpp), or a new
// rows_<family>.cpp that registers itself (row_registry.hpp); an app: one line in ticks<S>().
// Also, in their own translation unit (so that GCC's inlining decisions here do not change with
// them): accuracy_per_cost.cpp, the hand-written reference steps and every method of the
// accuracy-per-cost chart at every step size of its grid.
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/estimate/vertical_estimator.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/plants/skate_rotor/controller.hpp"
#include "attractor/plants/skate_rotor/simulated.hpp"
#include "attractor/rt/loop.hpp"
#include "attractor/rt/tick.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "measure.hpp"
#include "row_registry.hpp"

using namespace attractor;
using board::Board;

namespace {

using bench::escape;
using bench::instructions_per_call;
using bench::spherical_x0;

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
  if (bench::g_row_families_dropped > 0) {  // row_registry.hpp: raise kMaxRowFamilies
    board::write("bench error: more rows_*.cpp families than kMaxRowFamilies; nothing measured\n");
    return 1;
  }
  bench::run_rows(false);
#ifndef ATTRACTOR_BENCH_FLOAT_ONLY  // the suite's float-only image (row_registry.hpp)
  bench::run_rows(true);
#endif
  ticks<float>("float");
#ifndef ATTRACTOR_BENCH_FLOAT_ONLY
  ticks<double>("double");
#endif
  bench::references_and_methods();
  return 0;
}
