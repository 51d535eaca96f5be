// SPDX-License-Identifier: Apache-2.0
// HIL frames (lib/include/attractor/link/): sensor and actuator round trips in float and double,
// the fixed wire sizes and layout, the empty and boot frames, the skate's plausibility rule.
// The rejections are in link_frame_reject_test.cpp, the receiver in link_receiver_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/boot_frame.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/status_frame.hpp"
#include "attractor/plants/skate_rotor/wire.hpp"
#include "frame_bytes.hpp"
#include "no_alloc.hpp"

using namespace attractor::link;
using attractor::Error;
using attractor::rt::Mode;
using namespace frame_bytes;

static_assert(layout::header_size == 10, "header: version, type, sequence u32, tick u32");
static_assert(layout::sensor_payload_size == 36, "sensor payload: 9 binary32");
static_assert(layout::actuator_payload_size == 13, "actuator payload: 2 torques, 3 codes, u16 cost");
static_assert(layout::boot_payload_size == 8 && layout::hello_payload_size == 8, "boot and hello payloads");
static_assert(layout::status_payload_size == 72, "status payload: 18 counters");
static_assert(kProtocolVersion == 4,
              "version 4: refused sensor frames answered by name, the answer to junk names no frame");
static_assert(wire_size_of(FrameType::sensor) == 52, "sensor frame on the wire");
static_assert(wire_size_of(FrameType::actuator) == 29, "actuator frame on the wire");
static_assert(wire_size_of(FrameType::status) == 88, "status frame on the wire");
static_assert(wire_size_of(FrameType::boot) == 24 && wire_size_of(FrameType::reset) == 16 &&
                  wire_size_of(FrameType::hello) == 24,
              "boot, reset and hello frames");

template <class S>
class LinkFrame : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(LinkFrame, Scalars);

TYPED_TEST(LinkFrame, SensorRoundTrip) {
  using S = TypeParam;
  const SensorReading<S> in = sample_reading<S>();
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  SensorReading<S> out;
  FrameHeader h;
  {
    attractor::test::NoAllocGuard guard;
    ASSERT_EQ(encode_sensor_frame(0xFFFFFFFEu, 0x89ABCDEFu, in, wire, sizeof wire, n), LinkError::none);
    ASSERT_EQ(n, wire_size_of(FrameType::sensor));
    EXPECT_EQ(wire[n - 1], 0) << "delimiter";
    for (std::size_t i = 0; i + 1 < n; ++i) ASSERT_NE(wire[i], 0) << "no zero inside the frame";
    ASSERT_EQ(decode_sensor_frame(wire, n - 1, h, out), LinkError::none);
  }
  EXPECT_EQ(h.type, FrameType::sensor);
  EXPECT_EQ(h.sequence, 0xFFFFFFFEu);
  EXPECT_EQ(h.tick, 0x89ABCDEFu);
  // Exact in binary32: the values are representable or rounded once (double: to float).
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out.gyro[i], S(float(in.gyro[i])));
    EXPECT_EQ(out.vertical[i], S(float(in.vertical[i])));
    EXPECT_EQ(out.velocity[i], S(float(in.velocity[i])));
    EXPECT_EQ(out.rotor_rate[i], S(float(in.rotor_rate[i])));
  }
}

TYPED_TEST(LinkFrame, ActuatorRoundTrip) {
  using S = TypeParam;
  const ActuatorReport<S> in = sample_report<S>();
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ActuatorReport<S> out;
  FrameHeader h;
  {
    attractor::test::NoAllocGuard guard;
    ASSERT_EQ(encode_actuator_frame(3u, 99u, in, wire, sizeof wire, n), LinkError::none);
    ASSERT_EQ(n, wire_size_of(FrameType::actuator));
    ASSERT_EQ(decode_actuator_frame(wire, n - 1, h, out), LinkError::none);
  }
  EXPECT_EQ(h.type, FrameType::actuator);
  EXPECT_EQ(h.sequence, 3u);
  EXPECT_EQ(h.tick, 99u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out.torque[i], S(float(in.torque[i])));
  EXPECT_EQ(out.mode, Mode::safe);
  EXPECT_EQ(out.reason, Error::stale);
  EXPECT_EQ(out.tick_cost, 20700u);
  EXPECT_EQ(out.verdict, Verdict::late);
  // The u16 tick cost saturates rather than wraps.
  ActuatorReport<S> big = in;
  big.tick_cost = 70000;
  ASSERT_EQ(encode_actuator_frame(3u, 99u, big, wire, sizeof wire, n), LinkError::none);
  ASSERT_EQ(decode_actuator_frame(wire, n - 1, h, out), LinkError::none);
  EXPECT_EQ(out.tick_cost, 0xFFFFu);
}

TEST(LinkFrame, HelloAndGoodbyeAreEmptyFrames) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(encode_frame(FrameHeader{FrameType::goodbye, 5, 6}, nullptr, 0, wire, sizeof wire, n), LinkError::none);
  EXPECT_EQ(n, wire_size_of(FrameType::goodbye));
  FrameView v;
  ASSERT_EQ(decode_frame(wire, n - 1, v), LinkError::none);
  EXPECT_EQ(v.header.type, FrameType::goodbye);
  EXPECT_EQ(v.payload_size, 0u);
  SensorReading<float> r;
  EXPECT_EQ(unpack_sensor(v, r), LinkError::bad_type);
}

