// SPDX-License-Identifier: Apache-2.0
// The byte paths between the runner and the firmware, and Peer, the frame-level view of one:
//   QEMU    UART0 on a Unix socket the runner connects to (QEMU waits for it before the guest
//           starts); with --link semihost the same frames over two host FIFOs instead, opened
//           by the firmware through semihosting (board/semihost_link.hpp), the socket unused
//   serial  a board behind a serial device (POSIX termios, raw)
// Every failure throws Failure with the table's code (exit_codes.hpp); the caller's QemuProcess
// stops QEMU on the way out.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "attractor/link/frame_receiver.hpp"
#include "byte_tap.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "qemu_process.hpp"

namespace hil_run {

using attractor::cli::Failure;
namespace code = attractor::cli;

// Names of this run's socket and FIFOs (one runner per PID).
inline std::string temp_prefix() { return "/tmp/attractor-hil-" + std::to_string(::getpid()); }

// Removes the socket and FIFO names at the end of the run, whatever ends it.
struct TemporaryNames {
  ~TemporaryNames() {
    for (const char* end : {".sock", ".in", ".out", ".mon"}) ::unlink((temp_prefix() + end).c_str());
  }
};

// The QEMU command line: UART0 on the socket. Host semihosting (file access and commands with
// the runner's rights) only for --link semihost, whose FIFOs it opens; there the firmware finds
// the FIFO prefix in its semihosting command line. On the UART link the firmware runs without
// it: its console lines are dropped and it does not exit by itself (boards/common/fault.cpp
// steps over a semihosting call nobody takes), so the runner stops QEMU after the goodbye.
inline std::vector<std::string> qemu_command(const Options& o) {
  std::vector<std::string> args = {o.qemu,
                                   "-M",
                                   o.machine,
                                   "-display",
                                   "none",
                                   "-monitor",
                                   o.needs_monitor() ? "unix:" + temp_prefix() + ".mon,server=on,wait=off" : "none",
                                   "-chardev",
                                   "socket,id=u0,path=" + temp_prefix() + ".sock,server=on,wait=on",
                                   "-serial",
                                   "chardev:u0",
                                   "-icount",
                                   "shift=0,align=off,sleep=off"};
  if (o.link == "semihost") {
    args.push_back("-semihosting-config");
    args.push_back("enable=on,target=native,arg=skate-rotor-hil,arg=hil-fifo=" + temp_prefix());
  }
  args.push_back("-kernel");
  args.push_back(o.elf);
  return args;
}

// The command line as one shell line (--print-qemu-command): an argument with a character the
// shell would read is single-quoted.
inline std::string shell_line(const std::vector<std::string>& args) {
  std::string line;
  for (const std::string& a : args) {
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789-_./=,:+@%") == std::string::npos;
    std::string q = plain ? a : "'";
    if (!plain) {
      for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
      q += "'";
    }
    line += (line.empty() ? "" : " ") + q;
  }
  return line;
}

// The firmware's own report of a wrong board ("BOARD MISMATCH: ...", board/identity.hpp) as
// the message of exit 11; it comes over the UART (Peer) or semihosting (QEMU's stderr).
inline Failure board_mismatch(const std::string& line) {
  return Failure(code::exit_hil_firmware, "wrong firmware for this machine: it reports '" + line + "'");
}

// QEMU's early exit: exit 9 with its message (`when` it was noticed), or 11 when the firmware
// reported a wrong board on QEMU's stderr before it stopped.
inline Failure qemu_exited(QemuProcess& qemu, const std::string& when) {
  const std::string msg = qemu.exit_message();
  const std::string& tail = qemu.stderr_tail();
  const std::size_t at = tail.rfind("BOARD MISMATCH");
  if (at != std::string::npos) return board_mismatch(tail.substr(at, tail.find('\n', at) - at));
  return Failure(code::exit_hil_link, when + ": " + msg);
}

// Starts QEMU and connects to its UART socket; with --link semihost creates the FIFOs first.
inline int start_qemu(const Options& o, long cpu, QemuProcess& qemu) {
  const std::string sock = temp_prefix() + ".sock";
  ::unlink(sock.c_str());
  note_temporary_path(0, sock);
  if (o.needs_monitor()) {
    ::unlink((temp_prefix() + ".mon").c_str());
    note_temporary_path(3, temp_prefix() + ".mon");
  }
  if (o.link == "semihost")
    for (int i = 0; i < 2; ++i) {
      const std::string name = temp_prefix() + (i == 0 ? ".in" : ".out");
      ::unlink(name.c_str());
      if (::mkfifo(name.c_str(), 0600) != 0)
        throw Failure(code::exit_io, "cannot create FIFO " + name + ": " + std::strerror(errno));
      note_temporary_path(1 + i, name);
    }
  qemu.start(qemu_command(o), cpu);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
  for (int attempt = 0; attempt < 500; ++attempt) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
      ::unlink(sock.c_str());  // connected: the name is no longer needed, whatever ends the run
      return fd;
    }
    ::close(fd);
    if (qemu.exited()) throw qemu_exited(qemu, "before opening its UART socket");
    qemu.drain_stderr();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw Failure(code::exit_hil_link, "QEMU's UART socket did not appear within 10 s");
}

