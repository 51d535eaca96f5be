// SPDX-License-Identifier: Apache-2.0
// A run's recording (--record FILE, docs/hil.md "Record and replay"): the raw bytes both ways,
// per tick and with host timestamps, the injected faults, and the options that decide them, in a
// versioned binary file. Raw bytes, not decoded fields, so that a recording does not depend on
// the frames' layout. Format version 1, every integer little-endian:
//   header  "ATTRHILR" (8 bytes), u32 version = 1, u32 N (options text bytes, <= 64 KiB),
//           N bytes of options as key=value lines (the --config form; '#' lines are comments)
//   events  u8 kind, u64 tick, u64 t_us (host monotonic clock since the run started),
//           u32 n (<= 64 KiB), n bytes:
//             'o'  one write to the firmware (a frame, a lone 0x00, a fault's bytes)
//             'i'  one segment from the firmware: bytes up to and including its 0x00 (the last
//                  one may lack it: what came before the run ended)
//             'f'  a fault injected at tick: n = 1, the class (hil/faults/link_faults.hpp)
//             'E'  the end: n = 8, u64 the number of events before it; nothing may follow
// Reading checks all of it (magic, version, sizes, kinds, ticks never decreasing, the end and
// its count) before anything starts: a file that is not a recording, truncated or malformed is
// exit 2 with the reason and the byte offset; an unreadable one exit 6. Only a regular file of at
// most 1 GiB is opened (a FIFO, a device: exit 6 before any open; larger: exit 2), and its header
// is checked before the rest is read.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "byte_tap.hpp"
#include "exit_codes.hpp"

namespace hil_run {

inline constexpr char kRecordingMagic[8] = {'A', 'T', 'T', 'R', 'H', 'I', 'L', 'R'};
inline constexpr std::uint32_t kRecordingVersion = 1;
inline constexpr std::uint32_t kRecordingMaxText = 1u << 16;  // options text and event payload bound
// 1 GiB, some 4.8 million faulted ticks: a replay holds the whole recording in memory.
inline constexpr std::uint64_t kRecordingMaxFile = 1ull << 30;
inline constexpr std::size_t kRecordingHeader = 8 + 4 + 4;  // magic, version, options text size
inline constexpr std::size_t kEventHeader = 1 + 8 + 8 + 4;

struct RecordedEvent {
  char kind = 0;
  std::int64_t tick = 0;
  std::uint64_t t_us = 0;
  std::vector<std::uint8_t> bytes;
};

struct Recording {
  std::uint32_t version = 0;
  std::string options;  // key=value lines
  std::vector<RecordedEvent> events;
};

// Writes a recording as the run goes (the Peer's tap); a failed write is exit 6 at the end
// (finish) or at once when the file is found broken (check).
class RecordingWriter : public ByteTap {
 public:
  RecordingWriter(std::FILE* f, const std::string& path, const std::string& options) : f_(f), path_(path) {
    std::fwrite(kRecordingMagic, 1, sizeof kRecordingMagic, f_);
    put32(kRecordingVersion);
    put32(std::uint32_t(options.size()));
    std::fwrite(options.data(), 1, options.size(), f_);
    t0_ = std::chrono::steady_clock::now();
  }
  void sent(std::int64_t tick, const std::uint8_t* p, std::size_t n) override {
    flush_segment(tick);  // a partial answer before a write (e.g. a cut one): kept as it came
    event('o', tick, p, n);
  }
  void received(std::int64_t tick, std::uint8_t b) override {
    segment_.push_back(b);
    if (b == 0 || segment_.size() >= kRecordingMaxText) flush_segment(tick);
  }
  void fault(std::int64_t tick, int cls) override {
    const std::uint8_t c = std::uint8_t(cls);
    event('f', tick, &c, 1);
  }
  // The end record; throws exit 6 when any write failed.
  void finish(std::int64_t tick) {
    flush_segment(tick);
    std::uint8_t n[8];
    for (int i = 0; i < 8; ++i) n[i] = std::uint8_t(count_ >> (8 * i));
    event('E', tick, n, 8);
    if (std::fflush(f_) != 0 || std::ferror(f_))
      throw attractor::cli::Failure(attractor::cli::exit_io,
                                    "--record: error writing '" + path_ + "': " + std::strerror(errno));
  }
  void check() const {
    if (std::ferror(f_))
      throw attractor::cli::Failure(attractor::cli::exit_io,
                                    "--record: error writing '" + path_ + "': " + std::strerror(errno));
  }

