// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: attractor::Text<N> number formatting (lib/include/attractor/core/text.hpp).
// Input: a double (8 bytes), digits, decimals, an integer. Checks: no undefined behaviour
// (float-cast overflow included), the buffer always NUL-terminated and within capacity, and
// every finite number read back by strtod within the promised precision.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "attractor/core/text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 18) return 0;
  double v;
  std::memcpy(&v, data, 8);
  const int digits = int(data[8] % 20) - 1;    // -1..18: out-of-range values are clamped
  const int decimals = int(data[9] % 12) - 1;  // -1..10
  long long i;
  std::memcpy(&i, data + 10, 8);

  attractor::Text<64> s;
  s.scientific(v, digits);
  if (s.size() >= 64 || s.c_str()[s.size()] != '\0' || s.truncated()) std::abort();
  if (std::isfinite(v)) {
    const int d = digits < 1 ? 1 : digits > 17 ? 17 : digits;
    const double back = std::strtod(s.c_str(), nullptr);
    // d significant digits: relative error at most 10^(1-d). Text normalizes by repeated x10 and
    // /10, which loses up to ~300 ulp at extreme exponents: 15-17 digits are good to 1e-13 only.
    const double rel = std::max(std::pow(10.0, 1 - d), 1e-13);
    // Rounding near DBL_MAX may print a number beyond it ("2e+308"): strtod reads inf, correct.
    const bool beyond = !std::isfinite(back) && std::abs(v) >= 1e307;
    if (!beyond && !(std::abs(back - v) <= rel * std::abs(v) + 1e-300)) std::abort();
  } else if (std::strstr(s.c_str(), std::isnan(v) ? "nan" : "inf") == nullptr) {
    std::abort();
  }

  attractor::Text<64> f;
  f.fixed(v, decimals);
  if (f.size() >= 64 || f.truncated()) std::abort();
  if (std::isfinite(v)) {
    const double back = std::strtod(f.c_str(), nullptr);
    const int d = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
    // Fixed: absolute error half a unit of the last place; huge values come back in scientific.
    if (!(std::abs(back - v) <= 0.5 * std::pow(10.0, -d) * 1.000001 + 1e-6 * std::abs(v))) std::abort();
  }

  attractor::Text<8> small;  // truncation: flagged, never an overflow
  small << v << i;
  if (small.size() >= 8 || small.c_str()[small.size()] != '\0') std::abort();

  attractor::Text<32> n;
  n << i;
  if (std::strtoll(n.c_str(), nullptr, 10) != i) std::abort();
  return 0;
}
