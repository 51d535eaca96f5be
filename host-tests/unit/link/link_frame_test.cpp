// SPDX-License-Identifier: Apache-2.0
// HIL frames (lib/include/attractor/link/): sensor and actuator round trips in float and double,
// the fixed wire sizes, and every rejection class of the decoder — bad_length, bad_framing,
// bad_crc, bad_version, bad_type, non_finite, out_of_range — each from a frame that is valid
// except for that one defect (CRC recomputed where the defect is not the CRC).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/boot_frame.hpp"
#include "attractor/link/frame_receiver.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/skate_rotor_wire.hpp"
#include "attractor/link/status_frame.hpp"
#include "no_alloc.hpp"

using namespace attractor::link;
using attractor::Error;
using attractor::rt::Mode;
using Bytes = std::vector<std::uint8_t>;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

template <class S>
SensorReading<S> sample_reading() {
  SensorReading<S> r;
  r.gyro << S(0.1), S(-0.25), S(3.5);
  r.vertical << S(0), S(0.0998), S(0.995);
  r.velocity << S(1.25), S(0), S(0);
  r.rotor_rate << S(-12.5), S(0.5), S(0);
  return r;
}

template <class S>
ActuatorReport<S> sample_report() {
  ActuatorReport<S> a;
  a.torque << S(-0.0125), S(2.5), S(0);
  a.mode = Mode::safe;
  a.reason = Error::stale;
  a.tick_cost = 20700;
  a.verdict = Verdict::late;
  return a;
}

// The encoded bytes of a frame without its delimiter, as a receiver hands them to the decoder.
Bytes strip(const std::uint8_t* wire, std::size_t n) { return Bytes(wire, wire + n - 1); }

// Raw frame bytes -> encoded (no delimiter), optionally recomputing the CRC first.
Bytes encode_raw(Bytes raw, bool fix_crc) {
  if (fix_crc) put_u32(raw.data() + raw.size() - 4, crc32(raw.data(), raw.size() - 4));
  Bytes enc(raw.size() + 1);
  EXPECT_EQ(cobs_encode(raw.data(), raw.size(), enc.data(), enc.size()), LinkError::none);
  return enc;
}
Bytes decode_raw(const Bytes& enc) {
  Bytes raw(enc.size() - 1);
  EXPECT_EQ(cobs_decode(enc.data(), enc.size(), raw.data(), raw.size()), LinkError::none);
  return raw;
}

Bytes sensor_encoded(std::uint32_t seq = 7, std::uint32_t tick = 42) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  EXPECT_EQ(encode_sensor_frame(seq, tick, sample_reading<double>(), wire, sizeof wire, n), LinkError::none);
  return strip(wire, n);
}

// A sensor frame whose payload float `index` (0..8) holds v, CRC valid.
Bytes sensor_with(int index, float v) {
  Bytes raw = decode_raw(sensor_encoded());
  put_f32(raw.data() + layout::header_size + 4 * std::size_t(index), v);
  return encode_raw(raw, true);
}

template <class S>
LinkError decode_sensor(const Bytes& enc, SensorReading<S>& r) {
  FrameHeader h;
  return decode_sensor_frame(enc.data(), enc.size(), h, r);
}
LinkError decode_sensor(const Bytes& enc) {
  SensorReading<double> r;
  return decode_sensor(enc, r);
}

}  // namespace

