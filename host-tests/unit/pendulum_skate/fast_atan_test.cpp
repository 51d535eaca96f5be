// SPDX-License-Identifier: Apache-2.0
// core/fast_atan.hpp, the float arctan of the skate's invariant C2 (skate_c2_integral): its
// documented bound against std::atan (in double) over the range C2's argument reaches and beyond.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "attractor/core/fast_atan.hpp"
#include "attractor/systems/pendulum_skate.hpp"

namespace attractor {
namespace {

constexpr double kBound = 3e-7;  // the header's documented bound

double atan_error(float x) { return std::fabs(double(fast_atan(x)) - std::atan(double(x))); }

// C2's argument is √((I2−I3)/I3) Γ2 with |Γ2| ≤ 1: up to 9.3 with the §7.2 inertias. A grid of
// 2^20 points of [0, 16] and every float within 2^15 ulps of 1 (the worst case sits just above
// 1, where the two halves meet), both signs.
TEST(FastAtan, WithinItsBoundOverTheInvariantsRange) {
  const PendulumSkateParams<double> p{};
  ASSERT_LT(std::sqrt((p.I2 - p.I3) / p.I3), 16.0);
  double worst = 0;
  const auto check = [&](float x) { worst = std::fmax(worst, std::fmax(atan_error(x), atan_error(-x))); };
  for (int i = 0; i <= (1 << 20); ++i) check(16.0f * float(i) / float(1 << 20));
  float below = 1.0f, above = 1.0f;
  for (int i = 0; i < (1 << 15); ++i) {
    check(below = std::nextafter(below, 0.0f));
    check(above = std::nextafter(above, 2.0f));
  }
  EXPECT_LT(worst, kBound);
  EXPECT_GT(worst, 1e-8);  // a polynomial, not atanf: the check can see an error
}

TEST(FastAtan, WithinItsBoundFarOutAndAtTheEnds) {
  double worst = 0;
  for (double x = 16.0; x < 1e30; x *= 1.001) worst = std::fmax(worst, atan_error(float(x)));
  EXPECT_LT(worst, kBound);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_NEAR(fast_atan(inf), M_PI / 2, kBound);
  EXPECT_NEAR(fast_atan(-inf), -M_PI / 2, kBound);
  EXPECT_EQ(fast_atan(0.0f), 0.0f);
  EXPECT_TRUE(std::isnan(fast_atan(std::numeric_limits<float>::quiet_NaN())));
}

// The float C2 integral through fast_atan against the double one (std::atan), over |Γ2| ≤ 1.
TEST(FastAtan, SkateC2IntegralInFloatMatchesDouble) {
  const PendulumSkateParams<double> p{};
  for (double G2 = -1.0; G2 <= 1.0; G2 += 1.0 / 1024) {
    const double A = skate_c2_integral(p.I2, p.I3, G2);
    const float Af = skate_c2_integral(float(p.I2), float(p.I3), float(G2));
    EXPECT_NEAR(Af, A, 1e-6 * (1 + std::fabs(A))) << "G2 " << G2;
  }
}

}  // namespace
}  // namespace attractor
