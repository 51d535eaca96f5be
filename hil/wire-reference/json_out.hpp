// SPDX-License-Identifier: Apache-2.0
// docs/wire.json: the wire reference (reference.hpp) for programs — host-tests/link/crosscheck.py
// reads its layout, codes and schema bytes from here instead of keeping a copy. Keys in a fixed
// order (ordered_json), two-space indent, so the file diffs line by line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "markdown.hpp"
#include "reference.hpp"
#include "rules.hpp"

namespace wire_reference {

inline std::string json_text(const Reference& r) {
  using J = nlohmann::ordered_json;
  J j;
  j["generated_by"] = "attractor-wire-reference (hil/wire-reference/) from lib/include/attractor/link/; do not edit";
  j["protocol_version"] = r.version;
  j["byte_order"] = "little-endian; floats IEEE 754 binary32";
  j["header_size"] = r.header_size;
  j["crc"] = {{"name", "CRC-32/ISO-HDLC"},
              {"poly", 0x04C11DB7u},
              {"poly_reflected", 0xEDB88320u},
              {"init", 0xFFFFFFFFu},
              {"refin", true},
              {"refout", true},
              {"xorout", 0xFFFFFFFFu},
              {"check", attractor::link::kCrc32Check},
              {"size", r.crc_size},
              {"covers", "header and payload"}};
  j["cobs"] = {{"max_block", attractor::link::kCobsMaxBlock}, {"overhead", 1}, {"delimiter", 0}};
  j["encoded_size"] = {{"min", r.min_encoded}, {"max", r.max_encoded}};
  j["window"] = r.window;
  J frames = J::array();
  for (const FrameRow& f : r.frames)
    frames.push_back({{"code", f.code},
                      {"name", f.name},
                      {"direction", f.direction},
                      {"payload_size", f.payload},
                      {"wire_size", f.wire},
                      {"meaning", f.meaning}});
  j["frame_types"] = frames;
  J fields = J::array();
  for (const FieldRow& f : r.fields) {
    J e = {{"frame", f.frame},   {"name", f.name}, {"kind", f.kind},   {"size", f.size},   {"count", f.count},
           {"offset", f.offset}, {"unit", f.unit}, {"range", f.range}, {"type", f.type()}, {"meaning", f.meaning}};
    if (!f.elements.empty()) e["elements"] = f.elements;
    e["schema_bytes"] = hex(f.schema_bytes);
    fields.push_back(e);
  }
  j["fields"] = fields;
  J tables = J::object();
  for (const CodeTable& t : r.tables) {
    J codes = J::array();
    for (const CodeRow& c : t.codes) codes.push_back({{"value", c.value}, {"name", c.name}, {"meaning", c.meaning}});
    tables[t.key] = {{"title", t.title}, {"source", t.source}, {"field", t.field}, {"codes", codes}};
  }
  j["codes"] = tables;
  J checks = J::array();
  for (const Check& c : kCheckOrder)
    checks.push_back({{"reason", attractor::link::to_string(c.reason)}, {"condition", c.condition}});
  j["check_order"] = checks;
  J rules = J::array();
  for (const Rule& rule : kRules) rules.push_back({{"topic", rule.topic}, {"text", rule.text}});
  j["rules"] = rules;
  j["schema_hash"] = {{"algorithm", "FNV-1a 32"},
                      {"basis", attractor::link::schema_detail::Fnv1a32::kBasis},
                      {"prime", attractor::link::schema_detail::Fnv1a32::kPrime},
                      {"value", hex32(r.schema_hash)},
                      {"input", hex(r.schema_input)}};
  J examples = J::array();
  for (const Example& e : r.examples)
    examples.push_back({{"title", e.title}, {"raw", hex(e.raw)}, {"wire", hex(e.wire)}});
  j["examples"] = examples;
  return j.dump(2) + "\n";
}

}  // namespace wire_reference