static_assert(layout::header_size == 10, "header: version, type, sequence u32, tick u32");
static_assert(layout::sensor_payload_size == 36, "sensor payload: 9 binary32");
static_assert(layout::actuator_payload_size == 13, "actuator payload: 2 torques, 3 codes, u16 cost");
static_assert(layout::boot_payload_size == 8 && layout::hello_payload_size == 8, "boot and hello payloads");
static_assert(layout::status_payload_size == 72, "status payload: 18 counters");
static_assert(kProtocolVersion == 3, "version 3: verdict, plant and schema in hello, lean frames, status frame");
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
  EXPECT_EQ(header, (Bytes{3, 1, 1, 2, 3, 4, 5, 6, 7, 8}));
  // gyro[0] = 0.1 as binary32 0x3DCCCCCD, little-endian
  EXPECT_EQ(Bytes(raw.begin() + 10, raw.begin() + 14), (Bytes{0xCD, 0xCC, 0xCC, 0x3D}));
  // the last float: rotor speed 2 = 0.5 (0x3F000000)
  EXPECT_EQ(Bytes(raw.begin() + 42, raw.begin() + 46), (Bytes{0x00, 0x00, 0x00, 0x3F}));
}

// ---------------------------------------------------------------- rejections, one class each

TEST(LinkFrameReject, BadLength) {
  const Bytes good = sensor_encoded();
  EXPECT_EQ(decode_sensor(Bytes{}), LinkError::bad_length);
  EXPECT_EQ(decode_sensor(Bytes(layout::min_encoded_size - 1, 0x01)), LinkError::bad_length);
  EXPECT_EQ(decode_sensor(Bytes(layout::max_encoded_size + 1, 0x01)), LinkError::bad_length);
  // One payload byte missing (a frame cut short), CRC valid: the type fixes the size.
  Bytes raw = decode_raw(good);
  raw.erase(raw.begin() + 20);
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::bad_length);
  // A sensor header on an actuator-sized body.
  raw = decode_raw(good);
  raw.insert(raw.begin() + 20, 32, std::uint8_t(1));
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::bad_length);
  // A status type on a sensor-sized body.
  raw = decode_raw(good);
  raw[layout::type] = std::uint8_t(FrameType::status);
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::bad_length);
}

TEST(LinkFrameReject, BadFraming) {
  Bytes enc = sensor_encoded();
  enc[0] = 0xFE;  // first code points past the end
  EXPECT_EQ(decode_sensor(enc), LinkError::bad_framing);
  enc = sensor_encoded();
  enc[10] = 0;  // a zero inside (the receiver would have split here; the decoder must still refuse)
  EXPECT_EQ(decode_sensor(enc), LinkError::bad_framing);
  enc = sensor_encoded();
  enc.push_back(0);  // delimiter passed along
  EXPECT_EQ(decode_sensor(enc), LinkError::bad_framing);
}

TEST(LinkFrameReject, BadCrcOnEverySingleBitFlip) {
  const Bytes raw = decode_raw(sensor_encoded());
  for (std::size_t bit = 0; bit < raw.size() * 8; ++bit) {
    Bytes m = raw;
    m[bit / 8] ^= std::uint8_t(1u << (bit % 8));
    EXPECT_EQ(decode_sensor(encode_raw(m, false)), LinkError::bad_crc) << "bit " << bit;
  }
}

TEST(LinkFrameReject, EveryByteValueAtEveryPositionIsRejectedOrIdentical) {
  // Any corruption of one encoded byte is detected (framing or CRC) unless it is no change.
  const Bytes enc = sensor_encoded();
  for (std::size_t pos = 0; pos < enc.size(); ++pos) {
    for (int v = 0; v < 256; ++v) {
      if (enc[pos] == v) continue;
      Bytes m = enc;
      m[pos] = std::uint8_t(v);
      const LinkError e = decode_sensor(m);
      EXPECT_TRUE(e == LinkError::bad_framing || e == LinkError::bad_crc) << pos << " " << v << " " << to_string(e);
    }
  }
}

TEST(LinkFrameReject, BadVersion) {
  Bytes raw = decode_raw(sensor_encoded());
  raw[layout::version] = 2;  // version 2 answers had no verdict: refused, not misread
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::bad_version);
  raw[layout::version] = 4;
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::bad_version);
  raw[layout::version] = 0;
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::bad_version);
}

