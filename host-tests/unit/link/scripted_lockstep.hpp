// SPDX-License-Identifier: Apache-2.0
// The firmware's lockstep (link/lockstep.hpp: run_lockstep) on a script of host frames, without
// QEMU: `Board` and `Port` stand in for the board and its UART. The script is the bytes queued
// with send() (the run ends when they are used up and a goodbye was among them); every frame the
// firmware writes is decoded as the runner would and kept, in order, in `out`.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <vector>

#include "attractor/link/frame.hpp"
#include "attractor/link/frame_receiver.hpp"

namespace scripted_lockstep {

inline std::deque<std::uint8_t> in;                  // bytes to the firmware, not yet read
inline std::vector<attractor::link::FrameView> out;  // frames from the firmware, decoded
inline attractor::link::FrameReceiver rx;

// A new script: nothing queued, nothing received.
inline void clear() {
  in.clear();
  out.clear();
  rx = attractor::link::FrameReceiver{};
}
template <class Bytes>
void send(const Bytes& frame) {
  in.insert(in.end(), frame.begin(), frame.end());
}

struct Board {
  static std::uint32_t cost_now() { return 0u; }
  static std::uint32_t cost_hz() { return 25000000u; }
  static std::uint32_t cost_mask() { return 0xFFFFFFFFu; }
  static std::uint32_t stack_used_bytes() { return 100u; }
  static std::uint32_t stack_size_bytes() { return 4000u; }
};

struct Port {
  // A read past the end of the script would wait forever (run_lockstep polls until a byte
  // comes): the firmware wants bytes the script never sends, so the test binary stops at once.
  static bool read(std::uint8_t& b) {
    if (in.empty()) {
      std::fprintf(stderr,
                   "scripted_lockstep: the firmware reads past the end of the script (no goodbye or reset "
                   "ended its run)\n");
      std::abort();
    }
    b = in.front();
    in.pop_front();
    return true;
  }
  static void write(const std::uint8_t* d, std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i) {
      if (rx.push(d[i]) != attractor::link::FrameReceiver::Event::frame) continue;
      attractor::link::FrameView v;
      EXPECT_EQ(attractor::link::decode_frame(rx.data(), rx.size(), v), attractor::link::LinkError::none);
      out.push_back(v);
    }
  }
};

}  // namespace scripted_lockstep
