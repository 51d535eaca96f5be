// SPDX-License-Identifier: Apache-2.0
// Why the firmware is running: power-on, a reset the host asked for (HIL reset frame), or any
// other reset (watchdog, fault, debugger, a brown-out that kept RAM). The record lives in RAM
// that no startup code and no loader touches (the board's `.noinit` words at the top of RAM,
// cmake/cortex-m.ld.in), so it survives a system reset; a magic word and its complement over
// the count tell a record this firmware wrote from power-on garbage (or QEMU's zeroed RAM), which
// restarts the count at 0. Pure functions over the record: the board gives the storage
// (board/reset.hpp), the host tests the rules.
#pragma once

#include <cstdint>

namespace attractor::rt {

enum class BootReason : std::uint8_t {
  power_on = 0,      // no valid record: first boot since power was applied
  host_request = 1,  // the previous run asked for the reset (request_reset) before it happened
  other_reset = 2,   // a valid record but no request: watchdog, fault handler, debugger, ...
};
inline constexpr std::uint8_t kMaxBootReason = std::uint8_t(BootReason::other_reset);

constexpr const char* to_string(BootReason r) {
  return r == BootReason::power_on       ? "power_on"
         : r == BootReason::host_request ? "host_request"
         : r == BootReason::other_reset  ? "other_reset"
                                         : "unknown";
}

// Four words of RAM that survive a reset (never zeroed by startup; layout fixed).
struct BootRecord {
  std::uint32_t magic;    // kBootMagic when this firmware wrote the record
  std::uint32_t resets;   // resets since power-on
  std::uint32_t check;    // ~(resets ^ magic): a torn or random record fails it
  std::uint32_t request;  // kResetRequest when the reset was asked for
};

inline constexpr std::uint32_t kBootMagic = 0xB0075EC5u;
inline constexpr std::uint32_t kResetRequest = 0x5E7E5E7Eu;

struct BootInfo {
  std::uint32_t resets = 0;  // 0 after power-on
  BootReason reason = BootReason::power_on;
};

// Once per boot, before anything else reads the record: classifies this boot, counts it and
// clears the request.
inline BootInfo on_boot(BootRecord& r) {
  const bool valid = r.magic == kBootMagic && r.check == ~(r.resets ^ kBootMagic);
  BootInfo b;
  b.resets = valid ? r.resets + 1u : 0u;
  b.reason = !valid                       ? BootReason::power_on
             : r.request == kResetRequest ? BootReason::host_request
                                          : BootReason::other_reset;
  r.magic = kBootMagic;
  r.resets = b.resets;
  r.check = ~(b.resets ^ kBootMagic);
  r.request = 0u;
  return b;
}

// Just before a reset the firmware itself asks for: the next boot reports host_request.
inline void mark_reset_request(BootRecord& r) { r.request = kResetRequest; }

}  // namespace attractor::rt