TEST(LinkFrameReject, BadType) {
  Bytes raw = decode_raw(sensor_encoded());
  for (int t : {0, int(kMaxFrameType) + 1, 0xFF}) {
    raw[layout::type] = std::uint8_t(t);
    EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::bad_type) << t;
  }
  // A valid actuator frame is the wrong type for a sensor decoder, and the other way round.
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(encode_actuator_frame(1, 1, sample_report<float>(), wire, sizeof wire, n), LinkError::none);
  SensorReading<float> r = sample_reading<float>();
  FrameHeader h;
  EXPECT_EQ(decode_sensor_frame(wire, n - 1, h, r), LinkError::bad_type);
  EXPECT_EQ(r.gyro.norm(), 0.0f) << "a rejected reading is zero";
  const Bytes s = sensor_encoded();
  ActuatorReport<float> a = sample_report<float>();
  EXPECT_EQ(decode_actuator_frame(s.data(), s.size(), h, a), LinkError::bad_type);
  EXPECT_EQ(a.mode, Mode::safe);
  EXPECT_EQ(a.torque.norm(), 0.0f);
  EXPECT_EQ(encode_frame(FrameHeader{FrameType(9), 0, 0}, nullptr, 0, wire, sizeof wire, n), LinkError::bad_type);
}

TEST(LinkFrameReject, NonFiniteInEverySensorValue) {
  for (int i = 0; i < layout::sensor_floats; ++i) {
    for (float v : {kNaN, kInf, -kInf}) {
      SensorReading<float> r = sample_reading<float>();
      EXPECT_EQ(decode_sensor(sensor_with(i, v), r), LinkError::non_finite) << i << " " << v;
      EXPECT_EQ(r.gyro.norm() + r.vertical.norm() + r.velocity.norm() + r.rotor_rate.norm(), 0.0f);
    }
  }
  // A signalling NaN bit pattern and a NaN with payload, too.
  Bytes raw = decode_raw(sensor_encoded());
  put_u32(raw.data() + layout::header_size, 0x7F800001u);
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::non_finite);
  put_u32(raw.data() + layout::header_size, 0xFFFFFFFFu);
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::non_finite);
}

TEST(LinkFrameReject, OutOfRangeInEverySensorValue) {
  for (int i = 0; i < layout::sensor_floats; ++i) {
    const float lim = detail::sensor_limit(detail::kSensorField[i]);
    EXPECT_EQ(decode_sensor(sensor_with(i, lim)), LinkError::none) << i;
    EXPECT_EQ(decode_sensor(sensor_with(i, -lim)), LinkError::none) << i;
    EXPECT_EQ(decode_sensor(sensor_with(i, std::nextafter(lim, kInf))), LinkError::out_of_range) << i;
    EXPECT_EQ(decode_sensor(sensor_with(i, -std::numeric_limits<float>::max())), LinkError::out_of_range) << i;
  }
  // NaN wins over out of range when both are present (first reason in LinkError's order).
  Bytes raw = decode_raw(sensor_with(0, 1e9f));
  put_f32(raw.data() + layout::header_size + 4 * 8, kNaN);
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::non_finite);
}

TEST(LinkFrameReject, ActuatorValuesAndCodes) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(encode_actuator_frame(1, 1, sample_report<float>(), wire, sizeof wire, n), LinkError::none);
  const Bytes raw = decode_raw(strip(wire, n));
  auto with = [&](std::size_t offset, std::uint8_t v) {
    Bytes m = raw;
    m[layout::header_size + offset] = v;
    return encode_raw(m, true);
  };
  auto decode = [](const Bytes& enc) {
    FrameHeader h;
    ActuatorReport<double> a;
    return decode_actuator_frame(enc.data(), enc.size(), h, a);
  };
  EXPECT_EQ(decode(with(layout::actuator_mode, 2)), LinkError::out_of_range);
  EXPECT_EQ(decode(with(layout::actuator_reason, attractor::link::kMaxErrorCode + 1)), LinkError::out_of_range);
  EXPECT_EQ(decode(with(layout::actuator_reason, attractor::link::kMaxErrorCode)), LinkError::none);
  EXPECT_EQ(decode(with(layout::actuator_verdict, attractor::link::kMaxVerdict + 1)), LinkError::out_of_range);
  EXPECT_EQ(decode(with(layout::actuator_verdict, attractor::link::kMaxVerdict)), LinkError::none);
  for (int i = 0; i < layout::actuator_torques; ++i) {
    Bytes m = raw;
    put_f32(m.data() + layout::header_size + 4 * std::size_t(i), kNaN);
    EXPECT_EQ(decode(encode_raw(m, true)), LinkError::non_finite);
    put_f32(m.data() + layout::header_size + 4 * std::size_t(i), 1001.0f);
    EXPECT_EQ(decode(encode_raw(m, true)), LinkError::out_of_range);
  }
}

