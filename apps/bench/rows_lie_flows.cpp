// SPDX-License-Identifier: Apache-2.0
// Bench rows of paper 004's nonholonomic flows (system_rows.hpp), one line each: the system at
// its documented case (the defaults of its attractor-sim command), gains of that command, h = 1e-3.
// The Euler–Poincaré–Suslov row is the Suslov model with a generic constraint vector a (e = 𝕀⁻¹a).
#include "attractor/nonholonomic/small_inverse.hpp"
#include "attractor/systems/chaplygin_sphere.hpp"
#include "attractor/systems/falling_disk.hpp"
#include "attractor/systems/sleigh_oscillating_mass.hpp"
#include "attractor/systems/sleigh_toda.hpp"
#include "attractor/systems/suslov.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

// Tilted by 0.3 at rest in the tilt, turning at φ̇ = 1 and spinning at ψ̇ = 3, on the constraints.
template <class S>
Vec<S, 10> falling_disk_x0(const FallingDisk<S>& d) {
  using D = FallingDisk<S>;
  const S r = S(0.3), phid = S(1), w = phid * std::sin(r) + S(3);
  typename D::State x = D::State::Zero();
  x[D::TILT] = r;
  x[D::P1] = d.prm.A * std::cos(r) * std::cos(r) * phid + d.Ib * w * std::sin(r);
  x[D::P2] = d.Ib * w;
  return d.on_constraint(x);
}

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
  bench_system(prec, "falling_disk", disk, falling_disk_x0(disk), Vec<S, 3>::Constant(S(1)), h);
  bench_system(prec, "sleigh_toda", SleighToda<S>::make().value(), Vec<S, 2>(S(0), S(1)), Vec<S, 1>(S(10)), h);
  bench_system(prec, "chaplygin_sphere", ChaplyginSphere<S>::make().value(),
               ChaplyginSphere<S>::state(Vec3<S>(S(1), S(0.5), S(2)), Vec3<S>(S(0.6), S(0), S(0.8))),
               Vec<S, 4>::Constant(S(1)), h);
  bench_system(prec, "sleigh_oscillating_mass", SleighOscillatingMass<S>::make().value(),
               (Vec<S, 7>() << S(0.3), S(0), S(0.5), S(0.3), S(0.8), S(1), S(0.2)).finished(), Vec<S, 1>(S(10)), h);
  bench_system(prec, "euler_poincare_suslov", eps_system<S>(), eps_x0<S>(), Vec<S, 8>::Constant(S(50)), h);
}

ATTRACTOR_BENCH_ROWS(lie_flows, lie_flow_rows);

}  // namespace attractor::bench
