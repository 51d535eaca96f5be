// SPDX-License-Identifier: Apache-2.0
// The C library's sine and cosine, one call each, as the measured steps make them (std::sin and
// std::cos of S): "bench <board> <prec> libm sinf instructions/call N at 0xADDR" (sin, cos in double). They
// are calls no implementation of a step on an angle can leave out, and the floor of
// scripts/bench_floor.py counts none of them; its table adds this cost once per call site
// (calls_cost) for the steps whose every call is measured here (docs/BENCHMARKS.md, "floor").
// The arguments are of |x| < π/4, the one range that needs no argument reduction, where the
// angles of the bench's steps stay (they start at 0 and turn by less than 0.2 over a measurement):
// the least a call costs there.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "measure.hpp"
#include "row_registry.hpp"
#include "system_rows.hpp"

namespace attractor::bench {

template <class S, class Fn>
void libm_row(const char* prec, const char* name, Fn fn) {
  static constexpr int kArgs = 8;
  S x[kArgs] = {S(0.1), S(-0.2), S(0.3), S(-0.4), S(0.5), S(-0.6), S(0.7), S(-0.75)}, y[kArgs];
  const StepCost c = step_cost([&] {
    for (int i = 0; i < kArgs; ++i) y[i] = fn(x[i]);
    escape(y);
  });
  Text<120> t;
  t << "bench " << Board::name() << " " << prec << " libm " << name << " instructions/call ";
  t.fixed(c.instructions / kArgs, 1);
  t << " at ";
  t.hex(static_cast<std::uint32_t>(c.address));
  t << "\n";
  board::write(t.c_str());
}

template <class S>
void libm_rows(const char* prec) {
  constexpr bool single = std::is_same_v<S, float>;  // the C library's names of the calls
  libm_row<S>(prec, single ? "sinf" : "sin", [](S v) { return std::sin(v); });
  libm_row<S>(prec, single ? "cosf" : "cos", [](S v) { return std::cos(v); });
}

ATTRACTOR_BENCH_ROWS(libm, libm_rows);

}  // namespace attractor::bench
