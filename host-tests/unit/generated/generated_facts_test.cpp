// SPDX-License-Identifier: Apache-2.0
// The facts tables the model compiler writes (core/facts.hpp): one name per state and per
// invariant row, the documented case of the description, and the parameter ranges refusing
// through the Params' validate() with the refused parameter and rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "attractor/generated/knife_edge.hpp"
#include "attractor/generated/spherical_pendulum.hpp"

using namespace attractor;

namespace {

TEST(GeneratedFacts, TablesHaveTheSystemsShapes) {
  using KE = generated::KnifeEdgeFacts;
  using SP = generated::SphericalPendulumFacts;
  EXPECT_EQ(facts::count(KE::states), generated::KnifeEdge<double>::N);
  EXPECT_EQ(facts::count(KE::invariants), generated::KnifeEdge<double>::M);
  EXPECT_EQ(facts::count(SP::states), generated::SphericalPendulum<double>::N);
  EXPECT_EQ(facts::count(SP::invariants), generated::SphericalPendulum<double>::M);
  EXPECT_STREQ(KE::states[2], "phi");
  EXPECT_EQ(KE::invariants[0].kind, facts::InvariantKind::constraint);
  EXPECT_EQ(KE::invariants[2].kind, facts::InvariantKind::momentum);
  EXPECT_EQ(SP::invariants[2].kind, facts::InvariantKind::energy);
  EXPECT_EQ(KE::documented.x0[5], 0.5);
  EXPECT_EQ(KE::documented.h, 1e-3);
  EXPECT_EQ(KE::documented.gain_of(1), 1000.0);
  EXPECT_STREQ(SP::documented.method, "feedback-rk4");
  // The defaults are the facts'; the documented state lies on the constraints.
  const auto sys = generated::SphericalPendulum<double>::make().value();
  Vec<double, 6> x0;
  for (int i = 0; i < 6; ++i) x0[i] = SP::documented.x0[i];
  const auto F = sys.invariants(x0);
  EXPECT_EQ(F[0], 1.0);
  EXPECT_EQ(F[1], 0.0);
}

TEST(GeneratedFacts, ParametersOutsideTheirRangesAreRefusedByName) {
  generated::KnifeEdgeParams<float> p;
  EXPECT_EQ(p.validate(), Error::none);
  p.mass = 0;  // range (0, inf)
  EXPECT_EQ(p.validate(), Error::invalid_parameter);
  EXPECT_EQ(p.refusal().param, 0);
  ASSERT_NE(p.refusal().rule, nullptr);
  EXPECT_EQ(generated::KnifeEdge<float>::make(p).error(), Error::invalid_parameter);
  p.mass = 1;
  p.gravity = 0;  // [0, inf): allowed
  EXPECT_EQ(p.validate(), Error::none);
  p.inertia = -1;  // (0, inf)
  EXPECT_EQ(p.refusal().param, 1);
  EXPECT_STREQ(generated::KnifeEdgeFacts::params[1].name, "J");  // the description's option name
  p.inertia = 1;
  p.inclination = std::nanf("");
  EXPECT_EQ(p.validate(), Error::non_finite);
  generated::SphericalPendulumParams<double> q;
  q.length = -1;
  EXPECT_EQ(generated::SphericalPendulum<double>::make(q).error(), Error::invalid_parameter);
}

}  // namespace
