// SPDX-License-Identifier: Apache-2.0
// The HIL wire format, version 3: every size and offset in one place (the canonical
// description that the schema hash covers is link/wire_schema.hpp). All fields little-endian
// (link/byte_order.hpp); floats are IEEE 754 binary32 whatever the scalar type of either side.
//
// On the wire a frame is COBS(raw) followed by one 0x00 delimiter (link/cobs.hpp), where
//   raw = header (10) | payload (fixed size per type) | CRC-32 (4) of header and payload
//   header: version u8 | type u8 | sequence u32 | tick index u32
// The type fixes the payload size (a frame of another length is bad_length). The sequence
// number counts frames per direction and sender (wraps modulo 2^32); the tick index is the
// control tick the frame belongs to, modulo 2^32 (49.7 days at 1 kHz; every comparison of
// ticks is modulo 2^32 within a window, link/hil_link.hpp): a sensor frame carries the tick it
// samples, the actuator frame answering it carries the same tick.
//
// The per-tick frames are lean (a tick must fit a 921600-baud UART at 1 kHz, docs/hil.md "Wire
// budget"); the counters travel in the status frame, every N ticks and on request.
// Sensor payload (host -> firmware, 36 bytes), what the plant's sensors measure:
//   gyro Ω [rad/s] f32×3 | vertical (accelerometer direction, body frame, |a| ~ 1) f32×3 |
//   body velocity along body axis 1 [m/s] f32 | rotor speeds 1, 2 relative to the body [rad/s] f32×2
// Actuator payload (firmware -> host, 13 bytes):
//   torques 1, 2 [N m] f32×2 | mode u8 (rt::Mode) | reason u8 (attractor::Error) | verdict u8
//   (link::Verdict: what became of the frame answered) | tick cost u16 (cost-clock counts of the
//   last control step, saturated at 65535)
// Status payload (firmware -> host, 72 bytes), after every N-th answer (N from the host's
//   hello) and on the host's status request; the counters of the run since the last hello:
//   fault counters u32×6 (rt::FaultCounts: non_finite out_of_range stale overrun envelope
//   saturated) | link rejections u32×7 (LinkError 1..7) | sequence gaps u32 | repeated u32 |
//   late u32 | implausible u32 | wild u32 (link/link_counters.hpp)
// Hello payload (either way, 8 bytes): plant id u8 (link/plant_id.hpp) | reserved u8 = 0 |
//   status period N u16 (0: status frames only on request) | wire schema hash u32
//   (link/wire_schema.hpp). The host sends its plant, the period it wants and its schema; the
//   firmware answers with its own plant and schema and the period it will use.
// Boot payload (firmware -> host, 8 bytes), sent once after every boot:
//   resets u32 (resets since power-on, rt/boot_record.hpp) | boot reason u8 (rt::BootReason) |
//   reserved u8×3 = 0
// Version 2 added the reset and boot frame types; version 3 the answer's verdict and tick, the
// hello's plant id and schema hash, the lean per-tick frames, the status frame and its request.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/link/cobs.hpp"

