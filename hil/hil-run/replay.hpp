// SPDX-License-Identifier: Apache-2.0
// Record and replay (docs/hil.md "Record and replay"), on the recording of recording.hpp:
//   --record FILE             the options that decide the bytes go into the file's header as
//                             key=value lines (recorded_options), the Peer's bytes into its events
//   --replay FILE             the recorded writes go to the firmware again, in their order, each
//                             after the answers recorded before it have come; every byte the
//                             firmware sends is compared with the recording (FirmwareReplay)
//   --replay FILE --plant-only no firmware: the recorded answers are served to the runner, which
//                             runs the plant with the recorded options; every byte it writes is
//                             compared with the recording (PlantReplay): a plant regression test
// The first difference ends the replay with exit 10, naming the tick and the byte offset in the
// frame (the segment up to its 0x00) where it lies.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "byte_tap.hpp"
#include "link_faults.hpp"
#include "qemu_monitor.hpp"
#include "recording.hpp"
#include "transport.hpp"

namespace hil_run {

// The options that decide what goes over the link; a replay takes them from the recording and
// refuses them on its command line.
inline const std::vector<std::string> kRecordedKeys = {
    "plant", "ticks",    "fault-every", "faults",  "vertical-bias", "gyro-bias",    "reset-down", "noise",
    "seed",  "mismatch", "link",        "machine", "baud",          "status-every", "stuck-ticks"};

inline std::string recorded_options(const attractor::cli::Args& a, const std::string& firmware) {
  std::string s = "# attractor-hil recording of " + firmware + "\n";
  for (const auto& k : kRecordedKeys)
    if (a.given(k)) s += k + "=" + a.raw(k) + "\n";
  return s;
}

// The recording's options text (key=value lines, '#' comments) into `a`: a recording is data, so
// only the keys of kRecordedKeys are read, each once and never over the command line (which may
// not give them); any other line, an option naming a file or a program above all (elf, qemu,
// csv, record, serial, replay, config), is exit 2 with its byte offset in the file.
inline void read_recorded_options(const std::string& text, const std::string& path, attractor::cli::Args& a) {
  using attractor::cli::Failure;
  auto trim = [](const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  std::vector<std::string> seen;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = trim(text.substr(pos, nl - pos));
    // The line's start in the file: the options text follows the 16-byte header (recording.hpp).
    const std::string at = " (byte " + std::to_string(kRecordingHeader + pos) + ")";
    pos = nl + 1;
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    const std::string k = trim(line.substr(0, eq == std::string::npos ? 0 : eq));
    const bool recorded = std::find(kRecordedKeys.begin(), kRecordedKeys.end(), k) != kRecordedKeys.end();
    if (eq == std::string::npos || !recorded) {
      const bool name_like = !k.empty() && k.size() <= 40 &&
                             k.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos;
      std::string keys;
      for (const auto& r : kRecordedKeys) keys += (keys.empty() ? "" : ", ") + r;
      throw Failure(attractor::cli::exit_usage, "--replay: '" + path + "' has " +
                                                    (name_like ? "the key '" + k + "'" : std::string("a line")) +
                                                    " in its options, not a recorded option (only " + keys + ")" + at);
    }
    if (std::find(seen.begin(), seen.end(), k) != seen.end() || a.given(k))
      throw Failure(attractor::cli::exit_usage, "--replay: '" + path + "' gives '" + k + "' twice" + at);
    seen.push_back(k);
    const std::string v = trim(line.substr(eq + 1));
    if (v.empty()) throw Failure(attractor::cli::exit_usage, "--replay: '" + path + "': '" + k + "' is empty" + at);
    a.set(k, v, "--replay " + path + at);
  }
}

// --replay: the rules (the command line gives none of the recorded options), then the file
// (checked whole), then its recorded options into `a`. Everything before anything is started.
inline Recording load_replay(attractor::cli::Args& a) {
  using attractor::cli::Failure;
  a.forbid("record", "with --replay (a replay writes no recording)");
  for (const char* k : {"csv", "csv-every", "progress"}) a.forbid(k, "with --replay (it compares bytes, not a run)");
  for (const auto& k : kRecordedKeys) a.forbid(k, "with --replay (the recording's value is used)");
  const std::string path = a.text("replay");
  if (path.empty()) throw Failure(attractor::cli::exit_usage, "--replay: empty file name");
  Recording r = load_recording(path);
  read_recorded_options(r.options, path, a);
  return r;
}

// The offset of byte `p` of a byte stream in its segment (bytes since the 0x00 before it).
inline std::size_t offset_in_segment(const std::vector<std::uint8_t>& stream, std::size_t p) {
  std::size_t k = p;
  while (k > 0 && stream[k - 1] != 0) --k;
  return p - k;
}

[[noreturn]] inline void replay_differs(const std::string& what, std::int64_t tick, std::size_t offset, int recorded,
                                        int now) {
  auto byte = [](int v) {
    char h[8];
    std::snprintf(h, sizeof h, "0x%02x", unsigned(v));
    return v < 0 ? std::string("nothing") : std::string(h);
  };
  throw attractor::cli::Failure(attractor::cli::exit_hil_replay,
                                what + " at tick " + std::to_string(tick) + ", byte " + std::to_string(offset) +
                                    " of the frame: recorded " + byte(recorded) + ", now " + byte(now));
}

// The firmware's byte stream against the recorded one, as it arrives.
class FirmwareReplay : public ByteTap {
 public:
  explicit FirmwareReplay(const Recording& r) {
    for (const RecordedEvent& e : r.events)
      if (e.kind == 'i')
        for (std::uint8_t b : e.bytes) {
          in_.push_back(b);
          tick_.push_back(e.tick);
        }
  }
  void sent(std::int64_t, const std::uint8_t*, std::size_t) override {}
  void fault(std::int64_t, int) override {}
  void received(std::int64_t, std::uint8_t b) override {
    if (bad_ < 0 && (pos_ >= in_.size() || in_[pos_] != b)) {
      bad_ = long(pos_);
      got_ = b;
    }
    ++pos_;
  }
  // Replays the writes (and QEMU's resets of the unrequested_reset class, by `monitor`); returns
  // the bytes compared.
  // A recorded answer that is --answer-timeout late gets the runner's lone 0x00 (answers.hpp),
  // an empty segment the firmware ignores: a stalled byte path is nudged, nothing is replayed
  // twice; --timeout without a byte is "stopped sending".
  std::size_t run(Peer& peer, const Recording& r, QemuMonitor* monitor = nullptr, int answer_timeout_ms = 200,
                  double timeout_s = 10) {
    std::size_t want = 0;  // recorded bytes up to the end of the last complete segment so far
    attractor::link::FrameView v;
    attractor::link::LinkError e;
    for (const RecordedEvent& ev : r.events) {
      peer.tick = ev.tick;
      if (ev.kind == 'f' && ev.bytes[0] == int(attractor::hil::Fault::unrequested_reset) && monitor != nullptr)
        monitor->system_reset();
      if (ev.kind == 'o') peer.send(ev.bytes);
      if (ev.kind != 'i') continue;
      want += ev.bytes.size();
      if (ev.bytes.empty() || ev.bytes.back() != 0) continue;  // a part: compared with the rest
      auto last = std::chrono::steady_clock::now();
      while (pos_ < want && bad_ < 0) {
        if (peer.receive(v, e, answer_timeout_ms)) {
          last = std::chrono::steady_clock::now();
          continue;
        }
        if (peer.closed() || std::chrono::steady_clock::now() - last > std::chrono::duration<double>(timeout_s))
          replay_differs("the firmware stopped sending", tick_[pos_], offset(pos_), in_[pos_], -1);
        peer.send({0});  // as the runner does for a late answer: an empty segment, no input to the firmware
        ++nudges;
      }
      check();
    }
    check();
    return pos_;
  }

