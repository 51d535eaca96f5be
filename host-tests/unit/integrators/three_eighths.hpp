// SPDX-License-Identifier: Apache-2.0
// A tableau a user writes for the generic stepper (integrate/butcher.hpp): Kutta's 3/8 rule,
// order 4, b = (1, 3, 3, 1) / 8. The integrator tests run it beside the built-in schemes.
#pragma once

#include "attractor/integrate/butcher.hpp"

namespace attractor::test {

template <class S>
constexpr ButcherTableau<S, 4> three_eighths_tableau() {
  return {{{S(0), S(0), S(0), S(0)},
           {S(1) / S(3), S(0), S(0), S(0)},
           {S(-1) / S(3), S(1), S(0), S(0)},
           {S(1), S(-1), S(1), S(0)}},
          {S(1) / S(8), S(3) / S(8), S(3) / S(8), S(1) / S(8)},
          4,
          S(2.785293563405282)};
}

}  // namespace attractor::test