namespace attractor::link {

inline constexpr std::uint8_t kProtocolVersion = 4;

enum class FrameType : std::uint8_t {
  sensor = 1,          // host -> firmware: one tick's measurements
  actuator = 2,        // firmware -> host: the commands answering it, mode, verdict, step cost
  hello = 3,           // either way: start of a run (the firmware resets its link state); plant and schema
  goodbye = 4,         // either way, empty: end of a run, answered with goodbye before closing
  reset = 5,           // host -> firmware, empty: reboot now (no answer; the boot frame follows)
  boot = 6,            // firmware -> host: sent once after every boot, with the reset count and reason
  status = 7,          // firmware -> host: the run's counters (every N answers, and on request)
  status_request = 8,  // host -> firmware, empty: send a status frame now (not a tick)
};
inline constexpr std::uint8_t kMaxFrameType = std::uint8_t(FrameType::status_request);

constexpr const char* to_string(FrameType t) {
  switch (t) {
    case FrameType::sensor: return "sensor";
    case FrameType::actuator: return "actuator";
    case FrameType::hello: return "hello";
    case FrameType::goodbye: return "goodbye";
    case FrameType::reset: return "reset";
    case FrameType::boot: return "boot";
    case FrameType::status: return "status";
    case FrameType::status_request: return "status_request";
  }
  return "unknown";
}

namespace layout {
// header
inline constexpr std::size_t version = 0, type = 1, sequence = 2, tick = 6;
inline constexpr std::size_t header_size = 10;
inline constexpr std::size_t crc_size = 4;

// sensor payload
inline constexpr std::size_t sensor_gyro = 0, sensor_vertical = 12, sensor_velocity = 24, sensor_rotor = 28;
inline constexpr std::size_t sensor_payload_size = 36;
inline constexpr int sensor_floats = 9;

// actuator payload
inline constexpr std::size_t actuator_torque = 0, actuator_mode = 8, actuator_reason = 9, actuator_verdict = 10,
                             actuator_tick_cost = 11;
inline constexpr std::size_t actuator_payload_size = 13;
inline constexpr int actuator_torques = 2;

// status payload
inline constexpr std::size_t status_faults = 0, status_link = 24, status_gaps = 52, status_repeated = 56,
                             status_late = 60, status_implausible = 64, status_wild = 68;
inline constexpr std::size_t status_payload_size = 72;
inline constexpr int fault_counters = 6, link_counters = 7;

// hello payload
inline constexpr std::size_t hello_plant = 0, hello_reserved = 1, hello_status_every = 2, hello_schema = 4;
inline constexpr std::size_t hello_payload_size = 8;

// boot payload
inline constexpr std::size_t boot_resets = 0, boot_reason = 4, boot_reserved = 5;
inline constexpr std::size_t boot_payload_size = 8;

inline constexpr std::size_t max_payload_size = 72;
inline constexpr std::size_t max_raw_size = header_size + max_payload_size + crc_size;
inline constexpr std::size_t min_raw_size = header_size + crc_size;
// encoded, without the delimiter
inline constexpr std::size_t max_encoded_size = max_raw_size + 1;
inline constexpr std::size_t min_encoded_size = min_raw_size + 1;
// on the wire, with the delimiter: what a sender's buffer must hold
inline constexpr std::size_t max_wire_size = max_encoded_size + 1;

static_assert(tick + 4 == header_size, "header: version, type, sequence u32, tick u32");
static_assert(sensor_rotor + 8 == sensor_payload_size && 4 * std::size_t(sensor_floats) == sensor_payload_size,
              "sensor payload: 9 binary32 fields");
static_assert(actuator_torque + 4 * std::size_t(actuator_torques) == actuator_mode &&
                  actuator_tick_cost + 2 == actuator_payload_size,
              "actuator payload: 2 torques, 3 codes, the u16 tick cost");
static_assert(status_faults + 4 * std::size_t(fault_counters) == status_link &&
                  status_link + 4 * std::size_t(link_counters) == status_gaps && status_wild + 4 == status_payload_size,
              "status payload: fault counters, link counters, gaps repeated late implausible wild");
static_assert(hello_schema + 4 == hello_payload_size, "hello payload: plant, reserved, period u16, schema u32");
static_assert(boot_reserved + 3 == boot_payload_size, "boot payload: resets, reason, 3 reserved bytes");
static_assert(sensor_payload_size <= max_payload_size && actuator_payload_size <= max_payload_size &&
                  boot_payload_size <= max_payload_size && hello_payload_size <= max_payload_size &&
                  status_payload_size <= max_payload_size,
              "max_payload_size covers every frame type");
static_assert(max_raw_size <= kCobsMaxBlock, "a raw frame fits one COBS block: fixed one-byte overhead");
}  // namespace layout

// The payload size a frame type has; 0 for goodbye/reset/status_request; -1 for an unknown type.
constexpr long payload_size_of(std::uint8_t type) {
  return type == std::uint8_t(FrameType::sensor)           ? long(layout::sensor_payload_size)
         : type == std::uint8_t(FrameType::actuator)       ? long(layout::actuator_payload_size)
         : type == std::uint8_t(FrameType::hello)          ? long(layout::hello_payload_size)
         : type == std::uint8_t(FrameType::goodbye)        ? 0L
         : type == std::uint8_t(FrameType::reset)          ? 0L
         : type == std::uint8_t(FrameType::boot)           ? long(layout::boot_payload_size)
         : type == std::uint8_t(FrameType::status)         ? long(layout::status_payload_size)
         : type == std::uint8_t(FrameType::status_request) ? 0L
                                                           : -1L;
}

// Encoded size on the wire of a frame of this type, delimiter included.
constexpr std::size_t wire_size_of(FrameType t) {
  return std::size_t(payload_size_of(std::uint8_t(t))) + layout::header_size + layout::crc_size + 2;
}

}  // namespace attractor::link
