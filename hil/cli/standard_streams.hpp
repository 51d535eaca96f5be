// SPDX-License-Identifier: Apache-2.0
// The standard streams of every host tool (attractor-sim, attractor-paper, attractor-hil), set
// up once before anything is opened. Host-only.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace attractor::cli {

// A closed fd 0, 1 or 2 is reopened on /dev/null, so that the first open() (a CSV) cannot become
// "stderr" and receive progress lines or a child's (QEMU's) messages; SIGPIPE is ignored, so
// that stdout into a closed pipe is a write error (EPIPE: exit_io with a message), not a silent
// death. Returns false when stdout was closed: the tool's results would be lost, so it stops
// with exit_io before it runs anything (the caller says so on stderr).
inline bool guard_standard_streams() {
  bool stdout_open = true;
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      if (fd == 1) stdout_open = false;
      const int nfd = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
      if (nfd >= 0 && nfd != fd) {
        ::dup2(nfd, fd);
        ::close(nfd);
      }
    }
  std::signal(SIGPIPE, SIG_IGN);
  return stdout_open;
}

// The message for a closed stdout (exit_io).
inline const char* const kStdoutClosed = "error writing standard output: it is closed (nothing was run)";

}  // namespace attractor::cli
