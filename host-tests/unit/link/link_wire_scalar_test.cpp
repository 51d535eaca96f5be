// SPDX-License-Identifier: Apache-2.0
// One wire scalar (link/wire_scalar.hpp), the building block of every frame's reader: read_checked
// returns the value when it is finite and within its limit (the limit itself included) and zero
// otherwise, so a rejected value never reaches the caller's arithmetic even where a frame reader
// would not discard the whole frame; the check it updates accumulates over a frame's values.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "attractor/link/byte_order.hpp"
#include "attractor/link/wire_scalar.hpp"

using attractor::link::read_checked;
using attractor::link::WireCheck;

template <class S>
class WireScalar : public ::testing::Test {};
using WireScalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(WireScalar, WireScalars);

TYPED_TEST(WireScalar, ReadCheckedPassesGoodValuesAndZeroesRejectedOnes) {
  using S = TypeParam;
  const float limit = 2.5f;
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    float wire;
    bool finite, in_range;
  };
  const Case cases[] = {{1.25f, true, true},  {-2.5f, true, true},
                        {2.5f, true, true},   {2.5000002f, true, false},
                        {-3.0f, true, false}, {inf, false, true},
                        {-inf, false, true},  {std::numeric_limits<float>::quiet_NaN(), false, true}};
  for (const Case& c : cases) {
    std::uint8_t bytes[4];
    attractor::link::put_f32(bytes, c.wire);
    WireCheck check;
    const S v = read_checked<S>(bytes, limit, check);
    EXPECT_EQ(check.finite, c.finite) << c.wire;
    EXPECT_EQ(check.in_range, c.in_range) << c.wire;
    EXPECT_EQ(v, c.finite && c.in_range ? S(c.wire) : S(0)) << c.wire;  // never NaN, Inf or beyond
  }
}

TYPED_TEST(WireScalar, TheCheckAccumulatesOverAFrame) {
  using S = TypeParam;
  std::uint8_t good[4], wide[4], nan[4];
  attractor::link::put_f32(good, 1.0f);
  attractor::link::put_f32(wide, 9.0f);
  attractor::link::put_f32(nan, std::numeric_limits<float>::quiet_NaN());
  WireCheck check;
  EXPECT_EQ(read_checked<S>(wide, 2.0f, check), S(0));
  EXPECT_EQ(read_checked<S>(good, 2.0f, check), S(1));  // a later good value clears nothing
  EXPECT_FALSE(check.in_range);
  EXPECT_TRUE(check.finite);
  EXPECT_EQ(read_checked<S>(nan, 2.0f, check), S(0));
  EXPECT_FALSE(check.finite);
}
