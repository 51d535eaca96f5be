// SPDX-License-Identifier: Apache-2.0
// The wire reference as data, read from the library's own tables: the frame types
// (link/frame_layout.hpp), every field of the schema (link/wire_schema.hpp) with the bytes its
// hash covers, the code tables (verdict, mode, reason, link rejection reason, boot reason, plant),
// the CRC and COBS parameters, example frames made by the library's encoders, and the rules
// (rules.hpp). Both renderings (markdown.hpp, json_out.hpp) print this and nothing else, so the
// page cannot say what the code does not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attractor/core/result.hpp"
#include "attractor/link/boot_frame.hpp"
#include "attractor/link/crc32.hpp"
#include "attractor/link/hello_frame.hpp"
#include "attractor/link/hil_link.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/verdict.hpp"
#include "attractor/link/wire_schema.hpp"
#include "attractor/plants/skate_rotor/wire.hpp"
#include "attractor/rt/boot_record.hpp"
#include "attractor/rt/supervisor.hpp"
#include "meanings.hpp"

namespace wire_reference {

namespace link = attractor::link;

struct FieldRow {
  std::string frame;  // "header" or the frame type's name
  std::string name, kind, unit, meaning;
  int size = 0, count = 0;
  std::size_t offset = 0;
  double range = 0;                   // 0: an integer field
  std::vector<std::string> elements;  // names of an array's elements, when the code names them
  std::vector<std::uint8_t> schema_bytes;
  std::string type() const {
    std::string t = (kind == "f" ? "f" : "u") + std::to_string(8 * size);
    return count > 1 ? t + "×" + std::to_string(count) : t;
  }
};

struct FrameRow {
  int code = 0;
  std::string name, direction, meaning;
  std::size_t payload = 0, wire = 0;
};

struct CodeRow {
  int value = 0;
  std::string name, meaning;
};

struct CodeTable {
  std::string key, title, source, field;  // field: where the code travels
  std::vector<CodeRow> codes;
};

struct Example {
  std::string title;
  std::vector<std::uint8_t> raw, wire;  // wire: COBS(raw) and the delimiter
};

struct Reference {
  int version = link::kProtocolVersion;
  std::uint32_t schema_hash = link::kWireSchemaHash;
  std::vector<std::uint8_t> schema_input;  // every byte the hash covers, in order
  std::size_t header_size = link::layout::header_size, crc_size = link::layout::crc_size;
  std::size_t min_encoded = link::layout::min_encoded_size, max_encoded = link::layout::max_encoded_size;
  std::uint32_t window = link::kWindow;
  std::vector<FrameRow> frames;
  std::vector<FieldRow> fields;
  std::vector<CodeTable> tables;
  std::vector<Example> examples;
  std::vector<std::string> missing;  // names with no meaning in meanings.hpp
};

namespace detail {
inline std::string text_or_note(Reference& r, const std::string& key) {
  const char* m = meaning(key.c_str());
  if (m != nullptr) return m;
  r.missing.push_back(key);
  return "(no description)";
}

template <class Code, class Name>
CodeTable code_table(Reference& r, const char* key, const char* title, const char* source, const char* field, int first,
                     int last, Name name) {
  CodeTable t{key, title, source, field, {}};
  for (int v = first; v <= last; ++v) {
    const std::string n = name(Code(v));
    t.codes.push_back({v, n, text_or_note(r, std::string(key) + "." + n)});
  }
  return t;
}

inline Example example(const std::string& title, const std::uint8_t* wire, std::size_t n) {
  Example e{title, {}, std::vector<std::uint8_t>(wire, wire + n)};
  e.raw.resize(n - 2);
  (void)link::cobs_decode(wire, n - 1, e.raw.data(), e.raw.size());
  return e;
}

inline void add_examples(Reference& r) {
  std::uint8_t w[link::layout::max_wire_size];
  std::size_t n = 0;
  const link::HelloInfo hello{link::PlantId::skate_rotor, 100, link::kWireSchemaHash};
  if (link::encode_hello_frame(0, 0, hello, w, sizeof w, n) == link::LinkError::none)
    r.examples.push_back(
        example("the runner's hello: skate, status every 100 answers, this schema; sequence 0, tick 0", w, n));
  link::SensorReading<double> s;
  s.gyro << 0.1, -0.2, 0.3;
  s.vertical << 0.0, 0.6, 0.8;
  s.velocity << 1.5, 0.0, 0.0;
  s.rotor_rate << -12.0, 0.0, 0.0;
  if (link::encode_sensor_frame(1, 1, s, w, sizeof w, n) == link::LinkError::none)
    r.examples.push_back(
        example("a sensor frame: Ω = (0.1, -0.2, 0.3), vertical (0, 0.6, 0.8), velocity 1.5, rotor speeds (-12, 0); "
                "sequence 1, tick 1",
                w, n));
  link::ActuatorReport<double> a;
  a.torque << 0.25, 0.0, 0.0;
  a.mode = attractor::rt::Mode::running;
  a.tick_cost = 14;
  const std::string title = std::string("its answer: torques (0.25, 0), mode ") + attractor::rt::to_string(a.mode) +
                            ", reason " + attractor::to_string(a.reason) + ", verdict " + link::to_string(a.verdict) +
                            ", cost 14; sequence 1, tick 1";
  if (link::encode_actuator_frame(1, 1, a, w, sizeof w, n) == link::LinkError::none)
    r.examples.push_back(example(title.c_str(), w, n));
}
}  // namespace detail

inline Reference build() {
  Reference r;
  struct Collect {
    std::vector<std::uint8_t>* out;
    void operator()(std::uint8_t b) { out->push_back(b); }
  };
  Collect all{&r.schema_input};
  all(link::kProtocolVersion);
  for (const link::SchemaField& f : link::kWireSchema) {
    FieldRow row;
    row.frame = f.frame == 0 ? "header" : link::to_string(link::FrameType(f.frame));
    row.name = f.name;
    row.kind = std::string(1, f.kind);
    row.size = f.size;
    row.count = f.count;
    row.offset = f.offset;
    row.unit = f.unit;
    row.range = double(f.range);
    row.meaning = detail::text_or_note(r, row.frame + "." + row.name);
    if (row.frame == "status" && row.name == "faults")
      for (const char* e : kFaultCounterNames) row.elements.push_back(e);
    if (row.frame == "status" && row.name == "link_rejected")
      for (int i = 1; i <= row.count; ++i) row.elements.push_back(link::to_string(link::LinkError(i)));
    Collect one{&row.schema_bytes};
    link::schema_detail::schema_entry_bytes(f, one);
    link::schema_detail::schema_entry_bytes(f, all);
    r.fields.push_back(row);
  }
  for (int t = 1; t <= link::kMaxFrameType; ++t) {
    FrameRow row;
    row.code = t;
    row.name = link::to_string(link::FrameType(t));
    row.payload = std::size_t(link::payload_size_of(std::uint8_t(t)));
    row.wire = link::wire_size_of(link::FrameType(t));
    const std::string m = detail::text_or_note(r, row.name);
    const std::size_t bar = m.find('|');
    row.direction = bar == std::string::npos ? "" : m.substr(0, bar);
    row.meaning = bar == std::string::npos ? m : m.substr(bar + 1);
    r.frames.push_back(row);
  }
  using attractor::Error;
  r.tables.push_back(detail::code_table<link::Verdict>(r, "verdict", "Verdict", "link/verdict.hpp", "actuator.verdict",
                                                       0, link::kMaxVerdict,
                                                       [](link::Verdict v) { return link::to_string(v); }));
  r.tables.push_back(detail::code_table<attractor::rt::Mode>(
      r, "mode", "Mode", "rt/supervisor.hpp", "actuator.mode", 0, int(attractor::rt::Mode::safe),
      [](attractor::rt::Mode m) { return attractor::rt::to_string(m); }));
  r.tables.push_back(detail::code_table<Error>(r, "reason", "Reason", "core/result.hpp (attractor::Error)",
                                               "actuator.reason", 0, link::kMaxErrorCode,
                                               [](Error e) { return attractor::to_string(e); }));
  r.tables.push_back(detail::code_table<link::LinkError>(r, "rejection", "Link rejection reason", "link/link_error.hpp",
                                                         "status.link_rejected", 1, link::layout::link_counters,
                                                         [](link::LinkError e) { return link::to_string(e); }));
  r.tables.push_back(detail::code_table<attractor::rt::BootReason>(
      r, "boot_reason", "Boot reason", "rt/boot_record.hpp", "boot.reason", 0, attractor::rt::kMaxBootReason,
      [](attractor::rt::BootReason b) { return attractor::rt::to_string(b); }));
  r.tables.push_back(detail::code_table<link::PlantId>(r, "plant", "Plant", "link/plant_id.hpp", "hello.plant", 0,
                                                       link::kMaxPlantId,
                                                       [](link::PlantId p) { return link::to_string(p); }));
  detail::add_examples(r);
  return r;
}

}  // namespace wire_reference
