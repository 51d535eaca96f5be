// SPDX-License-Identifier: Apache-2.0
// The hello handshake, at the start and after a reset (one mechanism for both): hello with tick
// index first + attempt, sent again every 0.5 s until the answer with that tick arrives. QEMU's
// STM32 USART drops the bytes that arrive before the firmware enables it (the CMSDK UART holds
// them), so a hello can be lost whole, or in part and answered as a rejected frame; the firmware
// takes a hello after ticks as a new run (link/lockstep.hpp), so nothing of a cut one is carried
// over. On the way: a boot frame (a firmware announces every boot before it reads anything) is
// noted in `boot`; answers to earlier attempts, a rejected frame's answer and undecodable frames
// (a serial port opened in the middle of an announcement) are skipped.
#pragma once

#include <chrono>
#include <cstdint>

#include "attractor/link/boot_frame.hpp"
#include "link_faults.hpp"
#include "transport.hpp"

namespace hil_run {

struct BootSeen {
  attractor::rt::BootInfo info;  // the firmware's latest boot announcement
  bool seen = false;
};

// false when `deadline` passes or the firmware closed the line.
inline bool handshake(Peer& peer, std::uint64_t first, std::chrono::steady_clock::time_point deadline, BootSeen& boot) {
  using namespace attractor::link;
  FrameView v;
  LinkError e;
  for (std::uint64_t attempt = first;; ++attempt) {
    if (peer.closed() || std::chrono::steady_clock::now() > deadline) return false;
    peer.send(attractor::hil::encode(FrameType::hello, 0, attempt));
    while (peer.receive(v, e, 500)) {
      if (e != LinkError::none) continue;
      if (v.header.type == FrameType::hello && v.header.tick == attempt) return true;
      attractor::rt::BootInfo b;
      if (v.header.type == FrameType::boot && unpack_boot(v, b) == LinkError::none) {
        boot.info = b;
        boot.seen = true;
      }
    }
  }
}

// The firmware's boot frame after a reset request (nothing else may come first).
inline bool await_boot(Peer& peer, attractor::rt::BootInfo& boot) {
  using namespace attractor::link;
  FrameView v;
  LinkError e;
  if (!peer.receive(v, e) || e != LinkError::none) return false;
  return unpack_boot(v, boot) == LinkError::none;
}

}  // namespace hil_run
