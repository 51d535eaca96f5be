// SPDX-License-Identifier: Apache-2.0
// The sensor frame (host -> firmware): one tick of what the plant's sensors measure, in float or
// double on either side and binary32 on the wire (layout in link/frame_layout.hpp).
// encode_sensor_frame() refuses values the receiver would reject; pack_sensor() writes any
// value (for fault injection: NaN, Inf, out of range). decode_sensor_frame() rejects, with a
// reason, everything malformed (decode_frame) and every value non-finite or outside its wire
// range; the reading is zero then. The wire carries the components the plants use (velocity
// along body axis 1, rotor speeds 1 and 2): a reading with a component the wire does not carry
// is refused by encode_sensor_frame() (out_of_range), never silently cut.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/core/types.hpp"
#include "attractor/link/frame.hpp"
#include "attractor/link/wire_scalar.hpp"

namespace attractor::link {

template <class S>
struct SensorReading {
  Vec3<S> gyro = Vec3<S>::Zero();      // Ω, body angular velocity [rad/s]
  Vec3<S> vertical = Vec3<S>::Zero();  // measured upward vertical in the body frame (accelerometer direction; |a| ~ 1)
  Vec3<S> velocity = Vec3<S>::Zero();  // body velocity [m/s] (skate: Y = (Y1, 0, 0), blade speed first)
  Vec3<S> rotor_rate = Vec3<S>::Zero();  // rotor speeds relative to the body [rad/s] (skate: θ̇ first)
};

// Wire ranges: a decoded value must be finite and within ±limit. Generous physical bounds (the
// controller applies its own, tighter measurement limits); they catch garbage, not dynamics.
struct SensorWireRange {
  static constexpr float gyro = 1000.0f;         // rad/s
  static constexpr float vertical = 16.0f;       // direction or accelerometer in g
  static constexpr float velocity = 100.0f;      // m/s
  static constexpr float rotor_rate = 10000.0f;  // rad/s
};

namespace detail {
// The wire's nine floats: (field, component) of the reading, in payload order
// (link/frame_layout.hpp); field 0 gyro, 1 vertical, 2 velocity, 3 rotor_rate.
inline constexpr int kSensorField[layout::sensor_floats] = {0, 0, 0, 1, 1, 1, 2, 3, 3};
inline constexpr int kSensorComponent[layout::sensor_floats] = {0, 1, 2, 0, 1, 2, 0, 0, 1};
constexpr float sensor_limit(int field) {
  return field == 0   ? SensorWireRange::gyro
         : field == 1 ? SensorWireRange::vertical
         : field == 2 ? SensorWireRange::velocity
                      : SensorWireRange::rotor_rate;
}
template <class S>
const Vec3<S>& sensor_field(const SensorReading<S>& r, int field) {
  return field == 0 ? r.gyro : field == 1 ? r.vertical : field == 2 ? r.velocity : r.rotor_rate;
}
template <class S>
Vec3<S>& sensor_field(SensorReading<S>& r, int field) {
  return field == 0 ? r.gyro : field == 1 ? r.vertical : field == 2 ? r.velocity : r.rotor_rate;
}
// The components the wire does not carry are zero (velocity 2, 3 and rotor 3).
template <class S>
bool carried_only(const SensorReading<S>& r) {
  return r.velocity[1] == S(0) && r.velocity[2] == S(0) && r.rotor_rate[2] == S(0);
}
}  // namespace detail

// Writes the payload bytes of r as they are (any value; see to_wire()).
template <class S>
void pack_sensor(const SensorReading<S>& r, std::uint8_t (&payload)[layout::sensor_payload_size]) {
  for (int i = 0; i < layout::sensor_floats; ++i)
    put_f32(payload + 4 * std::size_t(i),
            to_wire(detail::sensor_field(r, detail::kSensorField[i])[detail::kSensorComponent[i]]));
}

// What the receiver would say of r: none, non_finite or out_of_range (a value beyond the wire
// range, or a component the wire does not carry set).
template <class S>
LinkError check_sensor(const SensorReading<S>& r) {
  WireCheck c;
  for (int i = 0; i < layout::sensor_floats; ++i) {
    const int f = detail::kSensorField[i];
    c.add(detail::sensor_field(r, f)[detail::kSensorComponent[i]], detail::sensor_limit(f));
  }
  return !c.finite                                  ? LinkError::non_finite
         : !(c.in_range && detail::carried_only(r)) ? LinkError::out_of_range
                                                    : LinkError::none;
}

template <class S>
LinkError encode_sensor_frame(std::uint32_t sequence, std::uint32_t tick, const SensorReading<S>& r, std::uint8_t* out,
                              std::size_t out_capacity, std::size_t& written) {
  written = 0;
  const LinkError e = check_sensor(r);
  if (e != LinkError::none) return e;
  std::uint8_t payload[layout::sensor_payload_size];
  pack_sensor(r, payload);
  return encode_frame(FrameHeader{FrameType::sensor, sequence, tick}, payload, sizeof payload, out, out_capacity,
                      written);
}

// The reading of a decoded frame: bad_type unless it is a sensor frame, non_finite or
// out_of_range for its values; r is all zero on any error.
template <class S>
LinkError unpack_sensor(const FrameView& v, SensorReading<S>& r) {
  const bool type_ok = v.header.type == FrameType::sensor && v.payload_size == layout::sensor_payload_size;
  WireCheck c;
  SensorReading<S> tmp;
  for (int i = 0; i < layout::sensor_floats; ++i) {
    const int f = detail::kSensorField[i];
    detail::sensor_field(tmp, f)[detail::kSensorComponent[i]] =
        read_checked<S>(v.payload + 4 * std::size_t(i), detail::sensor_limit(f), c);
  }
  const LinkError e = !type_ok      ? LinkError::bad_type
                      : !c.finite   ? LinkError::non_finite
                      : !c.in_range ? LinkError::out_of_range
                                    : LinkError::none;
  r = e == LinkError::none ? tmp : SensorReading<S>{};
  return e;
}

// decode_frame() then unpack_sensor(): one received frame (encoded, no delimiter) to a reading.
template <class S>
LinkError decode_sensor_frame(const std::uint8_t* in, std::size_t n, FrameHeader& header, SensorReading<S>& r) {
  FrameView v;
  const LinkError framing = decode_frame(in, n, v);
  const LinkError values = unpack_sensor(v, r);
  header = v.header;
  return framing != LinkError::none ? framing : values;
}

}  // namespace attractor::link
