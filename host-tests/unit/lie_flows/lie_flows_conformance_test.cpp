// SPDX-License-Identifier: Apache-2.0
// The systems of paper 004 through the shared conformance harness (host-tests/support/
// conformance.hpp), sampled where they are used. One specialisation and one line per system.
#include <random>

#include "attractor/systems/sleigh_toda.hpp"
#include "conformance.hpp"

namespace attractor::test {

template <class S>
struct Conformance<SleighToda<S>> : ConformanceDefaults {
  static SleighToda<S> make(std::mt19937&) {
    SleighTodaParams<S> p;
    p.mass = S(2), p.inertia = S(0.7), p.offset = S(0.4);
    return SleighToda<S>::make(p).value();
  }
  static Vec<double, 2> sample(std::mt19937& rng, const SleighToda<S>&) {
    std::uniform_real_distribution<double> u(-2, 2);
    return Vec<double, 2>(u(rng), u(rng));
  }
};

}  // namespace attractor::test

namespace {
template <class S>
using SleighTodaSystem = attractor::SleighToda<S>;
}  // namespace

ATTRACTOR_CONFORMANCE(SleighTodaConformance, SleighTodaSystem);