// --link semihost, after QEMU started the guest: the read end of PREFIX.out at once, the write
// end of PREFIX.in once the firmware opened it (ENXIO until then). The names stay until the
// runner exits: a firmware rebooted by a reset fault opens them again.
inline void open_fifos(const Options& o, QemuProcess& qemu, int& rfd, int& wfd) {
  const std::string prefix = temp_prefix();
  rfd = ::open((prefix + ".out").c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  const auto t0 = std::chrono::steady_clock::now();
  while ((wfd = ::open((prefix + ".in").c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0 && errno == ENXIO) {
    qemu.drain_stderr();
    if (qemu.exited()) throw qemu_exited(qemu, "before the firmware opened the link FIFO");
    if (std::chrono::steady_clock::now() - t0 > std::chrono::duration<double>(o.timeout_s))
      throw Failure(code::exit_hil_silent,
                    "--link semihost: the firmware did not open the link FIFO (an image without "
                    "board/semihost_link.hpp?)");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (rfd < 0 || wfd < 0) throw Failure(code::exit_hil_link, "cannot open the FIFOs " + prefix + ".in/.out");
  ::fcntl(wfd, F_SETFL, ::fcntl(wfd, F_GETFL) & ~O_NONBLOCK);
}

inline speed_t baud_constant(int b) {
  switch (b) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    default: return B115200;  // the options allow only the rates above and 115200
  }
}

inline int open_serial(const Options& o) {
  const int fd = ::open(o.serial.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw Failure(code::exit_usage, "--serial: cannot open " + o.serial + ": " + std::strerror(errno));
  termios t{};
  if (tcgetattr(fd, &t) != 0) {
    ::close(fd);
    throw Failure(code::exit_usage, "--serial: " + o.serial + " is not a serial device");
  }
  cfmakeraw(&t);
  cfsetispeed(&t, baud_constant(o.baud));
  cfsetospeed(&t, baud_constant(o.baud));
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  tcsetattr(fd, TCSANOW, &t);
  tcflush(fd, TCIOFLUSH);
  return fd;
}

// Frames both ways over one byte path (read and write ends: one socket or device, or two FIFOs).
class Peer {
 public:
  Peer(int rfd, int wfd, double timeout_s) : fd_(rfd), wfd_(wfd), timeout_ms_(int(timeout_s * 1000)) {}
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;
  ~Peer() {
    if (wfd_ != fd_ && wfd_ >= 0) ::close(wfd_);
    if (fd_ >= 0) ::close(fd_);
  }

  void send(const std::vector<std::uint8_t>& f) {
    if (tap != nullptr) tap->sent(tick, f.data(), f.size());
    std::size_t off = tap != nullptr && tap->stands_in() ? f.size() : 0;
    while (off < f.size()) {
      const ssize_t n = ::write(wfd_, f.data() + off, f.size() - off);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw Failure(code::exit_hil_link, std::string("write to the firmware failed: ") + std::strerror(errno));
      off += std::size_t(n);
    }
    ++frames_sent_;
    bytes_sent_ += long(f.size());
  }

  // Next decoded frame from the firmware; false on timeout (timeout_ms < 0: the run's) or when
  // the firmware closed the line (closed()).
  bool receive(attractor::link::FrameView& v, attractor::link::LinkError& e, int timeout_ms = -1) {
    using attractor::link::FrameReceiver;
    for (;;) {
      while (pos_ < len_) {
        if (tap != nullptr) tap->received(tick, buf_[pos_]);
        note_text(buf_[pos_]);
        const FrameReceiver::Event ev = rx_.push(buf_[pos_++]);
        ++bytes_received_;
        if (ev == FrameReceiver::Event::none) continue;
        e = ev == FrameReceiver::Event::overflow ? attractor::link::LinkError::bad_length
                                                 : attractor::link::decode_frame(rx_.data(), rx_.size(), v);
        ++frames_received_;
        return true;
      }
      if (tap != nullptr && tap->stands_in()) {
        len_ = tap->next_received(buf_, sizeof buf_, closed_);
        pos_ = 0;
        if (len_ == 0) return false;
        continue;
      }
      if (!wait_readable(timeout_ms < 0 ? timeout_ms_ : timeout_ms)) return false;
      const ssize_t n = ::read(fd_, buf_, sizeof buf_);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) check_qemu_alive(true);
      closed_ = n <= 0;
      if (n <= 0) return false;  // closed: the firmware (a board, a relay) is gone
      len_ = std::size_t(n);
      pos_ = 0;
    }
  }

  // QEMU when the runner started it: its exit while a frame is awaited is exit 9 with its message.
  QemuProcess* qemu = nullptr;

  bool closed() const { return closed_; }
  void note_fault(std::int64_t at, int cls) {
    if (tap != nullptr) tap->fault(at, cls);
  }
  ByteTap* tap = nullptr;  // recording.hpp, replay.hpp; none: plain I/O
  std::int64_t tick = 0;   // the tick the runner is in, for the tap
  // The encoded bytes of the frame receive() returned last (until the next receive()).
  const std::uint8_t* last_data() const { return rx_.data(); }
  std::size_t last_size() const { return rx_.size(); }
  long frames_sent_ = 0, frames_received_ = 0, bytes_sent_ = 0, bytes_received_ = 0;

 private:
  // Waits up to `ms` for bytes on the byte path; QEMU's stderr passed on meanwhile, its exit
  // thrown (check_qemu_alive). False on the timeout.
  bool wait_readable(int ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
      pollfd p[3] = {{fd_, POLLIN, 0}, {-1, POLLIN, 0}, {-1, POLLIN, 0}};
      if (qemu != nullptr) p[1].fd = qemu->exit_fd(), p[2].fd = qemu->stderr_fd();
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      // Without a pidfd (an old kernel) QEMU's exit is looked for every 100 ms.
      const int slice = qemu != nullptr && qemu->exit_fd() < 0 ? 100 : int(left.count());
      const int ready = ::poll(p, 3, std::max(0, std::min(int(left.count()), slice)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0) return false;
      if (p[2].revents != 0) qemu->drain_stderr();
      if (p[0].revents != 0) return true;  // the bytes sent before an exit are read first
      if (qemu != nullptr) check_qemu_alive(false);
      if (std::chrono::steady_clock::now() >= deadline) return false;
    }
  }
  // Throws exit 9 when QEMU exited; `line_closed`: its byte path just closed, so its exit is
  // near (the sockets close before the process is reaped): waited for up to 2 s (a guard).
  void check_qemu_alive(bool line_closed) {
    if (qemu == nullptr || !qemu->running()) return;
    for (int i = 0; i < (line_closed ? 200 : 1); ++i) {
      if (qemu->exited())
        throw qemu_exited(*qemu, "while the runner waited for a frame at tick " + std::to_string(tick));
      if (line_closed) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // A line of text between frames: the firmware's "BOARD MISMATCH: ..." report at reset (board/
  // identity.hpp), sent on the UART when no semihosting takes it (the UART link), is the wrong
  // image for this machine: exit 11 with the firmware's words.
  void note_text(std::uint8_t b) {
    if (b == 0) {
      text_len_ = 0;
    } else if (b != '\n') {
      if (text_len_ < sizeof text_) text_[text_len_++] = char(b >= 0x20 && b < 0x7f ? b : '?');
    } else {
      const std::string line(text_, text_len_);
      text_len_ = 0;
      const std::size_t at = line.find("BOARD MISMATCH");
      if (at != std::string::npos)
        throw Failure(code::exit_hil_firmware, "wrong firmware for this machine: it reports '" + line.substr(at) + "'");
    }
  }
  char text_[240] = {};
  std::size_t text_len_ = 0;
  int fd_, wfd_;
  int timeout_ms_;
  attractor::link::FrameReceiver rx_;
  std::uint8_t buf_[4096];
  std::size_t len_ = 0, pos_ = 0;
  bool closed_ = false;
};

}  // namespace hil_run
