// SPDX-License-Identifier: Apache-2.0
// Errors are values: a Result<T> holds either a T or an Error code. No exceptions, no heap.
#pragma once

#include <type_traits>
#include <utility>

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

  // Access is only meaningful when ok(); on an error it yields a default T, never UB.
  const T& value() const { return value_; }
  T& value() { return value_; }
  const T& operator*() const { return value_; }
  T& operator*() { return value_; }
  const T* operator->() const { return &value_; }
  T* operator->() { return &value_; }

 private:
  T value_;
  Error error_;
};

}  // namespace attractor
