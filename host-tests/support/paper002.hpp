// SPDX-License-Identifier: Apache-2.0
// The spherical pendulum's initial state of paper 002 §2.3 (q0 = (0,1,0), p0 = (1,0,1), m = l = 1),
// shared by the tests that reproduce that paper's experiments.
#pragma once

#include "attractor/systems/spherical_pendulum.hpp"

namespace attractor::test {

template <class S>
Vec<S, 6> paper002_x0() {
  return SphericalPendulum<S>::state(Vec3<S>(S(0), S(1), S(0)), Vec3<S>(S(1), S(0), S(1)));
}

}  // namespace attractor::test
