// SPDX-License-Identifier: Apache-2.0
// The allocation-free formatter used for on-target reports.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "attractor/core/result.hpp"
#include "attractor/core/text.hpp"

using attractor::Text;

TEST(Text, Integers) {
  Text<64> t;
  t << 0 << ' ' << -42 << ' ' << 123456789u << ' ' << std::numeric_limits<long long>::min();
  EXPECT_STREQ(t.c_str(), "0 -42 123456789 -9223372036854775808");
}

TEST(Text, Scientific) {
  Text<64> t;
  t.scientific(1.0, 3) << ' ';
  t.scientific(-0.000123456, 4) << ' ';
  t.scientific(9.9999, 3) << ' ';
  t.scientific(0.0, 2);
  EXPECT_STREQ(t.c_str(), "1.00e+00 -1.235e-04 1.00e+01 0.0e+00");
}

TEST(Text, FixedAndSpecials) {
  Text<64> t;
  t.fixed(3.14159, 3) << ' ';
  t.fixed(-0.5, 0) << ' ';
  t.fixed(std::nan(""), 2) << ' ' << std::numeric_limits<double>::infinity();
  EXPECT_STREQ(t.c_str(), "3.142 -1 nan inf");
}

TEST(Text, TruncatesInsteadOfOverflowing) {
  Text<8> t;
  t << "0123456789";
  EXPECT_STREQ(t.c_str(), "0123456");
  EXPECT_TRUE(t.truncated());
}

TEST(Result, CarriesValueOrError) {
  attractor::Result<int> ok(5), bad(attractor::Error::singular);
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 5);
  EXPECT_FALSE(bad);
  EXPECT_EQ(bad.error(), attractor::Error::singular);
  EXPECT_STREQ(attractor::to_string(bad.error()), "singular");
  // An error constructed from Error::none is still an error, never a silent success.
  attractor::Result<int> odd(attractor::Error::none);
  EXPECT_FALSE(odd.ok());
}