// ---------------------------------------------------------------- encoder side

TEST(LinkFrameEncode, RefusesWhatTheReceiverWouldReject) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 99;
  SensorReading<double> r = sample_reading<double>();
  r.rotor_rate[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(encode_sensor_frame(1, 1, r, wire, sizeof wire, n), LinkError::non_finite);
  EXPECT_EQ(n, 0u);
  // A component the wire does not carry is refused, never silently cut.
  for (int k = 0; k < 3; ++k) {
    r = sample_reading<double>();
    (k == 0 ? r.velocity[1] : k == 1 ? r.velocity[2] : r.rotor_rate[2]) = 0.5;
    EXPECT_EQ(encode_sensor_frame(1, 1, r, wire, sizeof wire, n), LinkError::out_of_range) << k;
  }
  r = sample_reading<double>();
  r.gyro[1] = 1e300;  // beyond binary32: refused, and never converted (UBSan would see it)
  EXPECT_EQ(encode_sensor_frame(1, 1, r, wire, sizeof wire, n), LinkError::out_of_range);
  EXPECT_EQ(to_wire(1e300), kInf);
  EXPECT_EQ(to_wire(-1e300), -kInf);
  EXPECT_TRUE(std::isnan(to_wire(std::numeric_limits<double>::quiet_NaN())));
  ActuatorReport<float> a = sample_report<float>();
  a.reason = attractor::Error(200);
  EXPECT_EQ(encode_actuator_frame(1, 1, a, wire, sizeof wire, n), LinkError::out_of_range);
  a = sample_report<float>();
  a.verdict = Verdict(attractor::link::kMaxVerdict + 1);  // unknown: the receiver refuses it
  EXPECT_EQ(encode_actuator_frame(1, 1, a, wire, sizeof wire, n), LinkError::out_of_range);
  a.verdict = Verdict(attractor::link::kMaxVerdict);
  EXPECT_EQ(encode_actuator_frame(1, 1, a, wire, sizeof wire, n), LinkError::none);
  a = sample_report<float>();
  a.torque[2] = 0.5f;  // the third torque is not carried
  EXPECT_EQ(encode_actuator_frame(1, 1, a, wire, sizeof wire, n), LinkError::out_of_range);
  EXPECT_EQ(encode_sensor_frame(1, 1, sample_reading<float>(), wire, wire_size_of(FrameType::sensor) - 1, n),
            LinkError::buffer_too_small);
  EXPECT_EQ(encode_frame(FrameHeader{FrameType::sensor, 0, 0}, wire, 3, wire, sizeof wire, n), LinkError::bad_length);
}

// ---------------------------------------------------------------- counters and receiver

TEST(LinkCounters, CountsEachLineFaultOnce) {
  LinkCounters c;
  for (int e = 0; e < attractor::link::kLinkErrorCount; ++e) c.count(LinkError(e));
  for (int e = 1; e <= layout::link_counters; ++e) EXPECT_EQ(c.rejected_by(LinkError(e)), 1u) << e;
  EXPECT_EQ(c.rejected_by(LinkError::none), 0u);
  EXPECT_EQ(c.rejected_by(LinkError::buffer_too_small), 0u);
  EXPECT_EQ(c.total_rejected(), std::uint32_t(layout::link_counters));
}

