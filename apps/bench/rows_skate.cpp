// SPDX-License-Identifier: Apache-2.0
// Bench rows of the pendulum skate family (paper 003; system_rows.hpp).
#include "attractor/estimate/advected_vertical.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

template <class S>
void skate_rows(const char* prec) {
  // Pendulum skate (paper 003), state (59): reduced (35)/(38), full (21), rotor plant (44), Γ.
  const Vec<S, 9> z0 = skate_tilted_sliding_state<S>(S(0.1));
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

ATTRACTOR_BENCH_ROWS(skate, skate_rows);

}  // namespace attractor::bench
