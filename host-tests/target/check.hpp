// SPDX-License-Identifier: Apache-2.0
// Minimal check harness for on-target test images: each check prints one line through the
// board console; main() returns finish(), which the startup code turns into the semihosting
// exit code (0 = all passed), so CTest sees failures without parsing output.
#pragma once

#include "attractor/board/board.hpp"
#include "attractor/core/text.hpp"

namespace attractor::target_test {

class Checker {
 public:
  explicit Checker(const char* suite) {
    Text<96> t;
    t << "[" << board::name << "] " << suite << "\n";
    board::write(t.c_str());
  }

  // Passes when value <= bound (and value is not NaN).
  bool le(const char* what, double value, double bound) { return report(what, value <= bound, value, "<=", bound); }
  // Passes when value >= bound.
  bool ge(const char* what, double value, double bound) { return report(what, value >= bound, value, ">=", bound); }
  // Passes when |value - expected| <= tol.
  bool near(const char* what, double value, double expected, double tol) {
    const double d = value - expected;
    return report(what, (d < 0 ? -d : d) <= tol, value, "~", expected);
  }
  bool is_true(const char* what, bool ok) { return report(what, ok, ok ? 1.0 : 0.0, "==", 1.0); }

  int failures() const { return failures_; }

  // Summary line; returns the exit code (0 on success).
  int finish() {
    Text<96> t;
    t << (checks_ - failures_) << " passed, " << failures_ << " failed\n";
    board::write(t.c_str());
    return failures_ == 0 ? 0 : 1;
  }

 private:
  bool report(const char* what, bool ok, double value, const char* rel, double bound) {
    ++checks_;
    if (!ok) ++failures_;
    Text<200> t;
    t << (ok ? "  ok   " : "  FAIL ") << what << ": ";
    t.scientific(value, 6);
    t << " " << rel << " ";
    t.scientific(bound, 6);
    t << "\n";
    board::write(t.c_str());
    return ok;
  }

  int checks_ = 0;
  int failures_ = 0;
};

}  // namespace attractor::target_test
