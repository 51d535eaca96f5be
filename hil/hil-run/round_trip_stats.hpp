// SPDX-License-Identifier: Apache-2.0
// Round-trip latency of the link [µs, host clock]: count, min, max and percentiles in fixed
// memory, whatever the run's length (a 10^6-tick soak keeps the same 5 KiB).
//
// rt::CostStats (the firmware's tick costs) does not fit: its buckets are linear over a range
// chosen beforehand, while a round trip spans 20 µs (semihost FIFOs) to seconds (a stalled
// serial line) on one run. Here the buckets are log-linear (as in HdrHistogram): every value
// below 2·kSub µs has its own bucket; above it, each octave [2^k, 2^(k+1)) is cut into kSub
// equal buckets, so a bucket is at most 1/kSub (3.1 %) of its lower edge wide. Values of
// kOverflow µs and more (≈ 16.8 s, beyond any --timeout worth waiting) share the last bucket.
#pragma once

#include <cstdint>

namespace hil_run {

class RoundTripStats {
 public:
  static constexpr int kSubBits = 5;
  static constexpr std::uint64_t kSub = 1u << kSubBits;  // buckets per octave
  static constexpr int kTopOctave = 24;                  // the last regular octave ends at 2^24
  static constexpr std::uint64_t kOverflow = std::uint64_t(1) << kTopOctave;
  // 2·kSub exact buckets, kSub per octave from 2^(kSubBits+1) to 2^kTopOctave, one overflow.
  static constexpr int kBuckets = int(2 * kSub + kSub * (kTopOctave - kSubBits - 1) + 1);

  void add(std::uint64_t us) {
    if (count_ == 0 || us < min_) min_ = us;
    if (us > max_) max_ = us;
    ++count_;
    ++buckets_[bucket_of(us)];
  }

  std::uint64_t count() const { return count_; }
  std::uint64_t min() const { return min_; }
  std::uint64_t max() const { return max_; }

  // Nearest-rank percentile: the sample of rank ceil(p·n), p = per_10000 / 10 000 (integer, so
  // p99 of 100 samples is rank 99, not a rounding's 100). Reported as the largest value its
  // bucket can hold, clipped to [min, max]: exact below 2·kSub µs, in the overflow bucket (then
  // the max) and whenever the bucket's samples reach its upper edge; otherwise an upper bound
  // at most 3.1 % above the true sample. 0 when empty.
  std::uint64_t percentile(std::uint32_t per_10000) const {
    if (count_ == 0) return 0;
    if (per_10000 > 10000u) per_10000 = 10000u;
    std::uint64_t rank = (count_ * per_10000 + 9999u) / 10000u;
    if (rank < 1) rank = 1;
    std::uint64_t seen = 0;
    int b = 0;
    for (; b < kBuckets - 1; ++b) {
      seen += buckets_[b];
      if (seen >= rank) break;
    }
    std::uint64_t v = b == kBuckets - 1 ? max_ : upper_of(b);
    if (v > max_) v = max_;
    if (v < min_) v = min_;
    return v;
  }

  // The histogram by octave, for the summary: samples in [0, 64) for octave 0, in
  // [2^(k+5), 2^(k+6)) for octave k >= 1, and >= kOverflow in the last (kOctaves - 1).
  static constexpr int kOctaves = kTopOctave - kSubBits + 1;
  static std::uint64_t octave_low(int k) { return k <= 0 ? 0 : std::uint64_t(1) << (k + kSubBits); }
  std::uint64_t octave_count(int k) const {
    if (k < 0 || k >= kOctaves) return 0;
    if (k == kOctaves - 1) return buckets_[kBuckets - 1];
    const int first = k == 0 ? 0 : int(2 * kSub + kSub * std::uint64_t(k - 1));
    const int n = int(k == 0 ? 2 * kSub : kSub);
    std::uint64_t s = 0;
    for (int b = first; b < first + n; ++b) s += buckets_[b];
    return s;
  }

  // Bucket of a value and the largest value a bucket holds (public for the tests).
  static int bucket_of(std::uint64_t us) {
    if (us >= kOverflow) return kBuckets - 1;
    if (us < 2 * kSub) return int(us);
    int octave = kSubBits + 1;  // us in [2^octave, 2^(octave+1))
    while ((us >> (octave + 1)) != 0) ++octave;
    const std::uint64_t sub = (us >> (octave - kSubBits)) - kSub;  // 0 .. kSub-1
    return int(2 * kSub + kSub * std::uint64_t(octave - kSubBits - 1) + sub);
  }
  static std::uint64_t upper_of(int b) {
    if (b < int(2 * kSub)) return std::uint64_t(b);
    if (b >= kBuckets - 1) return ~std::uint64_t(0);
    const int octave = (b - int(2 * kSub)) / int(kSub) + kSubBits + 1;
    const std::uint64_t sub = std::uint64_t(b - int(2 * kSub)) % kSub;
    const std::uint64_t width = std::uint64_t(1) << (octave - kSubBits);
    return (std::uint64_t(1) << octave) + (sub + 1) * width - 1;
  }

 private:
  std::uint64_t count_ = 0, min_ = 0, max_ = 0;
  std::uint64_t buckets_[kBuckets] = {};
};

}  // namespace hil_run
