// SPDX-License-Identifier: Apache-2.0
// What every simulation shares after parsing: the step count (64-bit, refused when 0 or absurd),
// progress on stderr for long runs, the CSV file (write errors fail the command), the summary
// (one JSON object through nlohmann::ordered_json, NaN/Inf as null) and the blow-up rule.
// Host-only.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "exit_codes.hpp"
#include "invariant_monitor.hpp"
#include "numbers.hpp"

namespace attractor::cli {

using Json = nlohmann::ordered_json;

constexpr double kMaxStepsUnforced = 1e9;     // above this a run needs --force
constexpr int64_t kProgressSteps = 10000000;  // runs at least this long report progress

// The step --h as the run's precision S holds it. A step S cannot hold as a normal number is
// invalid input (exit 5): beyond its range, or rounded to 0 or to a subnormal value (which has
// fewer significant bits than the precision promises; a step of 0 would also pass every
// stability check as h * stiffness = 0). Every command checks it before it counts the steps.
template <class S>
S step_in_precision(double h) {
  using Limits = std::numeric_limits<S>;
  const std::string precision = sizeof(S) == 4 ? "float" : "double";
  if (!(std::abs(h) <= double(Limits::max())))
    throw Failure(exit_invalid, "--h = " + exact(h) + " is beyond the range of " + precision);
  const S held = S(h);
  if (!(std::abs(held) >= Limits::min()))
    throw Failure(exit_invalid, "--h = " + exact(h) + (held == S(0) ? " rounds to 0" : " is subnormal") + " in " +
                                    precision + " (the smallest normal " + precision + " is " +
                                    exact(double(Limits::min())) + "); raise --h" +
                                    (sizeof(S) == 4 ? " or run --precision double" : ""));
  return held;
}

// The same check by the --precision word, for a command that counts its steps before it
// dispatches on the precision.
inline void check_step_precision(const std::string& precision, double h) {
  if (precision == "float")
    (void)step_in_precision<float>(h);
  else
    (void)step_in_precision<double>(h);
}

// Number of steps of length h covering T: round(T/h) in 64 bit. Refused (exit 5) when it is 0,
// not representable, or above 1e9 without --force (the message prints the estimate).
inline int64_t step_count(double T, double h, bool force, double seconds_per_step = 2e-7) {
  const double n = T / h;
  if (!std::isfinite(n) || n >= 9e18)
    throw Failure(exit_invalid, "--T/--h = " + exact(T) + "/" + exact(h) + " is not a usable step count");
  const auto steps = static_cast<int64_t>(std::llround(n));
  if (steps < 1)
    throw Failure(exit_invalid, "--T = " + exact(T) + " is shorter than half a step --h = " + exact(h) + " (0 steps)");
  if (n > kMaxStepsUnforced && !force) {
    char b[200];
    std::snprintf(b, sizeof b, "T/h = %.4g steps (estimated %.3g s of computing) is above %.0e; --force to run anyway",
                  n, n * seconds_per_step, kMaxStepsUnforced);
    throw Failure(exit_invalid, b);
  }
  return steps;
}

// First step index k (0-based) of the run's last quarter, 4 (k + 1) >= 3 steps, computed
// without the products (3 steps overflows int64 above 3.07e18 steps, reachable with --force):
// ceil(3 steps / 4) = steps - floor(steps / 4).
constexpr int64_t last_quarter_from(int64_t steps) { return steps - steps / 4 - 1; }

// Principal moments of inertia of a rigid body satisfy the triangle inequality; a warning on
// stderr (not an error: the model equations run with any positive values).
inline void warn_triangle(const char* cmd, const char* what, double a, double b, double c) {
  if (a > b + c || b > a + c || c > a + b)
    std::fprintf(stderr,
                 "%s: warning: %s = (%s, %s, %s) violate the triangle inequality (no rigid body has them); "
                 "running the model anyway\n",
                 cmd, what, exact(a).c_str(), exact(b).c_str(), exact(c).c_str());
}

// Long runs: an estimate after the first second, then a progress line every 10 s, on stderr.
class Progress {
 public:
  Progress(std::string cmd, int64_t total) : cmd_(std::move(cmd)), total_(total), on_(total >= kProgressSteps) {
    if (on_) std::fprintf(stderr, "%s: %lld steps; progress on stderr\n", cmd_.c_str(), static_cast<long long>(total));
    start_ = last_ = Clock::now();
  }
  void tick(int64_t done) {
    if (!on_ || (done & 0xFFFF) != 0) return;
    const auto now = Clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    if ((!estimated_ && since >= 1.0) || since >= 10.0) {
      const double el = std::chrono::duration<double>(now - start_).count();
      std::fprintf(stderr, "%s: %lld/%lld steps (%.1f%%), %.0f s elapsed, about %.0f s left\n", cmd_.c_str(),
                   static_cast<long long>(done), static_cast<long long>(total_), 100.0 * double(done) / double(total_),
                   el, el * double(total_ - done) / double(done));
      estimated_ = true;
      last_ = now;
    }
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::string cmd_;
  int64_t total_;
  bool on_, estimated_ = false;
  Clock::time_point start_, last_;
};

// CSV output; any write or close error is an I/O failure (exit 6), also /dev/full.
class Csv {
 public:
  Csv() = default;
  void open(const std::string& path, const std::string& label = "--csv") {
    path_ = path, label_ = label;
    if (path.empty()) throw Failure(exit_io, label_ + ": empty file name");
    f_ = std::fopen(path.c_str(), "w");
    if (f_ == nullptr) throw Failure(exit_io, label_ + ": cannot write '" + path + "'");
  }
  Csv(const Csv&) = delete;
  Csv& operator=(const Csv&) = delete;
  ~Csv() {
    if (f_) std::fclose(f_);
  }
  bool is_open() const { return f_ != nullptr; }
  std::FILE* file() const { return f_; }
  // fmt is a literal at every call site; clang cannot see that through the template.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  template <class... A>
  void print(const char* fmt, A... a) {
    if (f_ && std::fprintf(f_, fmt, a...) < 0) fail();
  }
#pragma GCC diagnostic pop
  void close() {
    if (!f_) return;
    const bool bad = std::ferror(f_) != 0;
    const int rc = std::fclose(f_);
    f_ = nullptr;
    if (bad || rc != 0) throw Failure(exit_io, label_ + ": error writing '" + path_ + "'");
  }

 private:
  void fail() {
    std::fclose(f_);
    f_ = nullptr;
    throw Failure(exit_io, label_ + ": error writing '" + path_ + "'");
  }
  std::string path_, label_;
  std::FILE* f_ = nullptr;
};

// --out DIR of the reports: created if missing; must then be a writable directory (exit 6).
inline void prepare_out_dir(const std::string& dir) {
  if (dir.empty()) throw Failure(exit_io, "--out: empty directory name");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Failure(exit_io, "--out: cannot create '" + dir + "': " + ec.message());
  if (!std::filesystem::is_directory(dir, ec)) throw Failure(exit_io, "--out: '" + dir + "' is not a directory");
}

// JSON numbers: finite or null (JSON has no NaN/Inf; nlohmann writes null for them too).
inline Json num(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

inline void print_json(const Json& j) { std::printf("%s\n", j.dump().c_str()); }

}  // namespace attractor::cli
