// SPDX-License-Identifier: Apache-2.0
// Splits a received byte stream into frames at the 0x00 delimiters of the COBS framing
// (link/cobs.hpp), into a fixed buffer. A receiver that starts mid-frame, or meets line noise,
// resynchronises at the next delimiter: what came before it is one malformed frame, rejected by
// decode_frame(). Bytes beyond the longest frame are dropped and the frame is reported as an
// overflow (count it as LinkError::bad_length). Constant work per byte, no data-dependent loop.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/link/frame_layout.hpp"

namespace attractor::link {

class FrameReceiver {
 public:
  enum class Event : std::uint8_t {
    none = 0,     // byte stored (or an empty frame between two delimiters: ignored)
    frame = 1,    // a delimiter ended a frame: data()/size() hold its encoded bytes
    overflow = 2  // a delimiter ended a frame longer than any valid one (bytes were dropped)
  };

  Event push(std::uint8_t b) {
    if (b == 0) {
      const Event e = overflow_ ? Event::overflow : fill_ > 0 ? Event::frame : Event::none;
      size_ = overflow_ ? 0 : fill_;
      fill_ = 0;
      overflow_ = false;
      return e;
    }
    const bool room = fill_ < sizeof buf_;
    buf_[room ? fill_ : sizeof buf_ - 1] = room ? b : buf_[sizeof buf_ - 1];
    fill_ += room ? 1 : 0;
    overflow_ = overflow_ || !room;
    return Event::none;
  }

  // The last complete frame (valid until the next push() that stores a byte over it).
  const std::uint8_t* data() const { return buf_; }
  std::size_t size() const { return size_; }
  // Bytes of the frame in progress (0 right after a delimiter).
  std::size_t pending() const { return fill_; }

  void reset() {
    fill_ = 0;
    size_ = 0;
    overflow_ = false;
  }

 private:
  std::uint8_t buf_[layout::max_encoded_size] = {};
  std::size_t fill_ = 0;
  std::size_t size_ = 0;
  bool overflow_ = false;
};

}  // namespace attractor::link
