// SPDX-License-Identifier: Apache-2.0
// ByteTap: what sees the raw bytes of a Peer (transport.hpp) besides the frame decoder, whatever
// the frames' layout: a recording (recording.hpp, --record) keeps them, a replay (replay.hpp)
// compares them, and with --plant-only the tap stands in for the firmware altogether, serving the
// recorded answers and checking the runner's writes against the recorded ones.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hil_run {

struct ByteTap {
  virtual ~ByteTap() = default;
  // One write to the firmware (a frame, a lone 0x00, a fault's bytes), during `tick` (0: the start).
  virtual void sent(std::int64_t tick, const std::uint8_t* p, std::size_t n) = 0;
  // One byte from the firmware, in arrival order.
  virtual void received(std::int64_t tick, std::uint8_t b) = 0;
  // The fault class (link_faults.hpp) the runner injects at `tick`.
  virtual void fault(std::int64_t tick, int cls) = 0;
  // true: there is no firmware; the bytes read come from next_received().
  virtual bool stands_in() const { return false; }
  // The next bytes the firmware would send (at most `cap`); 0 when none come now (the runner sees
  // a timeout) and `closed` when none ever will.
  virtual std::size_t next_received(std::uint8_t*, std::size_t, bool& closed) {
    closed = true;
    return 0;
  }
};

}  // namespace hil_run
