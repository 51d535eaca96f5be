// SPDX-License-Identifier: Apache-2.0
// Where the conformance harness samples the rigid body: a random rotation (the RᵀR rows hold on
// SO(3) only, their gain group's set) and a momentum in a box; the inertia drawn too.
#pragma once

#include <Eigen/Geometry>

#include "conformance.hpp"
#include "rigid_body.hpp"

namespace attractor::test {

template <class S>
struct Conformance<RigidBody<S>> : ConformanceDefaults {
  static RigidBody<S> make(std::mt19937& rng) {
    const Vec<double, 3> I = uniform<3>(rng, 0.5, 3.0);
    return RigidBody<S>::make(S(I[0]), S(I[1]), S(I[2])).value();
  }
  static Vec<double, 12> sample(std::mt19937& rng, const RigidBody<S>&) {
    const Eigen::AngleAxisd turn(std::uniform_real_distribution<double>(0, 3.14159)(rng), unit_vector(rng));
    return RigidBody<double>::state(turn.toRotationMatrix(), uniform<3>(rng, -2.0, 2.0));
  }
};

}  // namespace attractor::test
