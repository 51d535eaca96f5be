// SPDX-License-Identifier: Apache-2.0
// The host tools' option layer (hil/cli): strict numbers, ranges and their messages, the config
// file's rules, CLI11 parsing (a value never swallows the next option) and the exit codes.
#include <gtest/gtest.h>

#include <Eigen/Core>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "auto_gains.hpp"
#include "closed_loop_options.hpp"
#include "numbers.hpp"
#include "run_support.hpp"
#include "spec.hpp"

namespace {

using namespace attractor::cli;

TEST(Numbers, WholeTokenOnly) {
  double v = 0;
  EXPECT_TRUE(parse_number("1.5", v));
  EXPECT_EQ(v, 1.5);
  EXPECT_TRUE(parse_number("-2e-3", v));
  for (const char* bad : {"", "1.5abc", "abc", " 1", "1 ", "1,2", "--1", "1e"})
    EXPECT_FALSE(parse_number(bad, v)) << bad;
  EXPECT_TRUE(parse_number("nan", v));  // parses; the range check refuses it
  EXPECT_FALSE(positive().contains(v));
}

TEST(Numbers, ListsHaveExactlyN) {
  std::vector<double> v;
  EXPECT_TRUE(parse_list("1,2,3", 3, v));
  EXPECT_EQ(v[2], 3);
  for (const char* bad : {"1,2", "1,2,3,4", "1,2,3x", "1,,3", ",1,2", "1,2,"})
    EXPECT_FALSE(parse_list(bad, 3, v)) << bad;
}

TEST(Numbers, RangesRefuseNonFiniteAndNameTheBound) {
  EXPECT_FALSE(any_finite().contains(INFINITY));
  EXPECT_FALSE(non_negative().contains(-1e-300));
  EXPECT_TRUE(non_negative().contains(0));
  EXPECT_FALSE(positive().contains(0));
  EXPECT_EQ(positive().describe("m"), "0 < m");
  EXPECT_EQ(between(1, 2).describe("k"), "1 <= k <= 2");
  // The printed value reads back exactly: never a value that looks inside the range.
  EXPECT_EQ(exact(-1.1013215859030836e-05), "-1.1013215859030836e-05");
  EXPECT_EQ(exact(0.1), "0.1");
}

Spec test_spec() {
  Spec s("t", "usage: t", "test");
  s.number("m", "kg", 1, positive(), "mass").flag("json", "json").list("q0", 2, "a,b", "q").output("csv", "F", "csv");
  return s;
}

int parse(const std::vector<std::string>& words, Args& a) {
  std::vector<char*> argv;
  std::vector<std::string> w = words;
  for (auto& s : w) argv.push_back(&s[0]);
  try {
    parse_args(a.spec_for_test(), int(argv.size()), argv.data(), a);
    return 0;
  } catch (const Failure& f) {
    return f.code;
  }
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Args, NumbersAreCheckedOnUse) {
  const Spec s = test_spec();
  Args a(s);
  EXPECT_EQ(parse({"t", "--m", "-1"}, a), 0);
  try {
    a.num("m");
    FAIL();
  } catch (const Failure& f) {
    EXPECT_EQ(f.code, exit_invalid);
    EXPECT_NE(std::string(f.what()).find("--m = -1 is outside its range: need 0 < m [kg]"), std::string::npos);
  }
}

TEST(Args, UsageErrorsFromTheCommandLine) {
  const Spec s = test_spec();
  for (const auto& words : std::vector<std::vector<std::string>>{
           {"t", "--bogus"}, {"t", "--m"}, {"t", "--m", "1", "--m", "2"}, {"t", "stray"}}) {
    Args a(s);
    EXPECT_EQ(parse(words, a), exit_usage) << words.back();
  }
}

TEST(Args, FlagsMeanTheSameOnTheCommandLineAndInTheConfig) {
  const Spec s = test_spec();
  Args a(s), b(s);
  EXPECT_EQ(parse({"t", "--json=0"}, a), 0);
  EXPECT_FALSE(a.flag("json"));
  EXPECT_EQ(parse({"t", "--config", write_file("j0.conf", "json=0\n")}, b), 0);
  EXPECT_FALSE(b.flag("json"));
  Args c(s);
  EXPECT_EQ(parse({"t", "--config", write_file("j1.conf", "json = yes\n")}, c), 0);
  EXPECT_TRUE(c.flag("json"));
}

TEST(Args, ConfigRules) {
  const Spec s = test_spec();
  const std::vector<std::pair<std::string, int>> cases = {
      {"m 2\n", exit_usage},        {"m=1\nm=2\n", exit_usage}, {"bogus=1\n", exit_usage},
      {"json=maybe\n", exit_usage}, {"config=x\n", exit_usage}, {"# c\n\n m = 2 \n", 0},
  };
  int i = 0;
  for (const auto& c : cases) {
    Args a(s);
    EXPECT_EQ(parse({"t", "--config", write_file("c" + std::to_string(i++) + ".conf", c.first)}, a), c.second)
        << c.first;
  }
  Args big(s);
  EXPECT_EQ(parse({"t", "--config", write_file("big.conf", std::string(kConfigMaxBytes + 10, 'x'))}, big), exit_io);
  Args zero(s);  // not a regular file (a device, a FIFO): refused before it is opened
  EXPECT_EQ(parse({"t", "--config", "/dev/zero"}, zero), exit_io);
  Args self(s);  // an output naming the config file
  const std::string cfg = write_file("self.conf", "m=2\n");
  EXPECT_EQ(parse({"t", "--config", cfg, "--csv", cfg}, self), exit_usage);
  Args missing(s);
  EXPECT_EQ(parse({"t", "--config", ::testing::TempDir() + "no/such.conf"}, missing), exit_io);
}

TEST(Args, AValueNeverSwallowsTheNextOption) {
  const Spec s = test_spec();
  for (const auto& words : std::vector<std::vector<std::string>>{{"t", "--csv", "--json"},
                                                                 {"t", "--csv=", "--json"},
                                                                 {"t", "--m=", "--json"},
                                                                 {"t", "--csv", ""},
                                                                 {"t", "--config", "--json"},
                                                                 {"t", "--json="},
                                                                 {"t", "--json", "--csv"}}) {
    Args a(s);
    EXPECT_EQ(parse(words, a), exit_usage) << words[1] << " " << words.back();
  }
  Args a(s);  // a value starting with "--" is given attached
  EXPECT_EQ(parse({"t", "--csv=--x.csv", "--m", "-1e-3", "--json=on"}, a), 0);
  EXPECT_EQ(a.text("csv"), "--x.csv");
  EXPECT_EQ(a.raw("m"), "-1e-3");
  EXPECT_TRUE(a.flag("json"));
}

TEST(Args, EmptyValuesAreRefusedInTheConfigToo) {
  const Spec s = test_spec();
  for (const char* text : {"json=\n", "csv=\n", "m =\n"}) {
    Args a(s);
    EXPECT_EQ(parse({"t", "--config", write_file("empty.conf", text)}, a), exit_usage) << text;
  }
}

TEST(Args, ConfigErrorsNeverQuoteTheLine) {
  const Spec s = test_spec();
  for (const char* text : {"root:$6$s3cr3t:1:2\n", "$6$s3cr3t/x=1\n"}) {
    Args a(s);
    try {
      std::vector<std::string> w = {"t", "--config", write_file("secret.conf", text)};
      std::vector<char*> argv;
      for (auto& x : w) argv.push_back(&x[0]);
      parse_args(s, int(argv.size()), argv.data(), a);
      FAIL() << text;
    } catch (const Failure& f) {
      EXPECT_EQ(f.code, exit_usage);
      EXPECT_NE(std::string(f.what()).find("line 1"), std::string::npos) << f.what();
      EXPECT_EQ(std::string(f.what()).find("s3cr3t"), std::string::npos) << f.what();
    }
  }
}

// The commands' own value parsers (--mismatch, --gains, --feedback) name a config-file value by
// its line too, never by its text.
TEST(Args, CommandParsersNeverQuoteAConfigValue) {
  Spec s("t", "usage: t", "test");
  s.text("mismatch", "K=F", "").text("gains", "K", "").text("feedback", "RATE", "");
  const std::vector<std::string> keys = {"m", "l"};
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"mismatch", "s3cr3t"},       {"mismatch", "s3cr3t=1"}, {"mismatch", "m=s3cr3t"},
      {"mismatch", "m=1,l=s3cr3t"}, {"gains", "s3cr3t"},      {"feedback", "s3cr3t"}};
  for (const auto& c : cases) {
    for (const bool from_config : {true, false}) {
      Args a(s);
      a.set(c.first, c.second, from_config ? "--config f.conf line 3" : "--" + c.first);
      try {
        if (c.first == "mismatch") parse_mismatch(a.text("mismatch"), keys, a.shown("mismatch"));
        if (c.first == "gains") parse_gains(a, 3, 1.0);
        if (c.first == "feedback") parse_feedback_rate(a, "skate");
        FAIL() << c.first << "=" << c.second;
      } catch (const Failure& f) {
        EXPECT_EQ(f.code, exit_usage) << f.what();
        const std::string w = f.what();
        if (from_config) {
          EXPECT_EQ(w.find("s3cr3t"), std::string::npos) << w;
          EXPECT_NE(w.find("line 3"), std::string::npos) << w;
        } else {
          EXPECT_NE(w.find("s3cr3t"), std::string::npos) << w;  // the command line is quoted
        }
      }
    }
  }
}

