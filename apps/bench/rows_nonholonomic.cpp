// SPDX-License-Identifier: Apache-2.0
// Bench rows of the nonholonomic systems (paper 000 §3; system_rows.hpp), one line each: the
// system at its paper (or documented) case, from the start state, gains and step of its host test
// (host-tests/unit/nonholonomic/).
#include "attractor/systems/chaplygin_sleigh.hpp"
#include "attractor/systems/heisenberg.hpp"
#include "attractor/systems/knife_edge.hpp"
#include "attractor/systems/nonholonomic_oscillator.hpp"
#include "attractor/systems/roller_racer.hpp"
#include "attractor/systems/rolling_disk.hpp"
#include "attractor/systems/suslov.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

// Π0 = (1, 1, Πy) on the sleigh's constraint maΠθ = (I + ma²)Πy (default m = I = 1, a = 0.5).
template <class S>
Vec3<S> sleigh_pi0() {
  return Vec3<S>(S(1), S(1), S(0.4));
}

template <class S>
Vec<S, 6> heisenberg_x0() {  // J1 = pz − y px + x py = 0
  return (Vec<S, 6>() << S(0.5), S(-0.3), S(0.2), S(0.4), S(0.7), S(-0.47)).finished();
}

template <class S>
void nonholonomic_rows(const char* prec) {
  const S h = S(1e-3);
  bench_system(prec, "suslov", Suslov<S>::make().value(), Suslov<S>::state(Mat3<S>::Identity(), Vec3<S>(0, 1, 1)),
               Vec<S, 8>::Constant(S(100)), h);
  bench_system(prec, "knife_edge", KnifeEdge<S>::make().value(), (Vec<S, 6>() << 0, 0, 0, 0, 0, S(0.5)).finished(),
               Vec<S, 3>::Constant(S(1000)), h);
  bench_system(prec, "chaplygin_sleigh", ChaplyginSleigh<S>::make().value(),
               ChaplyginSleigh<S>::state(S(0), S(0), S(0), sleigh_pi0<S>()), Vec<S, 5>::Constant(S(50)), h);
  bench_system(prec, "chaplygin_sleigh_reduced", ChaplyginSleigh<S, false>::make().value(), sleigh_pi0<S>(),
               Vec<S, 2>::Constant(S(50)), h);
  bench_system(prec, "heisenberg", Heisenberg<S>{}, heisenberg_x0<S>(), Vec<S, 3>(S(10), S(10), S(50)), h);
  bench_system(prec, "nonholonomic_oscillator", NonholonomicOscillator<S>::make().value(),
               (Vec<S, 6>() << 1, 1, 1, 0, 0, 0).finished(), Vec<S, 3>(S(300), S(500), S(300)), h);
  bench_system(prec, "rolling_disk", RollingDisk<S>::make().value(),
               RollingDisk<S>::state(0, 0, 0, 0, RollingDisk<S>::on_constraint({}, S(0.25), S(1))),
               Vec<S, 7>::Constant(S(50)), h);
  bench_system(prec, "roller_racer", RollerRacer<S>::make().value(),
               RollerRacer<S>::state(0, 0, 0, S(0.5), RollerRacer<S>::on_constraint({}, S(0.5), S(1), S(0.2))),
               Vec<S, 6>::Constant(S(50)), h);
}

ATTRACTOR_BENCH_ROWS(nonholonomic, nonholonomic_rows);

}  // namespace attractor::bench
