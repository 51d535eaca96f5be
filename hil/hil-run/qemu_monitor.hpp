// SPDX-License-Identifier: Apache-2.0
// QEMU's human monitor on a Unix socket (PREFIX.mon), for the one thing the runner asks of it:
// `system_reset`, the fault class unrequested_reset (link_faults.hpp). It resets the machine as
// a watchdog, a brown-out that kept RAM or the reset pin would: the firmware finds its boot
// record without a request (reason other_reset) and the runner learns of it only from the boot
// frame in place of an answer. QEMU handles the command in its main loop and performs the reset
// before it reads anything sent after the reply (the next "(qemu) " prompt), so the tick's frame,
// sent after, reaches the rebooted firmware whole: a deterministic run. Only on the UART link:
// there the firmware waits in WFI, while over --link semihost it blocks in a semihosting read
// that holds QEMU's global lock, so the monitor would answer only after the next frame.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "exit_codes.hpp"
#include "qemu_process.hpp"

namespace hil_run {

class QemuMonitor {
 public:
  QemuMonitor() = default;
  QemuMonitor(const QemuMonitor&) = delete;
  QemuMonitor& operator=(const QemuMonitor&) = delete;
  ~QemuMonitor() {
    if (fd_ >= 0) ::close(fd_);
  }

  // Connects to QEMU's monitor socket (QEMU listens without waiting for it) and reads its greeting.
  void connect(const std::string& path, QemuProcess& qemu) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
    for (int attempt = 0; attempt < 500 && fd_ < 0; ++attempt) {
      const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        fd_ = fd;
        break;
      }
      ::close(fd);
      if (qemu.exited()) throw attractor::cli::Failure(attractor::cli::exit_hil_link, "QEMU exited before its monitor");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (fd_ < 0) throw attractor::cli::Failure(attractor::cli::exit_hil_link, "QEMU's monitor socket did not appear");
    ::unlink(path.c_str());
    await_prompt();
  }

  bool connected() const { return fd_ >= 0; }

  // Resets the machine; returns once QEMU has taken the command (its next prompt).
  void system_reset() {
    static const char cmd[] = "system_reset\n";
    if (fd_ < 0 || ::write(fd_, cmd, sizeof cmd - 1) != ssize_t(sizeof cmd - 1))
      throw attractor::cli::Failure(attractor::cli::exit_hil_link, "cannot write to QEMU's monitor");
    await_prompt();
  }

 private:
  void await_prompt() {
    static const char prompt[] = "(qemu) ";
    std::string seen;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (seen.find(prompt) == std::string::npos) {
      pollfd p{fd_, POLLIN, 0};
      const int ready = ::poll(&p, 1, 1000);
      if (ready < 0 && errno == EINTR) continue;
      if (std::chrono::steady_clock::now() > deadline || ready < 0)
        throw attractor::cli::Failure(attractor::cli::exit_hil_link, "QEMU's monitor did not answer within 10 s");
      if ((p.revents & (POLLIN | POLLHUP)) == 0) continue;
      char b[256];
      const ssize_t n = ::read(fd_, b, sizeof b);
      if (n <= 0) throw attractor::cli::Failure(attractor::cli::exit_hil_link, "QEMU's monitor closed");
      seen.append(b, std::size_t(n));
      if (seen.size() > 4096) seen.erase(0, seen.size() - 16);
    }
  }
  int fd_ = -1;
};

}  // namespace hil_run
