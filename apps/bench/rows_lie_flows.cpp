// SPDX-License-Identifier: Apache-2.0
// Bench rows of paper 004's nonholonomic flows (system_rows.hpp), one line each: the system at
// its documented case (the defaults of its attractor-sim command), gains of that command, h = 1e-3.
// The Euler–Poincaré–Suslov row is the Suslov model with a generic constraint vector a (e = 𝕀⁻¹a).
#include "attractor/core/documented.hpp"
#include "attractor/nonholonomic/small_inverse.hpp"
#include "attractor/systems/chaplygin_sphere.hpp"
#include "attractor/systems/falling_disk.hpp"
#include "attractor/systems/sleigh_oscillating_mass.hpp"
#include "attractor/systems/sleigh_toda.hpp"
#include "attractor/systems/suslov.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

// a = (0.4, −1, 0.7), not an eigenvector of the paper's 𝕀; ω0 = (0.3, −0.8, 1.2) projected on a·ω = 0.
template <class S>
Suslov<S> eps_system() {
  SuslovParams<S> p;
  p.constraint = small_inverse<S, 3>(p.inertia) * Vec3<S>(S(0.4), S(-1), S(0.7));
  return Suslov<S>::make(p).value();
}
template <class S>
Vec<S, 12> eps_x0() {
  const SuslovParams<S> p;
  const Vec3<S> a(S(0.4), S(-1), S(0.7));
  Vec3<S> w(S(0.3), S(-0.8), S(1.2));
  w -= (w.dot(a) / a.squaredNorm()) * a;
  return Suslov<S>::state(Mat3<S>::Identity(), p.inertia * w);
}

template <class S>
void lie_flow_rows(const char* prec) {
  const S h = S(1e-3);
  const auto disk = FallingDisk<S>::make().value();
  bench_system(prec, "falling_disk", disk, documented_x0<S, FallingDiskFacts>(),
               documented_gains<S, FallingDiskFacts>(), h);
  bench_system(prec, "sleigh_toda", SleighToda<S>::make().value(), documented_x0<S, SleighTodaFacts>(),
               documented_gains<S, SleighTodaFacts>(), h);
  bench_system(prec, "chaplygin_sphere", ChaplyginSphere<S>::make().value(), documented_x0<S, ChaplyginSphereFacts>(),
               documented_gains<S, ChaplyginSphereFacts>(), h);
  bench_system(prec, "sleigh_oscillating_mass", SleighOscillatingMass<S>::make().value(),
               documented_x0<S, SleighOscillatingMassFacts>(), documented_gains<S, SleighOscillatingMassFacts>(), h);
  bench_system(prec, "euler_poincare_suslov", eps_system<S>(), eps_x0<S>(), Vec<S, 8>::Constant(S(50)), h);
}

ATTRACTOR_BENCH_ROWS(lie_flows, lie_flow_rows);

}  // namespace attractor::bench
