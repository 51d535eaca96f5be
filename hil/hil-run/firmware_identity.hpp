// SPDX-License-Identifier: Apache-2.0
// Is this the right firmware? Checked on its hello answer (handshake.hpp), before the first
// tick, on every byte path (QEMU, --serial board): the plant it controls (link/plant_id.hpp)
// must be the one simulated here, and its wire schema hash (link/wire_schema.hpp: layout,
// version, units, ranges) this build's. A frame whose CRC holds but whose version, type or
// length this build does not know is a firmware of another wire format. Each is refused with a
// message naming both sides and exit 11 (exit_codes.hpp), never run as a lockstep that might
// look upright.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "attractor/link/cobs.hpp"
#include "attractor/link/crc32.hpp"
#include "attractor/link/hello_frame.hpp"
#include "exit_codes.hpp"

namespace hil_run {

inline std::string hex32(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

// Throws Failure(exit_hil_firmware) unless the firmware's hello answer names `plant` and this
// build's wire schema.
inline void check_hello(const attractor::link::HelloInfo& fw, attractor::link::PlantId plant) {
  using namespace attractor::link;
  if (fw.plant != plant)
    throw attractor::cli::Failure(attractor::cli::exit_hil_firmware,
                                  std::string("wrong firmware: it controls the ") + to_string(fw.plant) +
                                      " plant (its hello) but --plant is " + to_string(plant) + " (give --plant " +
                                      to_string(fw.plant) + " or the " + to_string(plant) + " image)");
  if (fw.schema != kWireSchemaHash)
    throw attractor::cli::Failure(attractor::cli::exit_hil_firmware,
                                  "wrong firmware: its wire schema hash is " + hex32(fw.schema) + ", this runner's " +
                                      hex32(kWireSchemaHash) +
                                      " (built from another frame layout, version or units: rebuild both sides)");
}

// An encoded frame (no delimiter) whose CRC holds: what a decoder of another layout still sees.
inline bool crc_holds(const std::uint8_t* in, std::size_t n) {
  using namespace attractor::link;
  std::uint8_t raw[kCobsMaxBlock + 1] = {};
  if (n < 6 || n - 1 > sizeof raw || cobs_decode(in, n, raw, sizeof raw) != LinkError::none) return false;
  const std::size_t body = n - 1 - 4;
  return crc32(raw, body) == get_u32(raw + body);
}

// Throws Failure(exit_hil_firmware) for a frame that failed to decode with `e` although its CRC
// holds (a sender of another wire format: version, type or length unknown here).
inline void check_wire_format(attractor::link::LinkError e, const std::uint8_t* in, std::size_t n) {
  using attractor::link::LinkError;
  const bool format = e == LinkError::bad_version || e == LinkError::bad_type || e == LinkError::bad_length;
  if (!format || !crc_holds(in, n)) return;
  std::uint8_t version = 0;
  std::uint8_t raw[attractor::link::kCobsMaxBlock + 1] = {};
  if (attractor::link::cobs_decode(in, n, raw, sizeof raw) == LinkError::none) version = raw[0];
  throw attractor::cli::Failure(attractor::cli::exit_hil_firmware,
                                "wrong firmware: it sends frames of another wire format (" +
                                    std::string(attractor::link::to_string(e)) + ", version byte " +
                                    std::to_string(version) + "; this runner speaks version " +
                                    std::to_string(attractor::link::kProtocolVersion) + ", schema " +
                                    hex32(attractor::link::kWireSchemaHash) + "): rebuild both sides");
}

}  // namespace hil_run
