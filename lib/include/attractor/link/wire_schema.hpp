// SPDX-License-Identifier: Apache-2.0
// The wire schema: a canonical description of every payload field of the HIL frames (frame type,
// name, element kind and size, count, offset, unit, wire range) and of the header, and its hash,
// kWireSchemaHash, computed at compile time (FNV-1a, 32 bits, over the protocol version and every
// entry in order). The hello carries it (link/hello_frame.hpp): a host and a firmware built from
// different layouts, units or ranges disagree on the hash and the host refuses the pairing
// before the first tick, where a layout change alone could decode as plausible numbers.
// The offsets, sizes and ranges come from link/frame_layout.hpp, sensor_frame.hpp and
// actuator_frame.hpp, and the static_asserts below require the entries of each payload to tile
// it exactly: moving, resizing or adding a field changes the hash or fails to compile until the
// table is updated; changing a unit or a wire range changes the hash.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/frame_layout.hpp"
#include "attractor/link/sensor_frame.hpp"

namespace attractor::link {

// Field order follows the schema's columns in docs/hil.md, not size: the table is read only at
// compile time (the hash), so its padding costs nothing on the target.
struct SchemaField {   // NOLINT(clang-analyzer-optin.performance.Padding)
  std::uint8_t frame;  // FrameType, 0 for the header
  const char* name;
  char kind;          // 'u' unsigned, 'f' IEEE binary32
  std::uint8_t size;  // bytes per element
  std::uint8_t count;
  std::size_t offset;
  const char* unit;  // "" when dimensionless (codes, counts)
  float range;       // wire range |x| <= range for floats; 0 for integers
};

namespace schema_detail {
constexpr std::uint8_t T(FrameType t) { return std::uint8_t(t); }
}  // namespace schema_detail

// Every field of every frame (reserved bytes included), in payload order per frame.
inline constexpr SchemaField kWireSchema[] = {
    {0, "version", 'u', 1, 1, layout::version, "", 0},
    {0, "type", 'u', 1, 1, layout::type, "", 0},
    {0, "sequence", 'u', 4, 1, layout::sequence, "", 0},
    {0, "tick", 'u', 4, 1, layout::tick, "tick", 0},
    {schema_detail::T(FrameType::sensor), "gyro", 'f', 4, 3, layout::sensor_gyro, "rad/s", SensorWireRange::gyro},
    {schema_detail::T(FrameType::sensor), "vertical", 'f', 4, 3, layout::sensor_vertical, "1",
     SensorWireRange::vertical},
    {schema_detail::T(FrameType::sensor), "velocity1", 'f', 4, 1, layout::sensor_velocity, "m/s",
     SensorWireRange::velocity},
    {schema_detail::T(FrameType::sensor), "rotor_rate12", 'f', 4, 2, layout::sensor_rotor, "rad/s",
     SensorWireRange::rotor_rate},
    {schema_detail::T(FrameType::actuator), "torque12", 'f', 4, std::uint8_t(layout::actuator_torques),
     layout::actuator_torque, "N m", ActuatorWireRange::torque},
    {schema_detail::T(FrameType::actuator), "mode", 'u', 1, 1, layout::actuator_mode, "", 0},
    {schema_detail::T(FrameType::actuator), "reason", 'u', 1, 1, layout::actuator_reason, "", 0},
    {schema_detail::T(FrameType::actuator), "verdict", 'u', 1, 1, layout::actuator_verdict, "", 0},
    {schema_detail::T(FrameType::actuator), "tick_cost", 'u', 2, 1, layout::actuator_tick_cost, "cost-clock", 0},
    {schema_detail::T(FrameType::status), "faults", 'u', 4, std::uint8_t(layout::fault_counters), layout::status_faults,
     "", 0},
    {schema_detail::T(FrameType::status), "link_rejected", 'u', 4, std::uint8_t(layout::link_counters),
     layout::status_link, "", 0},
    {schema_detail::T(FrameType::status), "gaps", 'u', 4, 1, layout::status_gaps, "", 0},
    {schema_detail::T(FrameType::status), "repeated", 'u', 4, 1, layout::status_repeated, "", 0},
    {schema_detail::T(FrameType::status), "late", 'u', 4, 1, layout::status_late, "", 0},
    {schema_detail::T(FrameType::status), "implausible", 'u', 4, 1, layout::status_implausible, "", 0},
    {schema_detail::T(FrameType::status), "wild", 'u', 4, 1, layout::status_wild, "", 0},
    {schema_detail::T(FrameType::hello), "plant", 'u', 1, 1, layout::hello_plant, "", 0},
    {schema_detail::T(FrameType::hello), "reserved", 'u', 1, 1, layout::hello_reserved, "", 0},
    {schema_detail::T(FrameType::hello), "status_every", 'u', 2, 1, layout::hello_status_every, "tick", 0},
    {schema_detail::T(FrameType::hello), "schema", 'u', 4, 1, layout::hello_schema, "", 0},
    {schema_detail::T(FrameType::boot), "resets", 'u', 4, 1, layout::boot_resets, "", 0},
    {schema_detail::T(FrameType::boot), "reason", 'u', 1, 1, layout::boot_reason, "", 0},
    {schema_detail::T(FrameType::boot), "reserved", 'u', 1, 3, layout::boot_reserved, "", 0},
};
inline constexpr std::size_t kWireSchemaFields = sizeof kWireSchema / sizeof kWireSchema[0];

namespace schema_detail {
// The entries of `frame` tile [0, size): each starts where the previous one ended.
constexpr bool tiles(std::uint8_t frame, std::size_t size) {
  std::size_t at = 0;
  for (const SchemaField& f : kWireSchema) {
    if (f.frame != frame) continue;
    if (f.offset != at) return false;
    at += std::size_t(f.size) * f.count;
  }
  return at == size;
}

// The bytes the hash covers, handed one by one to sink(byte): the protocol version, then per
// entry its frame type, name and a 0, kind, size, count, offset (u32 little-endian), unit and a
// 0, and the wire range in thousandths (u32 little-endian). One definition for the hash and for
// the wire reference that prints these bytes (docs/wire.md).
template <class Sink>
constexpr void schema_entry_bytes(const SchemaField& f, Sink& sink) {
  const auto text = [&sink](const char* s) {
    for (; *s != '\0'; ++s) sink(std::uint8_t(*s));
    sink(std::uint8_t(0));  // the terminator separates names
  };
  const auto u32 = [&sink](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) sink(std::uint8_t(v >> (8 * i)));
  };
  sink(f.frame);
  text(f.name);
  sink(std::uint8_t(f.kind));
  sink(f.size);
  sink(f.count);
  u32(std::uint32_t(f.offset));
  text(f.unit);
  u32(std::uint32_t(f.range * 1000.0f));  // the range in thousandths
}
template <class Sink>
constexpr void schema_bytes(const SchemaField* fields, std::size_t n, Sink& sink) {
  sink(kProtocolVersion);
  for (std::size_t i = 0; i < n; ++i) schema_entry_bytes(fields[i], sink);
}

// FNV-1a, 32 bits: offset basis 2166136261, prime 16777619.
struct Fnv1a32 {
  static constexpr std::uint32_t kBasis = 2166136261u, kPrime = 16777619u;
  std::uint32_t h = kBasis;
  constexpr void operator()(std::uint8_t byte) { h = (h ^ byte) * kPrime; }
};
constexpr std::uint32_t schema_hash(const SchemaField* fields, std::size_t n) {
  Fnv1a32 fnv;
  schema_bytes(fields, n, fnv);
  return fnv.h;
}
}  // namespace schema_detail

