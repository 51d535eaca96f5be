// SPDX-License-Identifier: Apache-2.0
// The line side of the HIL link: the fault counters and the frame receiver (a byte stream split at
// its delimiters, resynchronised after junk, the longest valid frame taken and one byte more
// discarded).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "attractor/link/frame_receiver.hpp"
#include "attractor/link/status_frame.hpp"
#include "frame_bytes.hpp"

using namespace attractor::link;
using namespace frame_bytes;

TEST(LinkCounters, CountsEachLineFaultOnce) {
  LinkCounters c;
  c.gaps = 99;  // the counter after the rejection classes: an index one past them would read it
  for (int e = 0; e < attractor::link::kLinkErrorCount; ++e) c.count(LinkError(e));
  for (int e = 1; e <= layout::link_counters; ++e) EXPECT_EQ(c.rejected_by(LinkError(e)), 1u) << e;
  EXPECT_EQ(c.rejected_by(LinkError::none), 0u);
  EXPECT_EQ(c.rejected_by(LinkError::buffer_too_small), 0u);
  EXPECT_EQ(c.total_rejected(), std::uint32_t(layout::link_counters));
}

// The firmware's power-on totals add every run's counters, each into its own.
TEST(LinkCounters, AddSumsEveryCounterIntoItsOwn) {
  LinkCounters a, b;
  for (int i = 0; i < layout::link_counters; ++i) {
    a.rejected[i] = std::uint32_t(i + 1);
    b.rejected[i] = std::uint32_t(100 * (i + 1));
  }
  a.gaps = 1;
  a.repeated = 2;
  a.late = 3;
  a.implausible = 4;
  a.wild = 5;
  b.gaps = 10;
  b.repeated = 20;
  b.late = 30;
  b.implausible = 40;
  b.wild = 50;
  a.add(b);
  for (int i = 0; i < layout::link_counters; ++i) EXPECT_EQ(a.rejected[i], std::uint32_t(101 * (i + 1))) << i;
  EXPECT_EQ(a.gaps, 11u);
  EXPECT_EQ(a.repeated, 22u);
  EXPECT_EQ(a.late, 33u);
  EXPECT_EQ(a.implausible, 44u);
  EXPECT_EQ(a.wild, 55u);
  EXPECT_EQ(b.gaps, 10u) << "the other side is not changed";
}

TEST(LinkReceiver, SplitsAStreamAndResynchronises) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(encode_sensor_frame(5, 6, sample_reading<float>(), wire, sizeof wire, n), LinkError::none);
  Bytes stream{0x13, 0x37, 0x00, 0x00};               // line noise, then delimiters (an empty frame)
  stream.insert(stream.end(), wire, wire + 20);       // a frame cut short by ...
  stream.insert(stream.end(), wire, wire + n);        // ... a complete one (resync at its delimiter)
  stream.insert(stream.end(), 300, std::uint8_t(7));  // an overlong run
  stream.push_back(0);
  stream.insert(stream.end(), wire, wire + n);

  FrameReceiver rx;
  std::vector<LinkError> results;
  int overflows = 0;
  for (std::uint8_t b : stream) {
    const FrameReceiver::Event e = rx.push(b);
    if (e == FrameReceiver::Event::overflow) ++overflows;
    if (e != FrameReceiver::Event::frame) continue;
    FrameHeader h;
    SensorReading<float> r;
    results.push_back(decode_sensor_frame(rx.data(), rx.size(), h, r));
  }
  // noise (2 bytes: too short), cut frame + complete frame joined (too long or broken), the
  // good frame is lost with the cut one; then the overflow; then a good frame.
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0], LinkError::bad_length);
  EXPECT_NE(results[1], LinkError::none);
  EXPECT_EQ(results[2], LinkError::none);
  EXPECT_EQ(overflows, 1);
  EXPECT_EQ(rx.pending(), 0u);
}

// The longest valid frame (a status frame: max_encoded_size bytes before its delimiter) is a
// frame; one byte more is an overflow, and the frame after it is whole again.
TEST(LinkReceiver, TakesTheLongestFrameAndDiscardsOneByteMore) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  StatusReport st;
  st.link.gaps = 3;
  ASSERT_EQ(encode_status_frame(7u, 8u, st, wire, sizeof wire, n), LinkError::none);
  ASSERT_EQ(n, layout::max_wire_size) << "the status frame is the longest frame";
  FrameReceiver rx;
  FrameReceiver::Event e = FrameReceiver::Event::none;
  for (std::size_t i = 0; i < n; ++i) e = rx.push(wire[i]);
  ASSERT_EQ(e, FrameReceiver::Event::frame);
  ASSERT_EQ(rx.size(), layout::max_encoded_size);
  FrameView v;
  EXPECT_EQ(decode_frame(rx.data(), rx.size(), v), LinkError::none);
  EXPECT_EQ(v.header.sequence, 7u);
  // One byte over the longest frame: the whole run is dropped and reported once.
  for (std::size_t i = 0; i <= layout::max_encoded_size; ++i) {
    EXPECT_EQ(rx.push(std::uint8_t(1 + i % 200)), FrameReceiver::Event::none);
  }
  EXPECT_EQ(rx.pending(), layout::max_encoded_size) << "the buffer holds at most the longest frame";
  EXPECT_EQ(rx.push(0), FrameReceiver::Event::overflow);
  EXPECT_EQ(rx.size(), 0u);
  for (std::size_t i = 0; i < n; ++i) e = rx.push(wire[i]);
  ASSERT_EQ(e, FrameReceiver::Event::frame);
  EXPECT_EQ(decode_frame(rx.data(), rx.size(), v), LinkError::none) << "resynchronised";
}

// reset() (a hello's new run) forgets the last frame, the frame in progress and an overflow in
// progress: the next delimiter ends nothing, and the next frame is whole.
TEST(LinkReceiver, ResetForgetsTheLastFrameAndAnyFrameInProgress) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(encode_sensor_frame(5, 6, sample_reading<float>(), wire, sizeof wire, n), LinkError::none);
  FrameReceiver rx;
  for (std::size_t i = 0; i < n; ++i) rx.push(wire[i]);
  ASSERT_EQ(rx.size(), n - 1);
  for (std::size_t i = 0; i < 10; ++i) rx.push(wire[i]);  // a frame in progress
  rx.reset();
  EXPECT_EQ(rx.size(), 0u) << "no last frame";
  EXPECT_EQ(rx.pending(), 0u) << "no frame in progress";
  EXPECT_EQ(rx.push(0), FrameReceiver::Event::none) << "the delimiter ends nothing";

  for (std::size_t i = 0; i <= layout::max_encoded_size; ++i) rx.push(7);  // an overflow in progress
  rx.reset();
  FrameReceiver::Event e = FrameReceiver::Event::none;
  for (std::size_t i = 0; i < n; ++i) e = rx.push(wire[i]);
  EXPECT_EQ(e, FrameReceiver::Event::frame) << "the overflow was forgotten";
  EXPECT_EQ(rx.size(), n - 1);
}
