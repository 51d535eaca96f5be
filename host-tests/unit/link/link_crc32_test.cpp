// SPDX-License-Identifier: Apache-2.0
// CRC-32/ISO-HDLC of the HIL link (lib/include/attractor/link/crc32.hpp): the catalogue's check
// value, known vectors, incremental use. Cross-checked against Python's zlib and binascii on
// random data by CTest link.crosscheck_python (host-tests/link/crosscheck.py).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "attractor/link/crc32.hpp"
#include "no_alloc.hpp"

using attractor::link::crc32;
using attractor::link::crc32_final;
using attractor::link::crc32_init;
using attractor::link::crc32_update;

namespace {
std::uint32_t crc_of(const char* s) { return crc32(reinterpret_cast<const std::uint8_t*>(s), std::strlen(s)); }
constexpr std::uint8_t kCheck[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
}  // namespace

// The catalogue's check value, at compile time too.
static_assert(crc32(kCheck, sizeof kCheck) == 0xCBF43926u, "CRC-32/ISO-HDLC check value");
static_assert(attractor::link::kCrc32Table[1] == 0x77073096u, "table entry 1 of the reflected 0xEDB88320 table");

TEST(LinkCrc32, CheckValue) {
  attractor::test::NoAllocGuard guard;
  EXPECT_EQ(crc_of("123456789"), 0xCBF43926u);
  EXPECT_EQ(attractor::link::kCrc32Check, 0xCBF43926u);
}

TEST(LinkCrc32, KnownVectors) {
  EXPECT_EQ(crc32(nullptr, 0), 0x00000000u);
  EXPECT_EQ(crc_of("a"), 0xE8B7BE43u);
  EXPECT_EQ(crc_of("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
  const std::uint8_t zeros[32] = {};
  EXPECT_EQ(crc32(zeros, sizeof zeros), 0x190A55ADu);
}

TEST(LinkCrc32, IncrementalEqualsWhole) {
  const char* s = "The quick brown fox jumps over the lazy dog";
  const auto* p = reinterpret_cast<const std::uint8_t*>(s);
  const std::size_t n = std::strlen(s);
  for (std::size_t cut = 0; cut <= n; ++cut) {
    std::uint32_t st = crc32_init();
    st = crc32_update(st, p, cut);
    st = crc32_update(st, p + cut, n - cut);
    EXPECT_EQ(crc32_final(st), crc32(p, n)) << "cut at " << cut;
  }
}

TEST(LinkCrc32, EverySingleBitFlipChangesIt) {
  std::uint8_t d[64];
  for (int i = 0; i < 64; ++i) d[i] = std::uint8_t(i * 37 + 11);
  const std::uint32_t ref = crc32(d, sizeof d);
  for (int bit = 0; bit < 64 * 8; ++bit) {
    d[bit / 8] ^= std::uint8_t(1u << (bit % 8));
    EXPECT_NE(crc32(d, sizeof d), ref) << "bit " << bit;
    d[bit / 8] ^= std::uint8_t(1u << (bit % 8));
  }
}