TEST(LinkFrame, ResetIsEmptyAndBootCarriesCountAndReason) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(encode_frame(FrameHeader{FrameType::reset, 5, 6}, nullptr, 0, wire, sizeof wire, n), LinkError::none);
  FrameView v;
  ASSERT_EQ(decode_frame(wire, n - 1, v), LinkError::none);
  EXPECT_EQ(v.header.type, FrameType::reset);
  attractor::rt::BootInfo b;
  EXPECT_EQ(unpack_boot(v, b), LinkError::bad_type);

  const attractor::rt::BootInfo in{0xA0B0C0D0u, attractor::rt::BootReason::host_request};
  ASSERT_EQ(encode_boot_frame(3, in, wire, sizeof wire, n), LinkError::none);
  EXPECT_EQ(n, wire_size_of(FrameType::boot));
  ASSERT_EQ(decode_frame(wire, n - 1, v), LinkError::none);
  EXPECT_EQ(v.header.type, FrameType::boot);
  EXPECT_EQ(v.header.sequence, 3u);
  ASSERT_EQ(unpack_boot(v, b), LinkError::none);
  EXPECT_EQ(b.resets, 0xA0B0C0D0u);
  EXPECT_EQ(b.reason, attractor::rt::BootReason::host_request);
  SensorReading<float> r;
  EXPECT_EQ(unpack_sensor(v, r), LinkError::bad_type) << "a boot frame is no sample";
}

TEST(LinkFrameReject, BootReasonAndReservedBytes) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(
      encode_boot_frame(0, attractor::rt::BootInfo{7, attractor::rt::BootReason::other_reset}, wire, sizeof wire, n),
      LinkError::none);
  const Bytes raw = decode_raw(strip(wire, n));
  FrameView v;
  attractor::rt::BootInfo b;
  ASSERT_EQ(decode_frame(encode_raw(raw, true).data(), raw.size() + 1, v), LinkError::none);
  ASSERT_EQ(unpack_boot(v, b), LinkError::none);
  EXPECT_EQ(b.reason, attractor::rt::BootReason::other_reset);
  for (std::size_t at : {layout::boot_reason, layout::boot_reserved, layout::boot_reserved + 2}) {
    Bytes m = raw;
    m[layout::header_size + at] = at == layout::boot_reason ? std::uint8_t(attractor::rt::kMaxBootReason + 1) : 1;
    const Bytes enc = encode_raw(m, true);
    ASSERT_EQ(decode_frame(enc.data(), enc.size(), v), LinkError::none);
    EXPECT_EQ(unpack_boot(v, b), LinkError::out_of_range) << at;
    EXPECT_EQ(b.resets, 0u) << "a rejected announcement reads as the default";
  }
}

// The skate's plausibility rule: the measured vertical has unit norm within ±0.1.
TEST(LinkFrame, SkateVerticalMustHaveUnitNorm) {
  using W = SkateRotorWire<float>;
  SensorReading<float> r = sample_reading<float>();  // |Γ| = 0.99999
  EXPECT_TRUE(W::plausible(r));
  r.vertical[2] += 0.25f;  // a bias along Γ: |Γ| ≈ 1.24
  EXPECT_FALSE(W::plausible(r));
  r.vertical = sample_reading<float>().vertical * 0.85f;  // a gain error: |Γ| = 0.85
  EXPECT_FALSE(W::plausible(r));
  r.vertical = sample_reading<float>().vertical * 1.09f;  // within the tolerance (noise)
  EXPECT_TRUE(W::plausible(r));
  r.vertical = sample_reading<float>().vertical * 1.11f;
  EXPECT_FALSE(W::plausible(r));
  // The blind spot, documented: a bias across Γ changes the norm at second order only.
  r.vertical << 0.4f, 0.0f, 1.0f;  // |Γ| = 1.077
  EXPECT_TRUE(W::plausible(r));
}

TEST(LinkFrame, LayoutIsLittleEndianAsDocumented) {
  const Bytes raw = decode_raw(sensor_encoded(0x04030201u, 0x08070605u));
  ASSERT_EQ(raw.size(), layout::header_size + layout::sensor_payload_size + layout::crc_size);
  const Bytes header(raw.begin(), raw.begin() + 10);
  EXPECT_EQ(header, (Bytes{4, 1, 1, 2, 3, 4, 5, 6, 7, 8}));
  // gyro[0] = 0.1 as binary32 0x3DCCCCCD, little-endian
  EXPECT_EQ(Bytes(raw.begin() + 10, raw.begin() + 14), (Bytes{0xCD, 0xCC, 0xCC, 0x3D}));
  // the last float: rotor speed 2 = 0.5 (0x3F000000)
  EXPECT_EQ(Bytes(raw.begin() + 42, raw.begin() + 46), (Bytes{0x00, 0x00, 0x00, 0x3F}));
}
