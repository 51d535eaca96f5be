// SPDX-License-Identifier: Apache-2.0
// The HIL wire format, version 3: every size and offset in one place. All fields little-endian
// (link/byte_order.hpp); floats are IEEE 754 binary32 whatever the scalar type of either side.
//
// On the wire a frame is COBS(raw) followed by one 0x00 delimiter (link/cobs.hpp), where
//   raw = header (16) | payload (fixed size per type) | CRC-32 (4) of header and payload
//   header: version u8 | type u8 | payload size u16 | sequence u32 | tick index u64
// The sequence number counts frames per direction and sender (wraps modulo 2^32); the tick
// index is the control tick the frame belongs to: a sensor frame carries the tick it samples,
// the actuator frame answering it carries the same tick.
//
// Sensor payload (host -> firmware, 48 bytes), what the plant's sensors measure:
//   gyro Ω [rad/s] f32×3 | vertical (accelerometer direction, body frame, |a| ~ 1) f32×3 |
//   body velocity [m/s] f32×3 | rotor speeds relative to the body [rad/s] f32×3
// Actuator payload (firmware -> host, 88 bytes):
//   torques [N m] f32×3 | mode u8 (rt::Mode) | reason u8 (attractor::Error) | verdict u8
//   (link::Verdict: what became of the frame answered) | reserved u8 = 0 |
//   fault counters u32×6 (rt::FaultCounts: non_finite out_of_range stale overrun envelope
//   saturated) | link rejections u32×7 (LinkError 1..7) | sequence gaps u32 | repeated u32 |
//   tick cost u32 (cost-clock counts of the last control step) | late u32 (sensor frames whose
//   tick index lagged: an old sample sent late) | implausible u32 (sensor frames failing the
//   plant's plausibility check, e.g. |Γ| = 1)
// Boot payload (firmware -> host, 8 bytes), sent once after every boot:
//   resets u32 (resets since power-on, rt/boot_record.hpp) | boot reason u8 (rt::BootReason) |
//   reserved u8×3 = 0
// Version 2 added the reset and boot frame types and the late/implausible counters; version 3
// the answer's verdict, the answer's tick naming the frame answered, and the hello payload.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/link/cobs.hpp"

namespace attractor::link {

inline constexpr std::uint8_t kProtocolVersion = 3;

enum class FrameType : std::uint8_t {
  sensor = 1,    // host -> firmware: one tick's measurements
  actuator = 2,  // firmware -> host: the commands answering it, and the firmware's status
  hello = 3,     // either way, empty: start of a run (the firmware resets its link state)
  goodbye = 4,   // either way, empty: end of a run, answered with goodbye before closing
  reset = 5,     // host -> firmware, empty: reboot now (no answer; the boot frame follows)
  boot = 6,      // firmware -> host: sent once after every boot, with the reset count and reason
};

namespace layout {
// header
inline constexpr std::size_t version = 0, type = 1, payload_size = 2, sequence = 4, tick = 8;
inline constexpr std::size_t header_size = 16;
inline constexpr std::size_t crc_size = 4;

// sensor payload
inline constexpr std::size_t sensor_gyro = 0, sensor_vertical = 12, sensor_velocity = 24, sensor_rotor = 36;
inline constexpr std::size_t sensor_payload_size = 48;
inline constexpr int sensor_floats = 12;

// actuator payload
inline constexpr std::size_t actuator_torque = 0, actuator_mode = 12, actuator_reason = 13, actuator_verdict = 14,
                             actuator_reserved = 15, actuator_faults = 16, actuator_link = 40, actuator_gaps = 68,
                             actuator_repeated = 72, actuator_tick_cost = 76, actuator_late = 80,
                             actuator_implausible = 84;
inline constexpr std::size_t actuator_payload_size = 88;

// boot payload
inline constexpr std::size_t boot_resets = 0, boot_reason = 4, boot_reserved = 5;
inline constexpr std::size_t boot_payload_size = 8;
inline constexpr int fault_counters = 6, link_counters = 7;

inline constexpr std::size_t max_payload_size = 88;
inline constexpr std::size_t max_raw_size = header_size + max_payload_size + crc_size;
inline constexpr std::size_t min_raw_size = header_size + crc_size;
// encoded, without the delimiter
inline constexpr std::size_t max_encoded_size = max_raw_size + 1;
inline constexpr std::size_t min_encoded_size = min_raw_size + 1;
// on the wire, with the delimiter: what a sender's buffer must hold
inline constexpr std::size_t max_wire_size = max_encoded_size + 1;

static_assert(sensor_rotor + 12 == sensor_payload_size, "sensor payload: 12 binary32 fields");
static_assert(actuator_faults + 4 * std::size_t(fault_counters) == actuator_link, "actuator payload: fault counters");
static_assert(actuator_link + 4 * std::size_t(link_counters) == actuator_gaps, "actuator payload: link counters");
static_assert(actuator_tick_cost + 4 == actuator_late && actuator_late + 4 == actuator_implausible &&
                  actuator_implausible + 4 == actuator_payload_size,
              "actuator payload ends with the tick cost, late and implausible counters");
static_assert(boot_reserved + 3 == boot_payload_size, "boot payload: resets, reason, 3 reserved bytes");
static_assert(sensor_payload_size <= max_payload_size && actuator_payload_size <= max_payload_size &&
                  boot_payload_size <= max_payload_size,
              "max_payload_size covers every frame type");
static_assert(max_raw_size <= kCobsMaxBlock, "a raw frame fits one COBS block: fixed one-byte overhead");
}  // namespace layout

// The payload size a frame type has; 0 for hello/goodbye/reset; -1 for an unknown type.
constexpr long payload_size_of(std::uint8_t type) {
  return type == std::uint8_t(FrameType::sensor)     ? long(layout::sensor_payload_size)
         : type == std::uint8_t(FrameType::actuator) ? long(layout::actuator_payload_size)
         : type == std::uint8_t(FrameType::hello)    ? 0L
         : type == std::uint8_t(FrameType::goodbye)  ? 0L
         : type == std::uint8_t(FrameType::reset)    ? 0L
         : type == std::uint8_t(FrameType::boot)     ? long(layout::boot_payload_size)
                                                     : -1L;
}

// Encoded size on the wire of a frame of this type, delimiter included.
constexpr std::size_t wire_size_of(FrameType t) {
  return std::size_t(payload_size_of(std::uint8_t(t))) + layout::header_size + layout::crc_size + 2;
}

}  // namespace attractor::link
