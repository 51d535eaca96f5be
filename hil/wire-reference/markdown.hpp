// SPDX-License-Identifier: Apache-2.0
// docs/wire.md: the wire reference (reference.hpp) as a Markdown page.
#pragma once

#include <cstdio>
#include <sstream>
#include <string>

#include "reference.hpp"
#include "rules.hpp"

namespace wire_reference {

inline std::string hex(const std::vector<std::uint8_t>& b, std::size_t from = 0, std::size_t n = std::string::npos) {
  std::string s;
  char buf[4];
  for (std::size_t i = from; i < b.size() && i - from < n; ++i) {
    std::snprintf(buf, sizeof buf, i == from ? "%02x" : " %02x", b[i]);
    s += buf;
  }
  return s;
}

inline std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

// A table cell's text: a '|' would end the cell.
inline std::string cell(const std::string& t) {
  std::string s;
  for (char c : t) s += c == '|' ? std::string("\\|") : std::string(1, c);
  return s;
}

inline std::string range_text(const FieldRow& f) {
  if (f.kind != "f") return "–";
  std::ostringstream o;
  o << "±" << f.range;
  return o.str();
}

inline void field_table(std::ostringstream& o, const Reference& r, const std::string& frame) {
  o << "| offset | field | type | unit | wire range | meaning |\n|---|---|---|---|---|---|\n";
  for (const FieldRow& f : r.fields) {
    if (f.frame != frame) continue;
    std::string m = f.meaning;
    for (std::size_t i = 0; i < f.elements.size(); ++i)
      m += (i == 0 ? " " : ", ") + std::string("[") + std::to_string(i) + "] " + f.elements[i];
    o << "| " << f.offset << " | `" << f.name << "` | " << f.type() << " | " << (f.unit.empty() ? "–" : f.unit) << " | "
      << range_text(f) << " | " << cell(m) << " |\n";
  }
}

inline void frames_section(std::ostringstream& o, const Reference& r) {
  o << "## Frame types\n\nThe header's `type` byte; the type fixes the payload size. On the wire: COBS overhead "
       "byte + header + payload + CRC + delimiter.\n\n"
       "| code | type | direction | payload [B] | on the wire [B] | meaning |\n|---|---|---|---|---|---|\n";
  for (const FrameRow& f : r.frames)
    o << "| " << f.code << " | `" << f.name << "` | " << f.direction << " | " << f.payload << " | " << f.wire << " | "
      << cell(f.meaning) << " |\n";
  o << "\n## Header (" << r.header_size << " bytes, every frame)\n\n";
  field_table(o, r, "header");
  for (const FrameRow& f : r.frames) {
    o << "\n## " << f.name << " payload (type " << f.code << ", " << f.payload << " bytes)\n\n";
    if (f.payload == 0) {
      o << "Empty: the frame is the header and the CRC.\n";
      continue;
    }
    field_table(o, r, f.name);
  }
}

inline void codes_section(std::ostringstream& o, const Reference& r) {
  o << "\n## Code tables\n\nA receiver rejects a code beyond its table (`out_of_range`).\n";
  for (const CodeTable& t : r.tables) {
    o << "\n### " << t.title << " (`" << t.field << "`; `lib/include/attractor/"
      << t.source.substr(0, t.source.find(' ')) << "`)\n\n| code | name | meaning |\n|---|---|---|\n";
    for (const CodeRow& c : t.codes) o << "| " << c.value << " | `" << c.name << "` | " << cell(c.meaning) << " |\n";
  }
}

inline void rules_section(std::ostringstream& o, const Reference& r) {
  o << "\n## Check order\n\nWhat the firmware (and the runner) check in a received segment, in this order; the "
       "first check that fails names the reason it is counted under (link rejection reason). After them, by type: "
       "a hello, goodbye, reset or status request is an event; a sensor frame is judged (below); any other type "
       "sent to the firmware is `bad_type`.\n\n| # | check | reason |\n|---|---|---|\n";
  int i = 1;
  for (const Check& c : kCheckOrder)
    o << "| " << i++ << " | " << cell(c.condition) << " | `" << attractor::link::to_string(c.reason) << "` |\n";
  o << "\nEncoded sizes: " << r.min_encoded << " to " << r.max_encoded
    << " bytes per segment, delimiter excluded.\n\n## Rules\n\nThe window is kWindow = " << r.window
    << " (`lib/include/attractor/link/hil_link.hpp`) either way.\n\n";
  for (const Rule& rule : kRules)
    o << "- **" << rule.topic << ".** " << rule.text << ". (Pinned by " << rule.pinned_by << ".)\n";
}

inline void hash_section(std::ostringstream& o, const Reference& r) {
  o << "\n## The schema hash\n\nThe hello carries `" << hex32(r.schema_hash)
    << "`: FNV-1a, 32 bits (offset basis 2166136261, prime 16777619: for each byte, h = (h XOR byte) × prime "
       "modulo 2^32), over "
    << r.schema_input.size()
    << " bytes: the protocol version, then per field in this order its frame type (0: header), name and a 0 byte, "
       "kind (`u` or `f`), element size, count, offset as u32 little-endian, unit and a 0 byte, and the wire range "
       "× 1000 as u32 little-endian (`lib/include/attractor/link/wire_schema.hpp`).\n\n"
       "| field | bytes (hex) |\n|---|---|\n| protocol version | "
    << hex(r.schema_input, 0, 1) << " |\n";
  for (const FieldRow& f : r.fields) o << "| " << f.frame << "." << f.name << " | " << hex(f.schema_bytes) << " |\n";
}

inline void examples_section(std::ostringstream& o, const Reference& r) {
  o << "\n## Example frames (made by the library's encoders)\n";
  for (const Example& e : r.examples) {
    o << "\n" << e.title << ":\n\n    raw  " << hex(e.raw) << "\n    wire " << hex(e.wire) << "\n";
  }
}

inline std::string markdown(const Reference& r) {
  std::ostringstream o;
  o << "# The HIL wire, version " << r.version << "\n\n"
    << "<!-- Generated by attractor-wire-reference (hil/wire-reference/) from the library's tables; do not edit. "
       "Regenerate: attractor-wire-reference --write docs -->\n\n"
       "Everything a second host needs to speak to the HIL firmware ([hil.md](hil.md)), generated from the "
       "library's own tables (`lib/include/attractor/link/wire_schema.hpp`, `frame_layout.hpp`, the code tables) "
       "by `hil/wire-reference/`; CTest `docs.wire_reference` fails when this page or `docs/wire.json` (the same "
       "facts, machine-readable) differs from what the code says.\n\n"
       "## Bytes\n\n"
       "- A frame is raw = header ("
    << r.header_size << " bytes) | payload (fixed size per type) | CRC-32 (" << r.crc_size
    << " bytes), sent as COBS(raw) followed by one 0x00 delimiter.\n"
       "- Every integer and float is little-endian; floats are IEEE 754 binary32; `u8`…`u32` unsigned.\n"
       "- **CRC-32/ISO-HDLC** (zlib's `crc32`): polynomial 0x04C11DB7 (reflected 0xEDB88320), initial value "
       "0xFFFFFFFF, input and output reflected, final XOR 0xFFFFFFFF; check value crc32(\"123456789\") = "
    << hex32(attractor::link::kCrc32Check) << ". It covers the header and the payload (raw bytes 0 to " << r.header_size
    << " + payload − 1) and follows them as u32 little-endian.\n"
       "- **COBS** (Cheshire and Baker 1999) over the whole raw frame, at most 254 bytes: always exactly one "
       "overhead byte, no zero inside; decoding checks that the code chain ends exactly at the segment's end.\n\n";
  frames_section(o, r);
  codes_section(o, r);
  rules_section(o, r);
  hash_section(o, r);
  examples_section(o, r);
  return o.str();
}

}  // namespace wire_reference
