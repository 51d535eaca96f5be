// SPDX-License-Identifier: Apache-2.0
// The generated systems (lib/include/attractor/generated/) through the conformance harness
// (conformance.hpp), sampled as their hand-written counterparts are.
#include <cmath>
#include <random>

#include "attractor/generated/knife_edge.hpp"
#include "attractor/generated/spherical_pendulum.hpp"
#include "conformance.hpp"

namespace attractor::test {

template <class S>
struct Conformance<generated::KnifeEdge<S>> : ConformanceDefaults {
  static generated::KnifeEdge<S> make(std::mt19937&) { return generated::KnifeEdge<S>::make().value(); }
  static Vec<double, 6> sample(std::mt19937& rng, const generated::KnifeEdge<S>&) {
    Vec<double, 6> x = uniform<6>(rng, -1.5, 1.5);
    const double s = std::sin(x[2]), c = std::cos(x[2]), side = x[3] * s - x[4] * c;
    x[3] -= side * s, x[4] += side * c;
    return x;
  }
};

template <class S>
struct Conformance<generated::SphericalPendulum<S>> : ConformanceDefaults {
  static generated::SphericalPendulum<S> make(std::mt19937&) {
    generated::SphericalPendulumParams<S> p;
    p.mass = S(1.3), p.gravity = S(9.81), p.length = S(0.7);
    return generated::SphericalPendulum<S>::make(p).value();
  }
  static Vec<double, 6> sample(std::mt19937& rng, const generated::SphericalPendulum<S>&) {
    Vec<double, 6> x;
    do x = uniform<6>(rng, -2.0, 2.0);
    while (x.head<3>().norm() < 0.5);
    return x;
  }
};

}  // namespace attractor::test

namespace {
template <class S>
using GeneratedKnifeEdge = attractor::generated::KnifeEdge<S>;
template <class S>
using GeneratedSphericalPendulum = attractor::generated::SphericalPendulum<S>;
}  // namespace

ATTRACTOR_CONFORMANCE(GeneratedKnifeEdgeConformance, GeneratedKnifeEdge);
ATTRACTOR_CONFORMANCE(GeneratedSphericalPendulumConformance, GeneratedSphericalPendulum);
