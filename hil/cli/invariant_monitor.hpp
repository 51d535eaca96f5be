// SPDX-License-Identifier: Apache-2.0
// The measuring loop's bookkeeping, one class for attractor-sim, attractor-paper and the tests:
// a run's invariant deviations F_i(x) - F_i(x0), evaluated in double from the state (so a float
// run shows the state's own error, not the rounding of the evaluation), their max and final
// absolute values, and the blow-up rule: a non-finite state or a deviation beyond 1 + |F_i(x0)|
// (the invariant has lost all its value) stops the run, and stopped() says why. Each invariant
// has a kind, so the summary can give the worst constraint and the worst energy error.
// Not a template (pointers to M doubles): compiled once per tool, whatever the systems. Host-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "attractor/core/facts.hpp"

namespace attractor::cli {

// What an invariant is: a holonomic constraint (or its hidden constraint), an energy, a momentum
// (first integral of a symmetry or a Casimir) or a row of a group constraint (R^T R = I).
// Its name (JSON key, CSV column d<name>) and kind: the lib's facts.
using InvariantKind = facts::InvariantKind;
using InvariantInfo = facts::Invariant;
using facts::to_string;

// Beyond |F(x) - F(x0)| > 1 + |F(x0)| the run is not an approximation any more.
inline bool drift_insane(double dev, double f0) { return !(std::abs(dev) <= 1.0 + std::abs(f0)); }

class InvariantMonitor {
 public:
  static constexpr int kMaxInvariants = 16;

  // F0: the invariants at x0 (m values). Every row is watched by the sanity rule unless unwatch()ed.
  InvariantMonitor(const InvariantInfo* info, int m, const double* F0) : info_(info), m_(m) {
    if (m < 1 || m > kMaxInvariants) throw std::logic_error("InvariantMonitor: 1..16 invariants");
    for (int i = 0; i < m; ++i) F0_[i] = F0[i], watched_[i] = true;
  }
  // A row whose drift is reported but does not stop the run (e.g. an invariant of a model the
  // plant does not follow).
  void unwatch(int i) { watched_[i] = false; }

  // The invariants F of the state after one more step; false once the run must stop. A
  // non-finite state or F is not recorded (the last finite values stay the summary).
  bool record(const double* F, bool state_finite = true) {
    for (int i = 0; i < m_ && state_finite; ++i) state_finite = std::isfinite(F[i]);
    if (!state_finite) {
      stop("non_finite_state");
      return false;
    }
    for (int i = 0; i < m_; ++i) {
      dev_[i] = F[i] - F0_[i];
      final_[i] = std::abs(dev_[i]);
      max_[i] = std::max(max_[i], final_[i]);
      max_since_mark_[i] = std::max(max_since_mark_[i], final_[i]);
      if (watched_[i] && drift_insane(dev_[i], F0_[i])) stop("invariant_drift_beyond_sanity");
    }
    ++records_;
    return stopped_ == nullptr;
  }
  // Starts a new window for max_since_mark() (e.g. the second half of a run); max_abs() keeps
  // the whole run.
  void mark() {
    for (int i = 0; i < m_; ++i) max_since_mark_[i] = 0;
  }
  // Stops the run for a reason of the caller's (the first reason given stays).
  void stop(const char* why) {
    if (stopped_ == nullptr) stopped_ = why;
  }

  int size() const { return m_; }
  const InvariantInfo& info(int i) const { return info_[i]; }
  double initial(int i) const { return F0_[i]; }
  double deviation(int i) const { return dev_[i]; }  // signed, of the last record
  double max_abs(int i) const { return max_[i]; }
  double final_abs(int i) const { return final_[i]; }
  double max_since_mark(int i) const { return max_since_mark_[i]; }  // the whole run if never mark()ed
  const char* stopped() const { return stopped_; }
  int64_t records() const { return records_; }
  // Max over the rows of one kind (0 when the system has none of that kind).
  double worst(InvariantKind k) const {
    double w = 0;
    for (int i = 0; i < m_; ++i)
      if (info_[i].kind == k) w = std::max(w, max_[i]);
    return w;
  }
  bool has(InvariantKind k) const {
    for (int i = 0; i < m_; ++i)
      if (info_[i].kind == k) return true;
    return false;
  }

 private:
  const InvariantInfo* info_;
  int m_;
  double F0_[kMaxInvariants] = {}, dev_[kMaxInvariants] = {}, max_[kMaxInvariants] = {}, final_[kMaxInvariants] = {};
  double max_since_mark_[kMaxInvariants] = {};
  bool watched_[kMaxInvariants] = {};
  const char* stopped_ = nullptr;
  int64_t records_ = 0;
};

}  // namespace attractor::cli
