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

// The value of an error Result is never a silent default: every accessor aborts naming the error
// (core/result.hpp; on the target the trap's fault report names it: rt_fault_result).
TEST(ResultDeathTest, ReadingAnErrorsValueAbortsNamingTheError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const attractor::Result<int> bad(attractor::Error::outside_stability_range);
  attractor::Result<int> bad_mutable(attractor::Error::singular);
  EXPECT_DEATH((void)bad.value(), "error 'outside_stability_range' was read as a value");
  EXPECT_DEATH((void)*bad, "outside_stability_range");
  EXPECT_DEATH((void)bad_mutable.value(), "error 'singular'");
  EXPECT_DEATH((void)*bad_mutable, "singular");
  struct Pair {
    int a = 1;
  };
  const attractor::Result<Pair> bad_pair(attractor::Error::non_finite);
  EXPECT_DEATH((void)bad_pair->a, "non_finite");
  EXPECT_DEATH((void)bad.expect("the documented case's gains"),
               "outside_stability_range' was read as a value: the documented case's gains");
}

TEST(Result, ValueOrAndExpectOnAValue) {
  const attractor::Result<int> ok(5), bad(attractor::Error::singular);
  EXPECT_EQ(ok.value_or(7), 5);
  EXPECT_EQ(bad.value_or(7), 7);
  EXPECT_EQ(ok.expect("five"), 5);
  EXPECT_EQ(ok.value(), 5);
  attractor::Result<int> m(3);
  m.value() = 4;
  EXPECT_EQ(*m, 4);
}
