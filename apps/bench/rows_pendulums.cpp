// SPDX-License-Identifier: Apache-2.0
// Bench rows of the oscillator, the planar and the spherical pendulum (system_rows.hpp), and the spherical
// pendulum's other steppers (RATTLE, the splittings of paper 002 §2.4) as method rows.
#include <type_traits>

#include "attractor/integrate/rattle.hpp"
#include "attractor/integrate/splitting.hpp"
#include "attractor/systems/harmonic_oscillator.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

template <class S>
void pendulum_rows(const char* prec) {
  bench_system(prec, "oscillator", HarmonicOscillator<S>{}, Vec<S, 2>(S(1), S(0)), Vec<S, 1>(S(10)), S(0.01));
  // The planar pendulum 0.5 rad from the bottom, p tangent (the accuracy-per-cost start); in float
  // only (its x floor goal): with its double rows the image outgrows the 1 MB flash of netduinoplus2.
  if constexpr (std::is_same<S, float>::value) {
    Vec<S, 4> xp;
    xp << S(0.479425538604203), S(-0.877582561890373), S(0.3 * 0.877582561890373), S(0.3 * 0.479425538604203);
    bench_system(prec, "planar_pendulum", PlanarPendulum<S>::make(S(1), S(1), S(1)).value(), xp,
                 Vec<S, 3>(S(20), S(20), S(20)), S(0.001));
  }
  const auto sp = SphericalPendulum<S>::make(S(1), S(1), S(1)).value();
  bench_system(prec, "spherical_pendulum", sp, spherical_x0<S>(), Vec<S, 4>(S(20), S(20), S(20), S(20)), S(0.001));
  bench_stepper(prec, "spherical_pendulum", "rattle", Rattle<SphericalPendulum<S>>(sp, spherical_x0<S>()),
                spherical_x0<S>(), S(0.001));
  bench_stepper(prec, "spherical_pendulum", "lie-trotter", LieTrotter<SphericalPendulum<S>>{sp}, spherical_x0<S>(),
                S(0.001));
  bench_stepper(prec, "spherical_pendulum", "strang", Strang<SphericalPendulum<S>>{sp}, spherical_x0<S>(), S(0.001));
}

ATTRACTOR_BENCH_ROWS(pendulums, pendulum_rows);

}  // namespace attractor::bench