 private:
  void put32(std::uint32_t v) {
    const std::uint8_t b[4] = {std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)};
    std::fwrite(b, 1, 4, f_);
  }
  void put64(std::uint64_t v) {
    put32(std::uint32_t(v));
    put32(std::uint32_t(v >> 32));
  }
  void event(char kind, std::int64_t tick, const std::uint8_t* p, std::size_t n) {
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0_);
    std::size_t off = 0;
    do {  // an over-long write in pieces
      const std::size_t k = std::min<std::size_t>(n - off, kRecordingMaxText);
      std::fputc(kind, f_);
      put64(std::uint64_t(tick));
      put64(std::uint64_t(us.count()));
      put32(std::uint32_t(k));
      if (k > 0) std::fwrite(p + off, 1, k, f_);
      ++count_;
      off += k;
    } while (off < n);
  }
  void flush_segment(std::int64_t tick) {
    if (segment_.empty()) return;
    event('i', tick, segment_.data(), segment_.size());
    segment_.clear();
  }

  std::FILE* f_;
  std::string path_;
  std::chrono::steady_clock::time_point t0_;
  std::vector<std::uint8_t> segment_;
  std::uint64_t count_ = 0;
};

inline attractor::cli::Failure recording_error(const std::string& name, std::size_t at, const std::string& why) {
  return attractor::cli::Failure(attractor::cli::exit_usage,
                                 "--replay: '" + name + "' " + why + " (byte " + std::to_string(at) + ")");
}

inline std::uint32_t recording_u32(const std::vector<std::uint8_t>& d, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | d[at + std::size_t(i)];
  return v;
}

// The header's magic, version and options size, on the file's first bytes `d` (up to 16) of a
// file of `size` bytes. Throws Failure(exit_usage) with the byte offset.
inline void check_recording_header(const std::vector<std::uint8_t>& d, const std::string& name, std::size_t size) {
  if (d.size() < sizeof kRecordingMagic || std::memcmp(d.data(), kRecordingMagic, sizeof kRecordingMagic) != 0)
    throw recording_error(name, 0, "is not an attractor-hil recording (no ATTRHILR magic)");
  if (d.size() < kRecordingHeader) throw recording_error(name, d.size(), "is truncated inside its header");
  const std::uint32_t version = recording_u32(d, 8);
  if (version != kRecordingVersion)
    throw recording_error(name, 8,
                          "is a recording of format version " + std::to_string(version) +
                              "; this runner reads version " + std::to_string(kRecordingVersion));
  const std::uint32_t n = recording_u32(d, 12);
  if (n > kRecordingMaxText)
    throw recording_error(name, 12, "has an options text of " + std::to_string(n) + " bytes (at most 65536)");
  if (size < kRecordingHeader + std::size_t(n))
    throw recording_error(name, size, "is truncated inside its options text");
}

