// SPDX-License-Identifier: Apache-2.0
// Allocation-free text formatting for reports on the target (newlib-nano's printf family
// calls malloc, even for "%d"). Writes into a fixed buffer and truncates, never overflows.
#pragma once

#include <cstdint>

#include "attractor/core/finite.hpp"

namespace attractor {

template <int Capacity>
class Text {
  static_assert(Capacity >= 2, "Text needs room for one character and the terminator");

 public:
  Text() { buf_[0] = '\0'; }

  const char* c_str() const { return buf_; }
  int size() const { return len_; }
  bool truncated() const { return truncated_; }
  void clear() {
    len_ = 0;
    truncated_ = false;
    buf_[0] = '\0';
  }

  Text& put(char c) {
    if (len_ < Capacity - 1) {
      buf_[len_++] = c;
      buf_[len_] = '\0';
    } else {
      truncated_ = true;
    }
    return *this;
  }

  Text& operator<<(const char* s) {
    if (s == nullptr) s = "(null)";
    while (*s) put(*s++);
    return *this;
  }
  Text& operator<<(char c) { return put(c); }
  Text& operator<<(int v) { return integer(static_cast<long long>(v)); }
  Text& operator<<(long v) { return integer(static_cast<long long>(v)); }
  Text& operator<<(long long v) { return integer(v); }
  Text& operator<<(unsigned v) { return unsigned_integer(v); }
  Text& operator<<(unsigned long v) { return unsigned_integer(v); }
  Text& operator<<(unsigned long long v) { return unsigned_integer(v); }
  // Floating point: 7 significant digits in scientific notation (enough for float).
  Text& operator<<(float v) { return scientific(static_cast<double>(v), 7); }
  Text& operator<<(double v) { return scientific(v, 7); }

  Text& integer(long long v) {
    if (v < 0) {
      put('-');
      // -(v+1)+1 avoids overflow on the most negative value.
      return unsigned_integer(static_cast<unsigned long long>(-(v + 1)) + 1ull);
    }
    return unsigned_integer(static_cast<unsigned long long>(v));
  }

  Text& unsigned_integer(unsigned long long v) {
    char tmp[20];
    int n = 0;
    do {
      tmp[n++] = static_cast<char>('0' + v % 10u);
      v /= 10u;
    } while (v != 0u);
    while (n > 0) put(tmp[--n]);
    return *this;
  }

  Text& hex(std::uint32_t v) {
    *this << "0x";
    for (int s = 28; s >= 0; s -= 4) put("0123456789abcdef"[(v >> s) & 0xFu]);
    return *this;
  }

  // d.ddddddde+XX with `digits` significant digits (1..17). NaN/Inf spelled out.
  Text& scientific(double v, int digits) {
    if (!special(v)) return *this;
    if (digits < 1) digits = 1;
    if (digits > 17) digits = 17;
    if (v < 0) {
      put('-');
      v = -v;
    }
    int exp10 = 0;
    if (v != 0.0) {
      while (v >= 10.0) {
        v /= 10.0;
        ++exp10;
      }
      while (v < 1.0) {
        v *= 10.0;
        --exp10;
      }
    }
    // Round to `digits` significant digits, renormalizing if rounding carries (9.99 -> 10.0).
    double scale = 1.0;
    for (int i = 1; i < digits; ++i) scale *= 10.0;
    unsigned long long m = static_cast<unsigned long long>(v * scale + 0.5);
    unsigned long long limit = static_cast<unsigned long long>(scale * 10.0);
    if (m >= limit) {
      m /= 10u;
      ++exp10;
    }
    char d[17];
    for (int i = digits - 1; i >= 0; --i) {
      d[i] = static_cast<char>('0' + m % 10u);
      m /= 10u;
    }
    put(d[0]);
    if (digits > 1) {
      put('.');
      for (int i = 1; i < digits; ++i) put(d[i]);
    }
    put('e');
    put(exp10 < 0 ? '-' : '+');
    const int e = exp10 < 0 ? -exp10 : exp10;
    if (e < 10) put('0');
    return unsigned_integer(static_cast<unsigned>(e));
  }

  // Fixed point with `decimals` digits after the point (0..9); huge values fall back to
  // scientific so the output stays short and exact in meaning.
  Text& fixed(double v, int decimals) {
    if (!special(v)) return *this;
    if (decimals < 0) decimals = 0;
    if (decimals > 9) decimals = 9;
    unsigned long long scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10u;
    // v * scale must fit the 64-bit integer below (a larger one is a float-cast overflow, UB;
    // found by host-tests/fuzz/fuzz_text.cpp): such values fall back to scientific too.
    const double fits = 1e18 / static_cast<double>(scale);
    if (v >= 1e15 || v <= -1e15 || v >= fits || v <= -fits) return scientific(v, 7);
    if (v < 0) {
      put('-');
      v = -v;
    }
    const unsigned long long total = static_cast<unsigned long long>(v * static_cast<double>(scale) + 0.5);
    unsigned_integer(total / scale);
    if (decimals > 0) {
      put('.');
      unsigned long long frac = total % scale;
      char d[9];
      for (int i = decimals - 1; i >= 0; --i) {
        d[i] = static_cast<char>('0' + frac % 10u);
        frac /= 10u;
      }
      for (int i = 0; i < decimals; ++i) put(d[i]);
    }
    return *this;
  }

 private:
  // Writes nan/inf and returns false for them; true for an ordinary number.
  bool special(double v) {
    if (is_finite(v)) return true;
    if (v != v) {
      *this << "nan";
    } else {
      *this << (v < 0 ? "-inf" : "inf");
    }
    return false;
  }

  char buf_[Capacity];
  int len_ = 0;
  bool truncated_ = false;
};

}  // namespace attractor
