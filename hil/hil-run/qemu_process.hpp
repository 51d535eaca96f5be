// SPDX-License-Identifier: Apache-2.0
// QEMU as a child of the runner that never outlives it: started in its own process group, with
// PR_SET_PDEATHSIG (the kernel kills it if the runner dies, SIGKILL included), and stopped on
// every other exit path: the destructor (normal end, thrown errors), and SIGINT, SIGTERM and
// SIGHUP handlers that kill the group, remove the runner's socket and FIFO names and then die
// of the same signal (exit status 128+N). SIGPIPE is ignored: a closed pipe is a write error
// with a message, never a silent death. When QEMU (the group's leader) exits by itself, the rest
// of its group is killed before it is reaped (a wrapper script's children included). Its stderr
// comes through a pipe: passed on to the runner's stderr as it comes, the last lines kept for the
// message when it exits early; a pidfd tells the byte path's poll that it exited (transport.hpp).
// Linux (prctl, pidfd, sched_setaffinity).
#pragma once

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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
  ~QemuProcess() {
    stop();
    if (err_fd_ >= 0) ::close(err_fd_);
  }

  // Starts argv[0] (searched in PATH) with all its threads on host CPU `cpu` (< 0: no pin).
  void start(const std::vector<std::string>& args, long cpu) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int report[2];  // exec failure's errno, through a pipe that exec closes on success
    if (::pipe2(report, O_CLOEXEC) != 0) throw attractor::cli::Failure(attractor::cli::exit_hil_link, "pipe failed");
    int err[2];  // QEMU's stderr
    if (::pipe2(err, O_CLOEXEC) != 0) {
      ::close(report[0]), ::close(report[1]);
      throw attractor::cli::Failure(attractor::cli::exit_hil_link, "pipe failed");
    }
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
      ::dup2(err[1], 2);  // dup2 clears O_CLOEXEC on fd 2
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
    ::close(err[1]);
    err_fd_ = err[0];
    ::fcntl(err_fd_, F_SETFL, ::fcntl(err_fd_, F_GETFL) | O_NONBLOCK);
    if (pid > 0) pidfd_ = int(::syscall(SYS_pidfd_open, pid, 0));  // -1 on an old kernel: exited() polls
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
    siginfo_t info{};
    if (::waitid(P_PID, id_t(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != pid_) return false;
    reap();
    return true;
  }
  // Waits for QEMU's own exit; its exit code, -1 when a signal ended it.
  int wait() {
    if (pid_ > 0) reap();
    return exit_code_;
  }
  // Kills the whole group and reaps QEMU (no-op when it is gone).
  void stop() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);
    reap();
  }
  // Polled with the byte path: readable when QEMU exited (-1: none, exited() is polled instead)
  // and when it wrote to its stderr.
  int exit_fd() const { return pidfd_; }
  int stderr_fd() const { return err_fd_; }
  // Passes what QEMU wrote to its stderr on to the runner's, keeping the last 4 KiB.
  void drain_stderr() {
    if (err_fd_ < 0) return;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(err_fd_, buf, sizeof buf)) > 0) {
      (void)!::write(2, buf, std::size_t(n));
      tail_.append(buf, std::size_t(n));
      if (tail_.size() > 4096) tail_.erase(0, tail_.size() - 4096);
    }
    if (n == 0) {  // every writer closed it: nothing more to poll
      ::close(err_fd_);
      err_fd_ = -1;
    }
  }
  const std::string& stderr_tail() const { return tail_; }
  // After exited(): how QEMU ended, with QEMU's own last messages (its lines starting "qemu",
  // but for the two expected at every start; a register dump after a "fatal:" line is left out),
  // else the last line it wrote.
  std::string exit_message() {
    drain_stderr();
    const std::string s = signal_ > 0 ? "QEMU was killed by signal " + std::to_string(signal_)
                                      : "QEMU exited with code " + std::to_string(exit_code_);
    std::vector<std::string> own;
    std::string last;
    for (std::size_t b = 0; b < tail_.size();) {
      std::size_t e = tail_.find('\n', b);
      if (e == std::string::npos) e = tail_.size();
      std::string line = tail_.substr(b, e - b);
      b = e + 1;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      last = line;
      const bool expected = line.find("waiting for connection") != std::string::npos ||
                            line.find("icount sleep disabled") != std::string::npos;
      if (line.rfind("qemu", 0) == 0 && !expected) own.push_back(line.substr(0, 300));
    }
    if (own.size() > 2) own.erase(own.begin(), own.end() - 2);
    std::string msg;
    for (const auto& l : own) msg += (msg.empty() ? "" : " | ") + l;
    if (msg.empty()) msg = last.substr(0, 300);
    return msg.empty() ? s + " (nothing on its stderr)" : s + ": " + msg;
  }

 private:
  // Waits for the leader's exit without reaping it (its zombie keeps the group's id from being
  // reused), kills what is left of its group, then reaps it.
  void reap() {
    siginfo_t info{};
    while (::waitid(P_PID, id_t(pid_), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
    ::kill(-pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    signal_ = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    pid_ = -1;
    detail::g_child_group = 0;
    drain_stderr();
    if (pidfd_ >= 0) ::close(pidfd_);
    pidfd_ = -1;
  }
  pid_t pid_ = -1;
  int exit_code_ = -1, signal_ = 0;
  int err_fd_ = -1, pidfd_ = -1;
  std::string tail_;
};

}  // namespace hil_run