// Parses and checks a whole recording held in memory; `name` for the messages. Throws
// Failure(exit_usage) with the byte offset of what is wrong.
inline Recording parse_recording(const std::vector<std::uint8_t>& d, const std::string& name) {
  auto bad = [&](std::size_t at, const std::string& why) { return recording_error(name, at, why); };
  auto u32 = [&](std::size_t at) { return recording_u32(d, at); };
  auto u64 = [&](std::size_t at) { return std::uint64_t(u32(at)) | (std::uint64_t(u32(at + 4)) << 32); };
  check_recording_header(d, name, d.size());
  Recording r;
  r.version = u32(8);
  const std::uint32_t n = u32(12);
  r.options.assign(reinterpret_cast<const char*>(d.data()) + 16, n);
  if (r.options.find('\0') != std::string::npos) throw bad(16, "has a NUL byte in its options text");
  std::size_t at = 16 + n;
  bool ended = false;
  std::int64_t last_tick = 0;
  while (at < d.size()) {
    if (ended) throw bad(at, "has bytes after its end record");
    if (d.size() - at < kEventHeader) throw bad(at, "is truncated inside an event header");
    RecordedEvent e;
    e.kind = char(d[at]);
    e.tick = std::int64_t(u64(at + 1));
    e.t_us = u64(at + 9);
    const std::uint32_t len = u32(at + 17);
    if (e.kind != 'o' && e.kind != 'i' && e.kind != 'f' && e.kind != 'E')
      throw bad(at, "has an event of unknown kind " + std::to_string(int(d[at])));
    if (len > kRecordingMaxText)
      throw bad(at + 17, "has an event of " + std::to_string(len) + " bytes (at most 65536)");
    if ((e.kind == 'f' && len != 1) || (e.kind == 'E' && len != 8))
      throw bad(at + 17, std::string("has a '") + e.kind + "' event of the wrong size");
    if (e.tick < last_tick || e.tick < 0) throw bad(at + 1, "has a tick index going backwards");
    if (d.size() - at - kEventHeader < len) throw bad(d.size(), "is truncated inside an event");
    e.bytes.assign(d.begin() + long(at + kEventHeader), d.begin() + long(at + kEventHeader + len));
    if (e.kind == 'E') {
      if (u64(at + kEventHeader) != r.events.size())
        throw bad(at + kEventHeader, "has an end record counting " + std::to_string(u64(at + kEventHeader)) +
                                         " events, not the " + std::to_string(r.events.size()) + " present");
      ended = true;
    } else {
      r.events.push_back(std::move(e));
    }
    last_tick = r.events.empty() ? last_tick : r.events.back().tick;
    at += kEventHeader + len;
  }
  if (!ended) throw bad(d.size(), "is truncated: no end record");
  return r;
}

// Reads and checks FILE: not a regular file or unreadable is exit 6, not a valid recording exit
// 2. Its size is known before the read (fstat), the header checked on its first 16 bytes; the
// open never blocks (O_NONBLOCK: a FIFO put in its place between the checks).
inline Recording load_recording(const std::string& path) {
  using attractor::cli::Failure;
  auto io = [&](const std::string& why) { return Failure(attractor::cli::exit_io, "--replay: '" + path + "' " + why); };
  auto unreadable = [&](int e) {
    return Failure(attractor::cli::exit_io, "--replay: cannot read '" + path + "': " + std::strerror(e));
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw unreadable(errno);
  if (!S_ISREG(st.st_mode)) throw io("is not a regular file (a recording is one)");
  struct Fd {
    int fd;
    ~Fd() {
      if (fd >= 0) ::close(fd);
    }
  } f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) throw unreadable(errno);
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) throw io("is not a regular file (a recording is one)");
  if (std::uint64_t(st.st_size) > kRecordingMaxFile)
    throw Failure(attractor::cli::exit_usage, "--replay: '" + path + "' is " + std::to_string(st.st_size) +
                                                  " bytes, over the 1 GiB a recording may have (byte 0)");
  std::vector<std::uint8_t> d;
  auto read_to = [&](std::size_t n) {  // up to n bytes in all; fewer when the file ends first
    std::size_t got = d.size();
    d.resize(n);
    while (got < n) {
      const ssize_t k = ::read(f.fd, d.data() + got, n - got);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) throw unreadable(errno);
      if (k == 0) break;
      got += std::size_t(k);
    }
    d.resize(got);
  };
  const std::size_t size = std::size_t(st.st_size);
  read_to(std::min(size, kRecordingHeader));
  check_recording_header(d, path, size);
  read_to(size);
  return parse_recording(d, path);
}

}  // namespace hil_run