static_assert(schema_detail::tiles(0, layout::header_size), "wire schema: the header's fields");
static_assert(schema_detail::tiles(schema_detail::T(FrameType::sensor), layout::sensor_payload_size),
              "wire schema: the sensor payload's fields");
static_assert(schema_detail::tiles(schema_detail::T(FrameType::actuator), layout::actuator_payload_size),
              "wire schema: the actuator payload's fields");
static_assert(schema_detail::tiles(schema_detail::T(FrameType::status), layout::status_payload_size),
              "wire schema: the status payload's fields");
static_assert(schema_detail::tiles(schema_detail::T(FrameType::hello), layout::hello_payload_size),
              "wire schema: the hello payload's fields");
static_assert(schema_detail::tiles(schema_detail::T(FrameType::boot), layout::boot_payload_size),
              "wire schema: the boot payload's fields");
static_assert(payload_size_of(schema_detail::T(FrameType::goodbye)) == 0 &&
                  payload_size_of(schema_detail::T(FrameType::reset)) == 0 &&
                  payload_size_of(schema_detail::T(FrameType::status_request)) == 0 &&
                  payload_size_of(kMaxFrameType + 1) < 0,
              "wire schema: the empty frame types, and no type beyond status_request");

// The hash of this build's wire schema, in every hello (link/hello_frame.hpp).
inline constexpr std::uint32_t kWireSchemaHash = schema_detail::schema_hash(kWireSchema, kWireSchemaFields);

}  // namespace attractor::link
