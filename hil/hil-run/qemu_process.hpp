// SPDX-License-Identifier: Apache-2.0
// QEMU as a child of the runner that never outlives it: started in its own process group, with
// PR_SET_PDEATHSIG (the kernel kills it if the runner dies, SIGKILL included), and stopped on
// every other exit path: the destructor (normal end, thrown errors), and SIGINT, SIGTERM and
// SIGHUP handlers that kill the group, remove the runner's socket and FIFO names and then die
// of the same signal (exit status 128+N). SIGPIPE is ignored: a closed pipe is a write error
// with a message, never a silent death. Linux (prctl, sched_setaffinity).
#pragma once

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "exit_codes.hpp"

namespace hil_run {

namespace detail {
inline volatile sig_atomic_t g_child_group = 0;  // QEMU's process group while it runs
inline char g_paths[4][108] = {};                // the runner's socket, FIFO and monitor names, removed on a signal

extern "C" inline void on_fatal_signal(int sig) {
  if (g_child_group > 0) ::kill(-pid_t(g_child_group), SIGKILL);
  for (auto& p : g_paths)
    if (p[0] != '\0') ::unlink(p);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}
}  // namespace detail

// The names the runner creates (socket, FIFOs): removed at exit and by the signal handlers.
inline void note_temporary_path(int slot, const std::string& path) {
  std::snprintf(detail::g_paths[slot], sizeof detail::g_paths[slot], "%s", path.c_str());
}

inline void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = detail::on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(s, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
}

class QemuProcess {
 public:
  QemuProcess() = default;
  QemuProcess(const QemuProcess&) = delete;
  QemuProcess& operator=(const QemuProcess&) = delete;
  ~QemuProcess() { stop(); }

  // Starts argv[0] (searched in PATH) with all its threads on host CPU `cpu` (< 0: no pin).
  void start(const std::vector<std::string>& args, long cpu) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int report[2];  // exec failure's errno, through a pipe that exec closes on success
    if (::pipe2(report, O_CLOEXEC) != 0) throw attractor::cli::Failure(attractor::cli::exit_hil_link, "pipe failed");
    sigset_t all, old;
    sigfillset(&all);
    ::sigprocmask(SIG_BLOCK, &all, &old);  // no handler runs between fork and the group's record
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);  // the runner died before prctl
      for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(s, SIG_DFL);
      ::sigprocmask(SIG_SETMASK, &old, nullptr);
      if (cpu >= 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(int(cpu), &one);
        (void)::sched_setaffinity(0, sizeof one, &one);
      }
      ::execvp(argv[0], argv.data());
      const int e = errno;
      (void)!::write(report[1], &e, sizeof e);
      ::_exit(127);
    }
    if (pid > 0) {
      ::setpgid(pid, pid);
      pid_ = pid;
      detail::g_child_group = pid;
    }
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    ::close(report[1]);
    int e = 0;
    const ssize_t n = pid > 0 ? ::read(report[0], &e, sizeof e) : 0;
    ::close(report[0]);
    if (pid < 0)
      throw attractor::cli::Failure(attractor::cli::exit_hil_link, "cannot fork: " + std::string(std::strerror(errno)));
    if (n == ssize_t(sizeof e)) {
      reap();
      throw attractor::cli::Failure(attractor::cli::exit_hil_link, "cannot start " + args[0] + ": " + std::strerror(e));
    }
  }

  bool running() const { return pid_ > 0; }
  // True once QEMU has exited (then exit_status() is its status).
  bool exited() {
    if (pid_ <= 0) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
    finish(status);
    return true;
  }
  // Waits for QEMU's own exit; its exit code, -1 when a signal ended it.
  int wait() {
    if (pid_ > 0) {
      int status = 0;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      finish(status);
    }
    return exit_code_;
  }
  // Kills the whole group and reaps QEMU (no-op when it is gone).
  void stop() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);
    reap();
  }

 private:
  void reap() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    finish(status);
  }
  void finish(int status) {
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    pid_ = -1;
    detail::g_child_group = 0;
  }
  pid_t pid_ = -1;
  int exit_code_ = -1;
};

}  // namespace hil_run