TEST(Args, WholeNumbersAreReadAsIntegers) {
  Spec s("t", "usage: t", "test");
  s.number("seed", "", 1, between(0, 9007199254740992.0), "seed");
  const std::vector<std::pair<std::string, int>> cases = {{"9007199254740993", exit_invalid},
                                                          {"18446744073709551616", exit_invalid},
                                                          {"1.5", exit_invalid},
                                                          {"-1", exit_invalid},
                                                          {"1e300", exit_invalid},
                                                          {"x", exit_usage}};
  for (const auto& c : cases) {
    Args a(s);
    a.set("seed", c.first, "--seed");
    try {
      a.whole("seed");
      ADD_FAILURE() << c.first;
    } catch (const Failure& f) {
      EXPECT_EQ(f.code, c.second) << c.first;
    }
  }
  Args a(s);
  EXPECT_EQ(a.whole("seed"), 1u);
  a.set("seed", "9007199254740992", "--seed");
  EXPECT_EQ(a.whole("seed"), 9007199254740992u);
  a.set("seed", "1e3", "--seed");
  EXPECT_EQ(a.whole("seed"), 1000u);
}

TEST(StepCount, LastQuarterWithoutOverflow) {
  for (int64_t n = 1; n <= 64; ++n)
    for (int64_t k = 0; k < n; ++k) EXPECT_EQ(k >= last_quarter_from(n), 4 * (k + 1) >= 3 * n) << n << " " << k;
  const int64_t big = 9000000000000000000;  // step_count's ceiling: 3 * big overflows int64
  EXPECT_EQ(last_quarter_from(big), big - big / 4 - 1);
}