TEST(LinkReceiver, SplitsAStreamAndResynchronises) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(encode_sensor_frame(5, 6, sample_reading<float>(), wire, sizeof wire, n), LinkError::none);
  Bytes stream{0x13, 0x37, 0x00, 0x00};               // line noise, then delimiters (an empty frame)
  stream.insert(stream.end(), wire, wire + 20);       // a frame cut short by ...
  stream.insert(stream.end(), wire, wire + n);        // ... a complete one (resync at its delimiter)
  stream.insert(stream.end(), 300, std::uint8_t(7));  // an overlong run
  stream.push_back(0);
  stream.insert(stream.end(), wire, wire + n);

  FrameReceiver rx;
  std::vector<LinkError> results;
  int overflows = 0;
  for (std::uint8_t b : stream) {
    const FrameReceiver::Event e = rx.push(b);
    if (e == FrameReceiver::Event::overflow) ++overflows;
    if (e != FrameReceiver::Event::frame) continue;
    FrameHeader h;
    SensorReading<float> r;
    results.push_back(decode_sensor_frame(rx.data(), rx.size(), h, r));
  }
  // noise (2 bytes: too short), cut frame + complete frame joined (too long or broken), the
  // good frame is lost with the cut one; then the overflow; then a good frame.
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0], LinkError::bad_length);
  EXPECT_NE(results[1], LinkError::none);
  EXPECT_EQ(results[2], LinkError::none);
  EXPECT_EQ(overflows, 1);
  EXPECT_EQ(rx.pending(), 0u);
}

// The longest valid frame (a status frame: max_encoded_size bytes before its delimiter) is a
// frame; one byte more is an overflow, and the frame after it is whole again.
TEST(LinkReceiver, TakesTheLongestFrameAndDiscardsOneByteMore) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  StatusReport st;
  st.link.gaps = 3;
  ASSERT_EQ(encode_status_frame(7u, 8u, st, wire, sizeof wire, n), LinkError::none);
  ASSERT_EQ(n, layout::max_wire_size) << "the status frame is the longest frame";
  FrameReceiver rx;
  FrameReceiver::Event e = FrameReceiver::Event::none;
  for (std::size_t i = 0; i < n; ++i) e = rx.push(wire[i]);
  ASSERT_EQ(e, FrameReceiver::Event::frame);
  ASSERT_EQ(rx.size(), layout::max_encoded_size);
  FrameView v;
  EXPECT_EQ(decode_frame(rx.data(), rx.size(), v), LinkError::none);
  EXPECT_EQ(v.header.sequence, 7u);
  // One byte over the longest frame: the whole run is dropped and reported once.
  for (std::size_t i = 0; i <= layout::max_encoded_size; ++i) {
    EXPECT_EQ(rx.push(std::uint8_t(1 + i % 200)), FrameReceiver::Event::none);
  }
  EXPECT_EQ(rx.pending(), layout::max_encoded_size) << "the buffer holds at most the longest frame";
  EXPECT_EQ(rx.push(0), FrameReceiver::Event::overflow);
  EXPECT_EQ(rx.size(), 0u);
  for (std::size_t i = 0; i < n; ++i) e = rx.push(wire[i]);
  ASSERT_EQ(e, FrameReceiver::Event::frame);
  EXPECT_EQ(decode_frame(rx.data(), rx.size(), v), LinkError::none) << "resynchronised";
}

// unpack_sensor takes a sensor frame only, whatever the payload size says.
TEST(LinkFrameReject, UnpackSensorWantsTheSensorType) {
  FrameView v;
  v.header.type = FrameType::actuator;
  v.payload_size = layout::sensor_payload_size;
  SensorReading<float> r;
  EXPECT_EQ(unpack_sensor(v, r), LinkError::bad_type);
  v.header.type = FrameType::sensor;
  EXPECT_EQ(unpack_sensor(v, r), LinkError::none);
}