 private:
  std::size_t offset(std::size_t p) const { return offset_in_segment(in_, p); }
  void check() const {
    if (bad_ < 0) return;
    const std::size_t p = std::size_t(bad_);
    if (p >= in_.size())
      replay_differs("the firmware sent more than the recording", tick_.empty() ? 0 : tick_.back(), 0, -1, got_);
    replay_differs("the firmware's answer differs from the recording", tick_[p], offset(p), in_[p], got_);
  }
  std::vector<std::uint8_t> in_;
  std::vector<std::int64_t> tick_;

 public:
  long nudges = 0;  // lone 0x00 sent after a late answer

 private:
  std::size_t pos_ = 0;
  long bad_ = -1;
  int got_ = -1;
};

// --plant-only: stands in for the firmware with the recorded answers; the runner's writes and
// fault schedule must be the recorded ones.
class PlantReplay : public ByteTap {
 public:
  explicit PlantReplay(const Recording& r) : ev_(r.events) {}
  bool stands_in() const override { return true; }
  void received(std::int64_t, std::uint8_t) override {}
  void sent(std::int64_t tick, const std::uint8_t* p, std::size_t n) override {
    const RecordedEvent* e = next('o', tick);
    for (std::size_t k = 0; k < std::max(n, e->bytes.size()); ++k) {
      const int was = k < e->bytes.size() ? e->bytes[k] : -1, now = k < n ? p[k] : -1;
      if (was != now) replay_differs("the runner's frame differs from the recording", tick, k, was, now);
    }
    ++i_;
  }
  void fault(std::int64_t tick, int cls) override {
    const RecordedEvent* e = next('f', tick);
    if (e->bytes[0] != cls) replay_differs("the fault schedule differs from the recording", tick, 0, e->bytes[0], cls);
    ++i_;
  }
  std::size_t next_received(std::uint8_t* buf, std::size_t cap, bool& closed) override {
    closed = i_ >= ev_.size();
    if (closed || ev_[i_].kind != 'i') return 0;
    const std::vector<std::uint8_t>& b = ev_[i_].bytes;
    const std::size_t n = std::min(cap, b.size() - at_);
    std::copy(b.begin() + long(at_), b.begin() + long(at_ + n), buf);
    at_ += n;
    if (at_ == b.size()) ++i_, at_ = 0;
    return n;
  }
  // After the run: the recording must be used up.
  void finish(std::int64_t tick) const {
    if (i_ < ev_.size())
      replay_differs("the run ended before the recording", ev_[i_].tick, 0,
                     ev_[i_].bytes.empty() ? -1 : ev_[i_].bytes[0], -1);
    (void)tick;
  }
  std::size_t events() const { return ev_.size(); }

 private:
  const RecordedEvent* next(char kind, std::int64_t tick) const {
    if (i_ >= ev_.size()) replay_differs("the runner went on past the recording", tick, 0, -1, 0);
    const RecordedEvent& e = ev_[i_];
    if (e.kind != kind || e.tick != tick) {
      const char* what = e.kind == 'f'   ? "the recording injects a fault here"
                         : e.kind == 'i' ? "the recording has an answer here"
                                         : "the recording writes a frame here";
      replay_differs(std::string("the runner's run differs from the recording (") + what + " at tick " +
                         std::to_string(e.tick) + ")",
                     tick, 0, e.bytes.empty() ? -1 : e.bytes[0], -1);
    }
    return &e;
  }
  const std::vector<RecordedEvent>& ev_;
  std::size_t i_ = 0, at_ = 0;
};

}  // namespace hil_run
