// SPDX-License-Identifier: Apache-2.0
// Bench rows of the oscillator and the spherical pendulum (system_rows.hpp).
#include "attractor/systems/harmonic_oscillator.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

template <class S>
void pendulum_rows(const char* prec) {
  bench_system(prec, "oscillator", HarmonicOscillator<S>{}, Vec<S, 2>(S(1), S(0)), Vec<S, 1>(S(10)), S(0.01));
  bench_system(prec, "spherical_pendulum", SphericalPendulum<S>::make(S(1), S(1), S(1)).value(), spherical_x0<S>(),
               Vec<S, 4>(S(20), S(20), S(20), S(20)), S(0.001));
}
template void pendulum_rows<float>(const char*);
template void pendulum_rows<double>(const char*);

}  // namespace attractor::bench
