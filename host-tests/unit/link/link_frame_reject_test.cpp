// SPDX-License-Identifier: Apache-2.0
// HIL frame rejections (lib/include/attractor/link/), one class each — bad_length, bad_framing,
// bad_crc, bad_version, bad_type, non_finite, out_of_range — each from a frame that is valid
// except for that one defect (CRC recomputed where the defect is not the CRC); and the encoder
// refusing what the receiver would reject.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/boot_frame.hpp"
#include "attractor/link/hello_frame.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/status_frame.hpp"
#include "frame_bytes.hpp"

using namespace attractor::link;
using namespace frame_bytes;
using attractor::rt::Mode;

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
  raw[layout::version] = 3;  // version 3 answered a refused frame as junk, with a guessed tick
  EXPECT_EQ(decode_sensor(encode_raw(raw, true)), LinkError::bad_version);
  raw[layout::version] = 5;
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
    const float lim = attractor::link::detail::sensor_limit(attractor::link::detail::kSensorField[i]);
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

// Each unpack_* takes its own frame type with its own payload size only: any other type, or its
// type with another payload size (a FrameView built by hand: decode_frame already refuses that
// as bad_length), is bad_type, and the output is the documented default whatever it held.
TEST(LinkFrameReject, EveryUnpackWantsItsOwnTypeAndPayloadSize) {
  for (int type = 1; type <= int(kMaxFrameType); ++type) {
    for (int shorter = 0; shorter <= 1; ++shorter) {
      const auto t = FrameType(type);
      FrameView v;
      v.header = FrameHeader{t, 1, 2};
      for (std::uint8_t& b : v.payload) b = 0x01;  // tiny floats, small counts: no other rejection
      const auto view_of = [&](std::size_t size) {
        v.payload_size = size - std::size_t(shorter);
        return v;
      };
      SCOPED_TRACE(::testing::Message() << "type " << type << (shorter ? ", one payload byte short" : ""));

      SensorReading<float> r;
      r.gyro.setConstant(7.0f);
      const LinkError se = unpack_sensor(view_of(layout::sensor_payload_size), r);
      EXPECT_EQ(se == LinkError::bad_type, t != FrameType::sensor || shorter) << int(se);
      if (se != LinkError::none) EXPECT_EQ(r.gyro, attractor::Vec3<float>::Zero());

      ActuatorReport<float> a;
      a.mode = attractor::rt::Mode::running;
      a.torque.setConstant(7.0f);
      const LinkError ae = unpack_actuator(view_of(layout::actuator_payload_size), a);
      EXPECT_EQ(ae == LinkError::bad_type, t != FrameType::actuator || shorter) << int(ae);
      if (ae != LinkError::none) {
        EXPECT_EQ(a.mode, attractor::rt::Mode::safe);
        EXPECT_EQ(a.torque, attractor::Vec3<float>::Zero());
      }

      HelloInfo h{PlantId::skate_rotor, 9, 9};
      const LinkError he = unpack_hello(view_of(layout::hello_payload_size), h);
      EXPECT_EQ(he == LinkError::bad_type, t != FrameType::hello || shorter) << int(he);
      if (he != LinkError::none) {
        EXPECT_EQ(h.plant, PlantId::none);
        EXPECT_EQ(h.status_every, 0u);
        EXPECT_EQ(h.schema, kWireSchemaHash);
      }

      attractor::rt::BootInfo b{9, attractor::rt::BootReason::other_reset};
      const LinkError be = unpack_boot(view_of(layout::boot_payload_size), b);
      EXPECT_EQ(be == LinkError::bad_type, t != FrameType::boot || shorter) << int(be);
      if (be != LinkError::none) {
        EXPECT_EQ(b.resets, 0u);
        EXPECT_EQ(b.reason, attractor::rt::BootReason::power_on);
      }

      StatusReport st;
      st.link.gaps = 9;
      st.faults.stale = 9;
      const LinkError ste = unpack_status(view_of(layout::status_payload_size), st);
      EXPECT_EQ(ste == LinkError::bad_type, t != FrameType::status || shorter) << int(ste);
      if (ste != LinkError::none) {
        EXPECT_EQ(st.link.gaps, 0u);
        EXPECT_EQ(st.faults.stale, 0u);
      }
    }
  }
}
