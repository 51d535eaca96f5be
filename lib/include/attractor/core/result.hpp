// SPDX-License-Identifier: Apache-2.0
// Errors are values: a Result<T> holds either a T or an Error code. No exceptions, no heap.
#pragma once

#include <type_traits>
#include <utility>

#if !defined(__arm__) || defined(__linux__)
#include <cstdio>
#include <cstdlib>
#define ATTRACTOR_RESULT_HOST 1
#endif

namespace attractor {

// Every error the library can report. Numbered explicitly: the codes travel over the
// HIL link and through semihosting exit codes, so they must not move.
// [[nodiscard]]: a function returning an Error (or a Result) cannot have it dropped silently;
// a caller that really means to ignore one writes `(void)` and says why.
enum class [[nodiscard]] Error : unsigned char{
    none = 0,
    invalid_parameter = 1,        // a parameter is NaN/Inf, or physically meaningless (m <= 0, ...)
    outside_stability_range = 2,  // a control gain outside the range that guarantees stability
    singular = 3,                 // a matrix that must be inverted is (numerically) singular
    non_finite = 4,               // NaN or Inf met where a finite value is required
    out_of_range = 5,             // a value outside its documented range
    stale = 6,                    // sensor data older than allowed
    overrun = 7,                  // a control tick did not finish within its budget
    corrupt_frame = 8,            // a frame failed its CRC or framing check
    envelope = 9,                 // plant state outside the supervised envelope
    stack = 10,                   // stack high-water mark past its limit (rt runtime, idle check)
};

// Short, stable names for reports.
constexpr const char* to_string(Error e) {
  switch (e) {
    case Error::none: return "none";
    case Error::invalid_parameter: return "invalid_parameter";
    case Error::outside_stability_range: return "outside_stability_range";
    case Error::singular: return "singular";
    case Error::non_finite: return "non_finite";
    case Error::out_of_range: return "out_of_range";
    case Error::stale: return "stale";
    case Error::overrun: return "overrun";
    case Error::corrupt_frame: return "corrupt_frame";
    case Error::envelope: return "envelope";
    case Error::stack: return "stack";
  }
  return "unknown";
}

namespace detail {

// The error of a Result whose value was read although it holds none. Firmware: the fault report
// names it (boards/common/fault.cpp); it is written once, just before the trap.
inline volatile Error result_fault_error = Error::none;

// Reading the value of an error Result is a programming error, never a silent default: on the host
// the process aborts naming the error (and `what`, the caller's expectation, if given); on the
// target the trap enters the fault handler, which drives the outputs to their safe state first.
[[noreturn]] inline void bad_result_access(Error e, const char* what) {
  result_fault_error = e;
#if defined(ATTRACTOR_RESULT_HOST)
  std::fprintf(stderr, "attractor: a Result holding the error '%s' was read as a value%s%s\n", to_string(e),
               what != nullptr ? ": " : "", what != nullptr ? what : "");
  std::abort();
#else
  (void)what;
  __builtin_trap();
#endif
}

}  // namespace detail

// Either a value or an error. T must be default-constructible (all our value types are
// fixed-size aggregates), which keeps this a plain struct with no placement tricks.
template <class T>
class [[nodiscard]] Result {
 public:
  static_assert(std::is_default_constructible<T>::value, "Result<T> needs a default T");
  Result(const T& value) : value_(value), error_(Error::none) {}                          // NOLINT: implicit by design
  Result(Error e) : value_(), error_(e == Error::none ? Error::invalid_parameter : e) {}  // NOLINT

  bool ok() const { return error_ == Error::none; }
  explicit operator bool() const { return ok(); }
  Error error() const { return error_; }

  // The value; on an error, detail::bad_result_access (abort on the host, the fault handler's safe
  // state on the target). Check ok() first, or use value_or / expect.
  const T& value() const { return checked(nullptr); }
  T& value() { return const_cast<T&>(checked(nullptr)); }
  const T& operator*() const { return checked(nullptr); }
  T& operator*() { return const_cast<T&>(checked(nullptr)); }
  const T* operator->() const { return &checked(nullptr); }
  T* operator->() { return &const_cast<T&>(checked(nullptr)); }

  // The value, or `fallback` on an error (a documented default the caller chose).
  T value_or(const T& fallback) const { return ok() ? value_ : fallback; }
  // The value where the caller knows it is there (a documented case, a checked configuration):
  // on an error, bad_result_access naming `what`.
  const T& expect(const char* what) const { return checked(what); }
  T& expect(const char* what) { return const_cast<T&>(checked(what)); }

 private:
  const T& checked(const char* what) const {
    if (error_ != Error::none) detail::bad_result_access(error_, what);
    return value_;
  }

  T value_;
  Error error_;
};

}  // namespace attractor
