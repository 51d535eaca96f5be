// SPDX-License-Identifier: Apache-2.0
// Bench rows of the oscillator and the spherical pendulum (system_rows.hpp), and the spherical
// pendulum's other steppers (RATTLE, the splittings of paper 002 §2.4) as method rows.
#include "attractor/integrate/rattle.hpp"
#include "attractor/integrate/splitting.hpp"
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
