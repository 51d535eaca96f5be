// SPDX-License-Identifier: Apache-2.0
// Bench rows of the oscillator and the spherical pendulum (system_rows.hpp).
#include "attractor/systems/spherical_pendulum.hpp"
#include "system_rows.hpp"

namespace attractor::bench {
namespace {

// A minimal system of the System shape (integrate/system.hpp): harmonic oscillator, invariant H = (q^2 + p^2)/2.
template <class S>
struct Oscillator {
  using Scalar = S;
  static constexpr int N = 2, M = 1;
  using State = Vec<S, N>;
  using Invariants = Vec<S, M>;
  State field(const State& x) const { return State(x[1], -x[0]); }
  Invariants invariants(const State& x) const { return Invariants(S(0.5) * (x[0] * x[0] + x[1] * x[1])); }
  Mat<S, M, N> invariants_jacobian(const State& x) const { return Mat<S, M, N>(x[0], x[1]); }
};

}  // namespace

template <class S>
void pendulum_rows(const char* prec) {
  bench_system(prec, "oscillator", Oscillator<S>{}, Vec<S, 2>(S(1), S(0)), Vec<S, 1>(S(10)), S(0.01));
  bench_system(prec, "spherical_pendulum", SphericalPendulum<S>::make(S(1), S(1), S(1)).value(), spherical_x0<S>(),
               Vec<S, 4>(S(20), S(20), S(20), S(20)), S(0.001));
}
template void pendulum_rows<float>(const char*);
template void pendulum_rows<double>(const char*);

}  // namespace attractor::bench
