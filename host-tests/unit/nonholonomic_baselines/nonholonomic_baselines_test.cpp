// SPDX-License-Identifier: Apache-2.0
// The discrete nonholonomic integrators of paper 001 (integrate/nonholonomic_verlet.hpp, the
// nonholonomic Störmer–Verlet method (11); integrate/discrete_lagrange_dalembert.hpp, DLA) on
// the cotangent models: stepper conformance (order of convergence measured against the
// continuous Lagrange–d'Alembert flow, float and double, no allocation) and paper 000 §3.7's
// nonholonomic oscillator. The paper's examples each have their file (example*_test.cpp), the
// failure paths theirs (failure_paths_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "baselines_support.hpp"

using namespace attractor;
using namespace baselines_support;

namespace {

template <class T>
class BaselinesTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(BaselinesTyped, Scalars);

TYPED_TEST(BaselinesTyped, SecondOrderOnEveryModelWithoutAllocating) {
  using S = TypeParam;
  for (Method m : {Method::verlet, Method::verlet_remark5, Method::dla}) {
    expect_second_order(NonholonomicParticleModel<S>{}, NonholonomicParticleModel<double>{}, m, particle_x0(), 2, 20);
    expect_second_order(NonholonomicOscillatorModel<S>{}, NonholonomicOscillatorModel<double>{}, m, oscillator_x0(), 5,
                        50);
    ChaplyginSleighXYModel<S> sleigh;
    sleigh.prm = {S(1), S(1), S(0.2)};
    ChaplyginSleighXYModel<double> sleigh_d;
    sleigh_d.prm = sleigh_params();
    expect_second_order(sleigh, sleigh_d, m, sleigh_x0(), 5, 50);
  }
}

// Paper 000 §3.7's oscillator with both methods over 10^4 steps: y = cos t (the constraint
// force has no y part) to O(h²), and the energy H stays within O(h²) of H(0) with no drift.
TEST(Oscillator000, BothMethodsTrackCosTAndKeepTheEnergyBounded) {
  using Model = NonholonomicOscillatorModel<double>;
  const CotangentExtension<Model, EnergyRow::original> ext{Model{}};
  const double h = 0.01;
  for (Method m : {Method::verlet, Method::dla}) {
    Vec<double, 6> x = oscillator_x0();
    const double H0 = ext.energy(x);
    auto run_for = [&](auto stepper) {
      double worst_y = 0, dH_first = 0, dH_last = 0;
      for (int k = 1; k <= 10000; ++k) {
        ASSERT_EQ(step(stepper, x, h), Error::none);
        worst_y = std::max(worst_y, std::abs(x[1] - std::cos(k * h)));
        (k <= 5000 ? dH_first : dH_last) = std::max(k <= 5000 ? dH_first : dH_last, std::abs(ext.energy(x) - H0));
      }
      EXPECT_LT(worst_y, 1e-3) << int(m);
      EXPECT_LT(dH_last, 1e-3) << int(m);
      EXPECT_LT(dH_last, 2 * dH_first + 1e-6) << int(m);  // bounded, not drifting
    };
    if (m == Method::dla)
      run_for(*DiscreteLagrangeDAlembert<Model>::make(Model{}, x));
    else
      run_for(*NonholonomicVerlet<Model>::make(Model{}, x));
  }
}

}  // namespace