TEST(Args, CommandLineOverridesTheConfig) {
  const Spec s = test_spec();
  Args a(s);
  EXPECT_EQ(parse({"t", "--m", "3", "--config", write_file("m.conf", "m=2\n")}, a), 0);
  EXPECT_EQ(a.num("m"), 3);
}

TEST(StepCount, SixtyFourBitAndRefusedWhenZeroOrAbsurd) {
  EXPECT_EQ(step_count(4294967.306, 0.001, true), 4294967306LL);  // no 32-bit wrap
  EXPECT_THROW(step_count(4294967.306, 0.001, false), Failure);
  EXPECT_THROW(step_count(1e-9, 1e-3, true), Failure);
  EXPECT_THROW(step_count(1e300, 1e-300, true), Failure);
  EXPECT_EQ(step_count(1, 1e-3, false), 1000);
}

TEST(Csv, WriteErrorsFail) {
  Csv c;
  EXPECT_THROW(c.open(""), Failure);
  Csv full;
  full.open("/dev/full");
  for (int i = 0; i < 10000; ++i) {
    try {
      full.print("%d\n", i);
    } catch (const Failure& f) {
      EXPECT_EQ(f.code, exit_io);
      return;
    }
  }
  EXPECT_THROW(full.close(), Failure);
}

TEST(Json, NonFiniteIsNull) {
  Json j;
  j["a"] = num(INFINITY), j["b"] = num(NAN), j["c"] = num(1.5);
  EXPECT_EQ(j.dump(), "{\"a\":null,\"b\":null,\"c\":1.5}");
}

// --noise: the samples have the standard deviation the option names, zero mean, and a seed
// gives the same sequence (mt19937_64 + Box-Muller, no library-defined distribution).
TEST(SensorNoise, SeededGaussianWithTheGivenDeviation) {
  SensorNoise a(0.5, 7), b(0.5, 7), c(0.5, 8);
  double sum = 0, sq = 0;
  const int n = 20000;
  bool differs = false;
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d x = a.add(Eigen::Vector2d(0, 0)), y = b.add(Eigen::Vector2d(0, 0));
    const Eigen::Vector2d z = c.add(Eigen::Vector2d(0, 0));
    ASSERT_EQ(x, y);
    differs = differs || x != z;
    sum += x.sum(), sq += x.squaredNorm();
  }
  EXPECT_TRUE(differs);
  const double mean = sum / (2 * n), sd = std::sqrt(sq / (2 * n) - mean * mean);
  EXPECT_NEAR(mean, 0.0, 0.01);
  EXPECT_NEAR(sd, 0.5, 0.01);
  SensorNoise off(0, 1);
  EXPECT_EQ(off.add(Eigen::Vector2d(1, 2)), Eigen::Vector2d(1, 2));
}

// --mismatch K=F,...: each key once, F > -1; the plant value is model x (1 + F).
TEST(Mismatch, ParsedAndApplied) {
  const std::vector<std::string> keys = {"m", "l"};
  ClosedLoopOptions o;
  o.mismatch = parse_mismatch("m=0.1,l=-0.25", keys);
  EXPECT_DOUBLE_EQ(o.plant("m", 2.0), 2.2);
  EXPECT_DOUBLE_EQ(o.plant("l", 0.8), 0.6);
  EXPECT_DOUBLE_EQ(o.plant("I1", 0.35), 0.35);
  auto code = [&](const std::string& t) {
    try {
      parse_mismatch(t, keys);
    } catch (const Failure& f) {
      return f.code;
    }
    return 0;
  };
  EXPECT_EQ(code("m=0.1,m=0.2"), exit_usage);
  EXPECT_EQ(code("x=0.1"), exit_usage);
  EXPECT_EQ(code("m"), exit_usage);
  EXPECT_EQ(code("m=-1"), exit_invalid);
  EXPECT_EQ(code("m=1e309"), exit_invalid);
  EXPECT_EQ(code(""), exit_usage);
}

}  // namespace
