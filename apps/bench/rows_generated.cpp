// SPDX-License-Identifier: Apache-2.0
// Bench rows of the systems generated from model descriptions (scripts/attractor-model,
// docs/model-compiler.md; system_rows.hpp), beside their hand-written rows of the other families:
// the same documented cases. The knife edge, the nonholonomic oscillator and the particle are
// generated and are the tree's only ones: their rows are rows_nonholonomic.cpp's knife_edge and
// nonholonomic_oscillator and rows_nonholonomic_methods.cpp's nh_particle. The pendulums' second row is d|q|²/dt = 2
// q·p/m where the hand-written one monitors q·p, so its gain is a quarter of the hand-written row's 20 (m = 1): the
// same Lyapunov function. The double pendulum (Cartesian, two rods) has no hand-written counterpart: its header is
// generated at build time from docs/starter-model/double_pendulum.toml (attractor_add_model,
// apps/bench/CMakeLists.txt).
#include "attractor/core/documented.hpp"
#include "attractor/generated/chaplygin_sleigh_xy.hpp"
#include "attractor/generated/planar_pendulum.hpp"
#include "attractor/generated/spherical_pendulum.hpp"
#include "double_pendulum.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

template <class S>
void generated_rows(const char* prec) {
  using namespace attractor::generated;
  const S h = S(1e-3);
  bench_system(prec, "chaplygin_sleigh_xy_generated", ChaplyginSleighXY<S>::make().value(),
               documented_x0<S, ChaplyginSleighXYFacts>(), documented_gains<S, ChaplyginSleighXYFacts>(), h);
  bench_system(prec, "spherical_pendulum_generated", SphericalPendulum<S>::make().value(), spherical_x0<S>(),
               Vec<S, 4>(S(20), S(5), S(20), S(20)), h);  // the hand-written row's start
  Vec<S, 4> xp;  // rows_pendulums.cpp's planar start (its gains 20, the rate row's a quarter)
  xp << S(0.479425538604203), S(-0.877582561890373), S(0.3 * 0.877582561890373), S(0.3 * 0.479425538604203);
  bench_system(prec, "planar_pendulum_generated", PlanarPendulum<S>::make().value(), xp, Vec<S, 3>(S(20), S(5), S(20)),
               h);
  bench_system(prec, "double_pendulum_generated", DoublePendulum<S>::make().value(),
               documented_x0<S, DoublePendulumFacts>(), documented_gains<S, DoublePendulumFacts>(), h);
}

ATTRACTOR_BENCH_ROWS(generated, generated_rows);

}  // namespace attractor::bench
