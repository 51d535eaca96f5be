// SPDX-License-Identifier: Apache-2.0
// Per-tick cost statistics for the deterministic tick: min / max / mean and a fixed-bin
// histogram, updated in constant time from inside an interrupt (no division, no loop over
// the data, no allocation).
//
// Costs are unsigned counts of the board's cost clock (DWT CYCCNT cycles on silicon, timer
// counts under QEMU, see docs/runtime.md); this header does not care which.
#pragma once

#include <cstdint>

namespace attractor::rt {

// Bins histogram buckets of width 2^shift counts; the last bucket also collects everything
// above the range (it is the overflow bucket).
template <int Bins = 32>
class CostStats {
  static_assert(Bins >= 2, "a histogram needs at least one bucket and the overflow bucket");

 public:
  static constexpr int bins = Bins;

  explicit CostStats(unsigned shift = 0) : shift_(shift > 31u ? 31u : shift) {}

  // Smallest shift whose Bins buckets cover [0, range): chosen once, outside the tick.
  static unsigned shift_for_range(std::uint32_t range) {
    unsigned s = 0;
    while (s < 31u && (static_cast<std::uint64_t>(Bins) << s) < range) ++s;
    return s;
  }

  // Constant time: two compares, one shift, one clamp. The count, the sum and the buckets are
  // 64-bit: at 1 kHz they wrap after 5.8e8 years (32-bit counts wrapped after 49.7 days).
  void add(std::uint32_t v) {
    if (count_ == 0u || v < min_) min_ = v;
    if (v > max_) max_ = v;
    sum_ += v;
    ++count_;
    std::uint32_t b = v >> shift_;
    if (b >= static_cast<std::uint32_t>(Bins - 1)) {
      b = static_cast<std::uint32_t>(Bins - 1);
      if (v < overflow_min_) overflow_min_ = v;  // the overflow bucket's real lower edge
    }
    ++hist_[b];
  }

  void reset() { *this = CostStats(shift_); }

  // Adds another run's samples (not for the tick: loops over the buckets). With the same shift
  // the result is the one both runs' samples would give; with another, each of o's buckets goes
  // to the bucket of its lower edge here (min, max, mean and count stay exact).
  void merge(const CostStats& o) {
    if (o.count_ == 0u) return;
    min_ = (count_ == 0u || o.min_ < min_) ? o.min_ : min_;
    max_ = o.max_ > max_ ? o.max_ : max_;
    sum_ += o.sum_;
    count_ += o.count_;
    for (int i = 0; i < Bins; ++i) {
      std::uint32_t b = o.bin_low(i) >> shift_;
      b = b >= static_cast<std::uint32_t>(Bins - 1) ? static_cast<std::uint32_t>(Bins - 1) : b;
      hist_[b] += o.hist_[i];
    }
    overflow_min_ = o.overflow_min_ < overflow_min_ ? o.overflow_min_ : overflow_min_;
  }

  std::uint64_t count() const { return count_; }
  std::uint32_t min() const { return count_ ? min_ : 0u; }
  std::uint32_t max() const { return max_; }
  std::uint64_t sum() const { return sum_; }
  // Mean over all samples (0 when empty). Not for the tick: uses a division.
  double mean() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0; }

  unsigned shift() const { return shift_; }
  std::uint32_t bin_width() const { return 1u << shift_; }
  std::uint64_t bin(int i) const { return (i >= 0 && i < Bins) ? hist_[i] : 0u; }
  // Lower edge of bucket i in counts.
  std::uint32_t bin_low(int i) const { return static_cast<std::uint32_t>(i) << shift_; }

  // The bucket holding the q-quantile (q in [0,1]): its samples lie in
  // [bin_low(k), bin_low(k) + bin_width()) (the last bucket is open above). -1 when empty.
  int quantile_bin(double q) const {
    if (count_ == 0u) return -1;
    if (q < 0.0) q = 0.0;
    if (q > 1.0) q = 1.0;
    // Rank of the quantile sample, 1-based, nearest-rank definition.
    std::uint64_t rank = static_cast<std::uint64_t>(q * static_cast<double>(count_) + 0.999999);
    if (rank < 1u) rank = 1u;
    std::uint64_t acc = 0;
    for (int i = 0; i < Bins; ++i) {
      acc += hist_[i];
      if (acc >= rank) return i;
    }
    return Bins - 1;
  }

  // Median estimate: the median rank located inside its bucket by linear interpolation over
  // the bucket's true extent [max(bin_low, min), min(bin_high, max)] — the overflow bucket
  // spans [its smallest sample, the largest sample], not the histogram range — so the estimate
  // is within one bucket width of the true median in a regular bucket, between the overflow
  // samples in the overflow bucket, and exact when all samples are equal (a deterministic tick).
  std::uint32_t median_estimate() const {
    const int k = quantile_bin(0.5);
    if (k < 0) return 0u;
    std::uint64_t below = 0;  // samples in buckets before k
    for (int i = 0; i < k; ++i) below += hist_[i];
    const std::uint64_t rank = (count_ + 1u) / 2u;  // 1-based rank of the (lower) median
    std::uint64_t lo = (k == Bins - 1) ? overflow_min_ : bin_low(k);
    std::uint64_t hi =
        (k == Bins - 1) ? static_cast<std::uint64_t>(max_) : static_cast<std::uint64_t>(bin_low(k)) + bin_width() - 1u;
    if (lo < min()) lo = min();
    if (hi > max_) hi = max_;
    if (hi < lo) hi = lo;
    const std::uint64_t n = hist_[k];  // >= 1: the rank lies in this bucket
    // Position of the rank among the n samples of the bucket, 0 .. n-1, spread over [lo, hi].
    const std::uint64_t pos = rank > below ? rank - below - 1u : 0u;
    const double f = n > 1u ? static_cast<double>(pos) / static_cast<double>(n - 1u) : 0.5;
    return static_cast<std::uint32_t>(static_cast<double>(lo) + static_cast<double>(hi - lo) * f + 0.5);
  }

 private:
  unsigned shift_;
  std::uint32_t min_ = 0;
  std::uint32_t max_ = 0;
  std::uint64_t count_ = 0;
  std::uint64_t sum_ = 0;
  std::uint64_t hist_[Bins] = {};
  std::uint32_t overflow_min_ = 0xFFFFFFFFu;
  // 64-bit accumulators (a run-time test would need 2^32 samples): 32 bits wrap after 49.7
  // days at 1 kHz.
  static_assert(sizeof(count_) == 8 && sizeof(sum_) == 8 && sizeof(hist_[0]) == 8, "CostStats counters must be 64-bit");
};

}  // namespace attractor::rt
