// SPDX-License-Identifier: Apache-2.0
// Bench rows of paper 001's discrete nonholonomic integrators beside the feedback integrator on
// the same problems (attractor-paper nonholonomic-baselines runs them for their errors): one step
// of the nonholonomic Störmer–Verlet method (integrate/nonholonomic_verlet.hpp) and of DLA
// (integrate/discrete_lagrange_dalembert.hpp, its fixed sweep count, 12) as "<example> nh_verlet"
// and "<example> dla" rows (bench_stepper, system_rows.hpp), and the plain and feedback schemes
// of the two examples that have no system rows elsewhere (the particle, the driven snakeboard).
// The knife edge, the oscillator and the sleigh have their scheme rows in rows_nonholonomic.cpp
// under the same names. The sleigh's discrete rows step its contact-point model (paper 001
// Example 3), the model attractor-sim chaplygin-sleigh --method nh-verlet|dla steps.
#include "attractor/core/documented.hpp"
#include "attractor/integrate/discrete_lagrange_dalembert.hpp"
#include "attractor/integrate/nonholonomic_verlet.hpp"
#include "attractor/systems/chaplygin_sleigh_xy.hpp"
#include "attractor/systems/knife_edge.hpp"
#include "attractor/systems/nonholonomic_oscillator.hpp"
#include "attractor/systems/nonholonomic_particle.hpp"
#include "attractor/systems/snakeboard_driven.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

// Both discrete methods of one cotangent model from x0 (on its constraints).
template <class Model>
void bench_discrete(const char* prec, const char* name, const Model& model,
                    const Vec<typename Model::Scalar, 2 * Model::Q>& x0, typename Model::Scalar h) {
  bench_stepper(prec, name, "nh_verlet", NonholonomicVerlet<Model>::make(model, x0).value(), x0, h);
  bench_stepper(prec, name, "dla", DiscreteLagrangeDAlembert<Model>::make(model, x0).value(), x0, h);
}

template <class S>
void nonholonomic_method_rows(const char* prec) {
  const S h = S(1e-2);
  // paper 001 Example 1, on ż = y ẋ
  const Vec<S, 6> particle_x0 = documented_x0<S, NonholonomicParticleFacts>();
  const NonholonomicParticle<S> particle = NonholonomicParticle<S>::make().value();
  bench_system(prec, "nh_particle", particle, particle_x0, Vec<S, 3>::Constant(S(50)), h);
  bench_discrete(prec, "nh_particle", particle.model(), particle_x0, h);
  // paper 001 Example 2 under way (moving, φ ≠ 0, the torques mid-period), on its constraints
  const SnakeboardDriven<S> board = SnakeboardDriven<S>::make().value();
  Vec<S, 10> y = Vec<S, 10>::Zero();
  y[4] = S(0.3), y[7] = S(0.2), y[8] = S(0.1), y[9] = S(0.05);  // φ, pθ, pψ, pφ
  const Mat<S, 5, 2> E = board.model().constraint_fields(y.template head<5>());
  const Mat<S, 5, 2> mE = board.model().mass(y.template head<5>()) * E;
  y.template tail<5>() -= mE * (Mat<S, 2, 2>(E.transpose() * mE).inverse() * (E.transpose() * y.template tail<5>()));
  Vec<S, 12> board_x0;
  board_x0 << y, S(0.4), S(0);
  bench_system(prec, "snakeboard", board, board_x0, Vec<S, 3>::Constant(S(50)), h);
  SnakeboardModel<S> at_t = board.model();
  at_t.time = S(0.4);
  bench_discrete(prec, "snakeboard", at_t, y, h);
  // paper 001 Example 3 (its data), paper 000 §3.7 and §3.2 (the rows_nonholonomic.cpp states)
  const ChaplyginSleighXY<S> sleigh = ChaplyginSleighXY<S>::make({S(1), S(1), S(0.2)}).value();
  bench_discrete(prec, "chaplygin_sleigh", sleigh.model(), sleigh.state(0, 0, 0, S(-2.4), S(0.5756)), h);
  bench_discrete(prec, "nonholonomic_oscillator", NonholonomicOscillator<S>::make().value().model(),
                 documented_x0<S, NonholonomicOscillatorFacts>(), h);
  bench_discrete(prec, "knife_edge", KnifeEdge<S>::make().value().model(), documented_x0<S, KnifeEdgeFacts>(), h);
}

ATTRACTOR_BENCH_ROWS(nonholonomic_methods, nonholonomic_method_rows);

}  // namespace attractor::bench
