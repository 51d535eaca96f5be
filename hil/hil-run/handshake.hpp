// SPDX-License-Identifier: Apache-2.0
// The hello handshake, at the start and after a reset (one mechanism for both): hello with tick
// index first + attempt, sent again every 0.5 s until the answer with that tick arrives. QEMU's
// STM32 USART drops the bytes that arrive before the firmware enables it (the CMSDK UART holds
// them), so a hello can be lost whole, or in part and answered as a rejected frame; the firmware
// takes a hello after ticks as a new run (link/lockstep.hpp), so nothing of a cut one is carried
// over. On the way: a boot frame (a firmware announces every boot before it reads anything) is
// noted in `boot`; answers to earlier attempts, a rejected frame's answer and undecodable frames
// (a serial port opened in the middle of an announcement) are skipped. The hello carries the
// plant simulated here, the status period wanted (--status-every) and the wire schema; the
// answer's plant and schema are checked (firmware_identity.hpp: the wrong firmware is exit 11,
// before the first tick), as is every frame that fails to decode with its CRC intact (a
// firmware of another wire format).
#pragma once

#include <chrono>
#include <cstdint>

#include "attractor/link/boot_frame.hpp"
#include "attractor/link/hello_frame.hpp"
#include "attractor/link/status_frame.hpp"
#include "firmware_identity.hpp"
#include "link_faults.hpp"
#include "transport.hpp"

namespace hil_run {

struct BootSeen {
  attractor::rt::BootInfo info;  // the firmware's latest boot announcement
  bool seen = false;
};

// false when `deadline` passes or the firmware closed the line.
// `mine`: the plant simulated here and the status period wanted (the schema is this build's).
inline bool handshake(Peer& peer, std::uint64_t first, std::chrono::steady_clock::time_point deadline, BootSeen& boot,
                      const attractor::link::HelloInfo& mine) {
  using namespace attractor::link;
  FrameView v;
  LinkError e;
  for (std::uint64_t attempt = first;; ++attempt) {
    if (peer.closed() || std::chrono::steady_clock::now() > deadline) return false;
    peer.send(attractor::hil::encode_hello(0, std::uint32_t(attempt), mine));
    while (peer.receive(v, e, 500)) {
      if (e != LinkError::none) {
        check_wire_format(e, peer.last_data(), peer.last_size());
        continue;
      }
      if (v.header.type == FrameType::hello && v.header.tick == std::uint32_t(attempt)) {
        HelloInfo fw;
        if (unpack_hello(v, fw) != LinkError::none)
          throw Failure(code::exit_hil_firmware, "wrong firmware: its hello answer names no known plant (plant code " +
                                                     std::to_string(v.payload[layout::hello_plant]) +
                                                     ", reserved byte " +
                                                     std::to_string(v.payload[layout::hello_reserved]) + ")");
        check_hello(fw, mine.plant);
        return true;
      }
      attractor::rt::BootInfo b;
      if (v.header.type == FrameType::boot && unpack_boot(v, b) == LinkError::none) {
        boot.info = b;
        boot.seen = true;
      }
    }
  }
}

// The firmware's boot frame after a reset request (before it only the status frames the
// firmware sent before the reset may come: the latest goes to `status`).
inline bool await_boot(Peer& peer, attractor::rt::BootInfo& boot, attractor::link::StatusReport& status) {
  using namespace attractor::link;
  FrameView v;
  LinkError e;
  while (peer.receive(v, e) && e == LinkError::none) {
    if (v.header.type == FrameType::status) {
      if (unpack_status(v, status) != LinkError::none) return false;
      continue;
    }
    return unpack_boot(v, boot) == LinkError::none;
  }
  return false;
}

}  // namespace hil_run
