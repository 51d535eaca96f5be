// SPDX-License-Identifier: Apache-2.0
// What the frame tests share: sample readings and reports, a frame's raw and encoded bytes (the
// encoded ones as the receiver hands them to the decoder, without the delimiter), and sensor
// frames edited one payload value at a time with the CRC recomputed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/cobs.hpp"
#include "attractor/link/crc32.hpp"
#include "attractor/link/frame.hpp"
#include "attractor/link/sensor_frame.hpp"

namespace frame_bytes {

using namespace attractor::link;
using Bytes = std::vector<std::uint8_t>;

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInf = std::numeric_limits<float>::infinity();

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
  a.mode = attractor::rt::Mode::safe;
  a.reason = attractor::Error::stale;
  a.tick_cost = 20700;
  a.verdict = Verdict::late;
  return a;
}

// The encoded bytes of a frame without its delimiter, as a receiver hands them to the decoder.
inline Bytes strip(const std::uint8_t* wire, std::size_t n) { return Bytes(wire, wire + n - 1); }

// Raw frame bytes -> encoded (no delimiter), optionally recomputing the CRC first.
inline Bytes encode_raw(Bytes raw, bool fix_crc) {
  if (fix_crc) put_u32(raw.data() + raw.size() - 4, crc32(raw.data(), raw.size() - 4));
  Bytes enc(raw.size() + 1);
  EXPECT_EQ(cobs_encode(raw.data(), raw.size(), enc.data(), enc.size()), LinkError::none);
  return enc;
}
inline Bytes decode_raw(const Bytes& enc) {
  Bytes raw(enc.size() - 1);
  EXPECT_EQ(cobs_decode(enc.data(), enc.size(), raw.data(), raw.size()), LinkError::none);
  return raw;
}

inline Bytes sensor_encoded(std::uint32_t seq = 7, std::uint32_t tick = 42) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  EXPECT_EQ(encode_sensor_frame(seq, tick, sample_reading<double>(), wire, sizeof wire, n), LinkError::none);
  return strip(wire, n);
}

// A sensor frame whose payload float `index` (0..8) holds v, CRC valid.
inline Bytes sensor_with(int index, float v) {
  Bytes raw = decode_raw(sensor_encoded());
  put_f32(raw.data() + layout::header_size + 4 * std::size_t(index), v);
  return encode_raw(raw, true);
}

template <class S>
LinkError decode_sensor(const Bytes& enc, SensorReading<S>& r) {
  FrameHeader h;
  return decode_sensor_frame(enc.data(), enc.size(), h, r);
}
inline LinkError decode_sensor(const Bytes& enc) {
  SensorReading<double> r;
  return decode_sensor(enc, r);
}

}  // namespace frame_bytes
