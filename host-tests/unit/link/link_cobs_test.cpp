// SPDX-License-Identifier: Apache-2.0
// COBS framing of the HIL link (lib/include/attractor/link/cobs.hpp): the published examples
// (Cheshire & Baker 1999; the same table as Wikipedia's "Consistent Overhead Byte Stuffing"),
// round trips, and every malformed input rejected without reading or writing out of bounds.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "attractor/link/cobs.hpp"
#include "no_alloc.hpp"

using attractor::link::cobs_decode;
using attractor::link::cobs_encode;
using attractor::link::LinkError;
using Bytes = std::vector<std::uint8_t>;

namespace {
Bytes encode(const Bytes& in) {
  Bytes out(in.size() + 1, 0xAA);
  EXPECT_EQ(cobs_encode(in.data(), in.size(), out.data(), out.size()), LinkError::none);
  return out;
}
LinkError decode(const Bytes& in, Bytes* out = nullptr) {
  // Exact-size heap buffers: ASan reports any access past either end.
  Bytes o(in.empty() ? 0 : in.size() - 1);
  const LinkError e = cobs_decode(in.data(), in.size(), o.data(), o.size());
  if (out != nullptr) *out = o;
  return e;
}
Bytes iota(int first, int count) {
  Bytes b;
  for (int i = 0; i < count; ++i) b.push_back(std::uint8_t(first + i));
  return b;
}
Bytes cat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
}  // namespace

TEST(LinkCobs, PublishedExamples) {
  EXPECT_EQ(encode({}), (Bytes{0x01}));
  EXPECT_EQ(encode({0x00}), (Bytes{0x01, 0x01}));
  EXPECT_EQ(encode({0x00, 0x00}), (Bytes{0x01, 0x01, 0x01}));
  EXPECT_EQ(encode({0x00, 0x11, 0x00}), (Bytes{0x01, 0x02, 0x11, 0x01}));
  EXPECT_EQ(encode({0x11, 0x22, 0x00, 0x33}), (Bytes{0x03, 0x11, 0x22, 0x02, 0x33}));
  EXPECT_EQ(encode({0x11, 0x22, 0x33, 0x44}), (Bytes{0x05, 0x11, 0x22, 0x33, 0x44}));
  EXPECT_EQ(encode({0x11, 0x00, 0x00, 0x00}), (Bytes{0x02, 0x11, 0x01, 0x01, 0x01}));
  // 254 nonzero bytes: one full block, code 0xFF, no trailing code.
  EXPECT_EQ(encode(iota(1, 254)), cat(Bytes{0xFF}, iota(1, 254)));
  // 0x00 then 253 nonzero bytes.
  EXPECT_EQ(encode(cat(Bytes{0x00}, iota(1, 253))), cat(Bytes{0x01, 0xFE}, iota(1, 253)));
}

TEST(LinkCobs, RoundTripsAndFixedSize) {
  std::mt19937 rng(12);
  Bytes in, enc(256), dec(256);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = rng() % 255;  // 0..254
    in.resize(n);
    const int zero_share = int(rng() % 4);  // sparse to dense zeros
    for (auto& b : in) b = (int(rng() % 4) < zero_share) ? 0 : std::uint8_t(rng());
    attractor::test::NoAllocGuard guard;
    ASSERT_EQ(cobs_encode(in.data(), n, enc.data(), n + 1), LinkError::none);
    for (std::size_t i = 0; i < n + 1; ++i) ASSERT_NE(enc[i], 0) << "no zero in the encoding";
    ASSERT_EQ(cobs_decode(enc.data(), n + 1, dec.data(), n), LinkError::none);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(dec[i], in[i]);
  }
}

TEST(LinkCobs, EncodeRefusesOversizeAndSmallBuffers) {
  Bytes in(255, 1), out(256);
  EXPECT_EQ(cobs_encode(in.data(), 255, out.data(), out.size()), LinkError::bad_length);
  EXPECT_EQ(cobs_encode(in.data(), 10, out.data(), 10), LinkError::buffer_too_small);
}

TEST(LinkCobs, DecodeRejectsMalformed) {
  EXPECT_EQ(decode({}), LinkError::bad_length);
  EXPECT_EQ(decode(Bytes(256, 0x01)), LinkError::bad_length);
  EXPECT_EQ(decode({0x00}), LinkError::bad_framing);                    // a zero code
  EXPECT_EQ(decode({0x03, 0x11, 0x00, 0x33}), LinkError::bad_framing);  // a zero inside
  EXPECT_EQ(decode({0x05, 0x11, 0x22}), LinkError::bad_framing);        // code past the end (truncated)
  EXPECT_EQ(decode({0x02, 0x11, 0x22}), LinkError::bad_framing);        // second code 0x22 points past the end
  EXPECT_EQ(decode({0x01, 0x01, 0x05}), LinkError::bad_framing);        // last code past the end
  EXPECT_EQ(decode({0x02, 0x11}), LinkError::none);
  EXPECT_EQ(decode(cat(Bytes{0xFF}, iota(1, 253))), LinkError::bad_framing);        // 0xFF needs 254 bytes after it
  EXPECT_EQ(decode(cat(Bytes{0x01, 0xFF}, iota(1, 253))), LinkError::bad_framing);  // 0xFF not first
  Bytes small(1);
  const Bytes ok{0x03, 0x11, 0x22};
  EXPECT_EQ(cobs_decode(ok.data(), ok.size(), small.data(), small.size()), LinkError::buffer_too_small);
}

TEST(LinkCobs, EveryTruncationAndSingleByteChangeIsCaughtOrDecodesInBounds) {
  // Exhaustive over a frame with zeros: every prefix and every byte value at every position
  // either decodes (and re-encodes to the same bytes) or is rejected; ASan checks the bounds.
  const Bytes in{0x00, 0x11, 0x22, 0x00, 0x00, 0x33, 0x44, 0x55, 0x00, 0x66};
  const Bytes enc = encode(in);
  for (std::size_t n = 0; n < enc.size(); ++n) {
    Bytes pre(enc.begin(), enc.begin() + long(n));
    Bytes out;
    if (decode(pre, &out) == LinkError::none) {
      EXPECT_EQ(encode(out), pre);
    }
  }
  for (std::size_t pos = 0; pos < enc.size(); ++pos) {
    for (int v = 0; v < 256; ++v) {
      Bytes m = enc;
      m[pos] = std::uint8_t(v);
      Bytes out;
      if (decode(m, &out) == LinkError::none) {
        EXPECT_EQ(encode(out), m) << pos << " " << v;
      }
    }
  }
}
