// SPDX-License-Identifier: Apache-2.0
// Strict number parsing for the host tools: a number is the whole token or an error; ranges are
// checked with messages that name the option and the violated bound. Host-only.
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "attractor/core/facts.hpp"

namespace attractor::cli {

// The shortest text that reads back to v exactly (so a rejected value is never printed as one
// that lies inside the range).
inline std::string exact(double v) {
  char b[40];
  for (int p = 6; p <= 17; ++p) {
    std::snprintf(b, sizeof b, "%.*g", p, v);
    if (std::strtod(b, nullptr) == v || std::isnan(v)) break;
  }
  return b;
}

// Whole token as one strtod number (nan/inf/overflow parse and are reported as not finite by the
// range check). No leading or trailing space, no empty token.
inline bool parse_number(const std::string& s, double& out) {
  if (s.empty() || s.size() > 64 || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  if (s.find('\0') != std::string::npos) return false;
  const char* c = s.c_str();
  char* end = nullptr;
  errno = 0;
  out = std::strtod(c, &end);
  return end != c && *end == '\0';
}

// Exactly n comma-separated strict numbers.
inline bool parse_list(const std::string& s, int n, std::vector<double>& out) {
  out.clear();
  std::size_t start = 0;
  for (int i = 0; i < n; ++i) {
    const std::size_t comma = s.find(',', start);
    const bool last = i + 1 == n;
    if (last != (comma == std::string::npos)) return false;
    double v;
    if (!parse_number(s.substr(start, last ? std::string::npos : comma - start), v)) return false;
    out.push_back(v);
    start = comma + 1;
  }
  return true;
}

// A range of facts.hpp (closed, open or unbounded ends, optionally "nonzero"; every number must
// also be finite), with the host's text of it.
struct Range : facts::Range {
  constexpr Range() = default;
  constexpr Range(const facts::Range& r) : facts::Range(r) {}  // NOLINT: a facts range is one
  // "0 < m", "0 <= g", "-1.57 < phi0 < 1.57", "m finite", "a != 0"
  std::string describe(const std::string& name) const {
    std::string s;
    if (std::isfinite(lo)) s += exact(lo) + (lo_open ? " < " : " <= ");
    s += name;
    if (std::isfinite(hi)) s += std::string(hi_open ? " < " : " <= ") + exact(hi);
    if (nonzero) return s == name ? name + " != 0" : s + ", " + name + " != 0";
    if (!std::isfinite(lo) && !std::isfinite(hi)) s += " finite";
    return s;
  }
};
constexpr Range any_finite() { return facts::any_finite(); }
constexpr Range positive() { return facts::positive(); }
constexpr Range non_negative() { return facts::non_negative(); }
constexpr Range between(double lo, double hi, bool open = false) { return facts::between(lo, hi, open); }
constexpr Range nonzero() { return facts::nonzero(); }

}  // namespace attractor::cli
