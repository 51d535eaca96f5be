// SPDX-License-Identifier: Apache-2.0
// Bench rows of the nonholonomic systems (paper 000 §3; system_rows.hpp), one line each: the
// system at its paper (or documented) case: the start state and gains of its facts
// (documented.hpp) where it states them, else those of its host test (host-tests/unit/nonholonomic/).
#include "attractor/core/documented.hpp"
#include "attractor/systems/chaplygin_sleigh.hpp"
#include "attractor/systems/heisenberg.hpp"
#include "attractor/systems/knife_edge.hpp"
#include "attractor/systems/nonholonomic_oscillator.hpp"
#include "attractor/systems/roller_racer.hpp"
#include "attractor/systems/rolling_disk.hpp"
#include "attractor/systems/suslov.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

template <class S>
void nonholonomic_rows(const char* prec) {
  const S h = S(1e-3);
  bench_system(prec, "suslov", Suslov<S>::make().value(), documented_x0<S, SuslovFacts>(),
               documented_gains<S, SuslovFacts>(), h);
  bench_system(prec, "knife_edge", KnifeEdge<S>::make().value(), documented_x0<S, KnifeEdgeFacts>(),
               documented_gains<S, KnifeEdgeFacts>(), h);
  bench_system(prec, "chaplygin_sleigh", ChaplyginSleigh<S>::make().value(), documented_x0<S, ChaplyginSleighFacts>(),
               documented_gains<S, ChaplyginSleighFacts>(), h);
  bench_system(prec, "chaplygin_sleigh_reduced", ChaplyginSleigh<S, false>::make().value(),
               documented_x0<S, ChaplyginSleighReducedFacts>(), documented_gains<S, ChaplyginSleighReducedFacts>(), h);
  bench_system(prec, "heisenberg", Heisenberg<S>{}, documented_x0<S, HeisenbergFacts>(),
               documented_gains<S, HeisenbergFacts>(), h);
  bench_system(prec, "nonholonomic_oscillator", NonholonomicOscillator<S>::make().value(),
               documented_x0<S, NonholonomicOscillatorFacts>(), documented_gains<S, NonholonomicOscillatorFacts>(), h);
  bench_system(prec, "rolling_disk", RollingDisk<S>::make().value(), documented_x0<S, RollingDiskFacts>(),
               documented_gains<S, RollingDiskFacts>(), h);
  bench_system(prec, "roller_racer", RollerRacer<S>::make().value(), documented_x0<S, RollerRacerFacts>(),
               documented_gains<S, RollerRacerFacts>(), h);
}

ATTRACTOR_BENCH_ROWS(nonholonomic, nonholonomic_rows);

}  // namespace attractor::bench
