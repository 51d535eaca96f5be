// SPDX-License-Identifier: Apache-2.0
// attractor-hil's recording file (hil/hil-run/recording.hpp) and its replay checks (replay.hpp),
// without QEMU: a written recording reads back event for event; every truncation, a foreign or
// newer file and each malformed field is refused with exit 2 and its reason, an unreadable one
// with exit 6; the firmware's and the plant's bytes are compared bit for bit and the first
// difference is named by tick and byte (exit 10).
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "recording.hpp"
#include "replay.hpp"

namespace {

using namespace hil_run;
using Bytes = std::vector<std::uint8_t>;

// A small recording: hello out, boot + hello answer in, one fault, one tick with an answer.
Bytes sample_recording(const std::string& options = "plant=skate\nticks=2\n") {
  char path[] = "/tmp/attractor-recording-XXXXXX";
  const int fd = ::mkstemp(path);
  std::FILE* f = ::fdopen(fd, "w+b");
  {
    RecordingWriter w(f, path, options);
    const Bytes hello = {0, 3, 1, 2, 0}, frame = {0, 4, 9, 9, 9, 0};
    w.sent(0, hello.data(), hello.size());
    for (std::uint8_t b : Bytes{2, 7, 0, 3, 1, 2, 0}) w.received(0, b);  // boot, hello answer
    w.fault(1, 3);
    w.sent(1, frame.data(), frame.size());
    for (std::uint8_t b : Bytes{5, 1, 2, 3, 4, 0}) w.received(1, b);
    w.finish(2);
  }
  std::rewind(f);
  Bytes d;
  int c;
  while ((c = std::fgetc(f)) != EOF) d.push_back(std::uint8_t(c));
  std::fclose(f);
  ::unlink(path);
  return d;
}

// The message of the Failure that parse_recording throws on `d` (code checked).
std::string refused(const Bytes& d, int code = attractor::cli::exit_usage) {
  try {
    parse_recording(d, "x.rec");
  } catch (const attractor::cli::Failure& f) {
    EXPECT_EQ(f.code, code) << f.what();
    return f.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

TEST(Recording, ReadsBackEventForEvent) {
  const Recording r = parse_recording(sample_recording(), "x.rec");
  EXPECT_EQ(r.version, kRecordingVersion);
  EXPECT_EQ(r.options, "plant=skate\nticks=2\n");
  ASSERT_EQ(r.events.size(), 6u);  // o, i (boot), i (hello answer), f, o, i
  const char kinds[] = {'o', 'i', 'i', 'f', 'o', 'i'};
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(r.events[k].kind, kinds[k]) << k;
  EXPECT_EQ(r.events[2].bytes, (Bytes{3, 1, 2, 0}));
  EXPECT_EQ(r.events[3].bytes, (Bytes{3}));
  EXPECT_EQ(r.events[5].tick, 1);
}

TEST(Recording, EveryTruncationIsRefused) {
  const Bytes d = sample_recording();
  for (std::size_t n = 0; n < d.size(); ++n) {
    const std::string m = refused(Bytes(d.begin(), d.begin() + long(n)));
    EXPECT_TRUE(m.find("truncated") != std::string::npos ||
                m.find("not an attractor-hil recording") != std::string::npos)
        << n << ": " << m;
  }
}

TEST(Recording, ForeignAndMalformedFilesAreRefusedWithTheirReason) {
  const Bytes good = sample_recording("");  // no options: the first event at byte 16
  auto with = [&](std::size_t at, std::uint8_t v) {
    Bytes d = good;
    d[at] = v;
    return d;
  };
  EXPECT_NE(refused(with(0, 'X')).find("not an attractor-hil recording"), std::string::npos);
  EXPECT_NE(refused(with(8, 2)).find("format version 2; this runner reads version 1"), std::string::npos);
  EXPECT_NE(refused(with(15, 1)).find("options text of"), std::string::npos);
  EXPECT_NE(refused(with(16, 'x')).find("unknown kind 120 (byte 16)"), std::string::npos);
  EXPECT_NE(refused(with(16 + 20, 1)).find("at most 65536"), std::string::npos);  // event size 2^24 + 5
  EXPECT_NE(refused(with(16, 'f')).find("'f' event of the wrong size"), std::string::npos);
  EXPECT_NE(refused(with(16 + 8, 0x80)).find("tick index going backwards"), std::string::npos);  // tick < 0
  Bytes more = good;
  more.push_back(0);
  EXPECT_NE(refused(more).find("bytes after its end record"), std::string::npos);
  Bytes count = good;
  count[count.size() - 8] ^= 1;
  EXPECT_NE(refused(count).find("end record counting"), std::string::npos);
  Bytes nul = sample_recording(std::string("a\0b", 3));
  EXPECT_NE(refused(nul).find("NUL byte"), std::string::npos);
}

// The byte offset of event k (0-based) of a recording `d` (walking the event headers).
std::size_t event_offset(const Bytes& d, std::size_t k) {
  std::size_t at = kRecordingHeader + recording_u32(d, 12);
  for (std::size_t i = 0; i < k; ++i) at += kEventHeader + recording_u32(d, at + 17);
  return at;
}

// Ticks never decrease from one event to the next (equal ticks are the rule within a tick): a
// recording whose ticks go 5 then 0, or 1 then 0, is refused at the later event's tick field.
TEST(Recording, TicksGoingBackwardsAreRefused) {
  const Bytes good = sample_recording("");  // ticks 0 0 0 1 1 1
  Bytes d = good;
  d[event_offset(d, 1) + 1] = 5;  // event 1 at tick 5, event 2 at tick 0
  EXPECT_NE(refused(d).find("has a tick index going backwards (byte " + std::to_string(event_offset(d, 2) + 1) + ")"),
            std::string::npos)
      << refused(d);
  d = good;
  d[event_offset(d, 5) + 1] = 0;  // the last event (tick 1) at tick 0, after the tick-1 frame
  EXPECT_NE(refused(d).find("going backwards (byte " + std::to_string(event_offset(d, 5) + 1) + ")"),
            std::string::npos);
  d = good;
  d[event_offset(d, 3) + 1] = 0;  // the fault one tick earlier: still never decreasing
  EXPECT_EQ(parse_recording(d, "x.rec").events[3].tick, 0);
}

TEST(Recording, UnreadableFileIsAnIoError) {
  for (const char* p : {"/nonexistent/x.rec", "/tmp"}) try {
      load_recording(p);
      ADD_FAILURE() << p;
    } catch (const attractor::cli::Failure& f) {
      EXPECT_EQ(f.code, attractor::cli::exit_io) << f.what();
    }
}

std::string replay_failure(const std::function<void()>& run) {
  try {
    run();
  } catch (const attractor::cli::Failure& f) {
    EXPECT_EQ(f.code, attractor::cli::exit_hil_replay) << f.what();
    return f.what();
  }
  return "";
}

TEST(Replay, PlantOnlyServesTheAnswersAndComparesEveryWrite) {
  const Recording r = parse_recording(sample_recording(), "x.rec");
  {
    PlantReplay script(r);
    Peer peer(-1, -1, 1.0);
    peer.tap = &script;
    attractor::link::FrameView v;
    attractor::link::LinkError e;
    peer.send({0, 3, 1, 2, 0});
    EXPECT_TRUE(peer.receive(v, e));   // the boot frame's bytes
    EXPECT_TRUE(peer.receive(v, e));   // the hello answer's
    EXPECT_FALSE(peer.receive(v, e));  // the recording writes next: a timeout, not the end
    EXPECT_FALSE(peer.closed());
    peer.tick = 1;
    peer.note_fault(1, 3);
    const std::string m = replay_failure([&] { peer.send({0, 4, 9, 8, 9, 0}); });
    EXPECT_NE(m.find("the runner's frame differs from the recording at tick 1, byte 3 of the frame: recorded 0x09, now "
                     "0x08"),
              std::string::npos)
        << m;
  }
  PlantReplay script(r);
  Peer peer(-1, -1, 1.0);
  peer.tap = &script;
  attractor::link::FrameView v;
  attractor::link::LinkError e;
  peer.send({0, 3, 1, 2, 0});
  EXPECT_TRUE(peer.receive(v, e) && peer.receive(v, e));
  peer.tick = 1;
  EXPECT_NE(replay_failure([&] { peer.note_fault(1, 4); }).find("fault schedule differs"), std::string::npos);
}

// The plant-only replay compares where each write and fault happen, not only their bytes: the
// recorded hello, the tick-1 fault or the tick-1 frame at another tick is a difference naming
// both ticks; the recorded run itself goes through and uses the recording up.
TEST(Replay, PlantOnlyRefusesAWriteOrFaultAtAnotherTick) {
  const Recording r = parse_recording(sample_recording(), "x.rec");
  const Bytes hello = {0, 3, 1, 2, 0}, frame = {0, 4, 9, 9, 9, 0};
  // Runs the recorded run up to `stop` (0: the hello, 1: the fault, 2: the frame, 3: all) at
  // the recorded ticks, then that step at tick `at`; the replay's message ("" when none).
  auto run = [&](int stop, std::int64_t at) {
    PlantReplay script(r);
    Peer peer(-1, -1, 1.0);
    peer.tap = &script;
    attractor::link::FrameView v;
    attractor::link::LinkError e;
    return replay_failure([&] {
      peer.tick = stop == 0 ? at : 0;
      peer.send(hello);
      EXPECT_TRUE(peer.receive(v, e) && peer.receive(v, e));
      peer.tick = stop == 1 ? at : 1;
      peer.note_fault(peer.tick, 3);
      peer.tick = stop == 2 ? at : 1;
      peer.send(frame);
      EXPECT_TRUE(peer.receive(v, e));
      script.finish(peer.tick);
      if (stop == 3) peer.send(frame);
    });
  };
  EXPECT_NE(run(0, 3).find("(the recording writes a frame here at tick 0) at tick 3"), std::string::npos) << run(0, 3);
  EXPECT_NE(run(1, 2).find("(the recording injects a fault here at tick 1) at tick 2"), std::string::npos) << run(1, 2);
  EXPECT_NE(run(2, 2).find("(the recording writes a frame here at tick 1) at tick 2"), std::string::npos) << run(2, 2);
  EXPECT_NE(run(3, 0).find("the runner went on past the recording at tick 1"), std::string::npos) << run(3, 0);
  // The order within a tick too: the tick-1 frame before the tick-1 fault.
  PlantReplay script(r);
  Peer peer(-1, -1, 1.0);
  peer.tap = &script;
  attractor::link::FrameView v;
  attractor::link::LinkError e;
  peer.send(hello);
  EXPECT_TRUE(peer.receive(v, e) && peer.receive(v, e));
  peer.tick = 1;
  const std::string m = replay_failure([&] { peer.send(frame); });
  EXPECT_NE(m.find("(the recording injects a fault here at tick 1) at tick 1"), std::string::npos) << m;
}

// The firmware side over a socket pair: the test writes what the "firmware" sends in advance.
std::string firmware_replay(const Bytes& firmware_bytes) {
  const Recording r = parse_recording(sample_recording(), "x.rec");
  int sv[2];
  EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  EXPECT_EQ(::write(sv[1], firmware_bytes.data(), firmware_bytes.size()), ssize_t(firmware_bytes.size()));
  ::shutdown(sv[1], SHUT_WR);
  Peer peer(sv[0], sv[0], 1.0);
  FirmwareReplay check(r);
  peer.tap = &check;
  const std::string m = replay_failure([&] { EXPECT_EQ(check.run(peer, r, nullptr, 10, 0.2), 13u); });
  ::close(sv[1]);
  return m;
}

TEST(Replay, FirmwareAnswersAreComparedBitForBit) {
  EXPECT_EQ(firmware_replay({2, 7, 0, 3, 1, 2, 0, 5, 1, 2, 3, 4, 0}), "");
  EXPECT_NE(firmware_replay({2, 7, 0, 3, 1, 2, 0, 5, 1, 2, 3, 5, 0})
                .find("the firmware's answer differs from the recording at tick 1, byte 4 of the frame: recorded 0x04, "
                      "now 0x05"),
            std::string::npos);
  EXPECT_NE(firmware_replay({2, 7, 0, 3, 1, 2, 0, 5, 1}).find("the firmware stopped sending at tick 1, byte 2"),
            std::string::npos);
}

}  // namespace
