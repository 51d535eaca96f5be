// SPDX-License-Identifier: Apache-2.0
// Where the conformance harness samples the generated double pendulum: anywhere with both rods
// longer than 0.3 (the Dirac-extended field conserves its rows on all of T*R^4 where the rods'
// Gram matrix is invertible), the parameters drawn too.
#pragma once

#include "conformance.hpp"
#include "double_pendulum.hpp"

namespace attractor::test {

template <class S>
struct Conformance<generated::DoublePendulum<S>> : ConformanceDefaults {
  static generated::DoublePendulum<S> make(std::mt19937& rng) {
    const Vec<double, 4> v = uniform<4>(rng, 0.5, 2.0);
    generated::DoublePendulumParams<S> p;
    p.m1 = S(v[0]), p.m2 = S(v[1]), p.l1 = S(v[2]), p.l2 = S(v[3]);
    return generated::DoublePendulum<S>::make(p).value();
  }
  static Vec<double, 8> sample(std::mt19937& rng, const generated::DoublePendulum<S>&) {
    Vec<double, 8> x;
    do x = uniform<8>(rng, -2.0, 2.0);
    while (x.head<2>().norm() < 0.3 || (x.segment<2>(2) - x.head<2>()).norm() < 0.3);
    return x;
  }
};

}  // namespace attractor::test

template <class S>
using DoublePendulum = attractor::generated::DoublePendulum<S>;
