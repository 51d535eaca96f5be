// SPDX-License-Identifier: Apache-2.0
// Hostile files and children, without QEMU: an output naming an input or another output by any
// name (hard link, symlink, a dangling symlink's target) is refused (file_roles.hpp); a config
// file or a recording sets no option that names a file or a program, and a recording only its
// recorded keys (config_file.hpp, replay.hpp); --replay opens only a regular file and never
// blocks (recording.hpp); a child that exits is reported with its own message and its group
// dies with it, and its exit ends a wait for a frame at once (qemu_process.hpp, transport.hpp).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "config_file.hpp"
#include "file_roles.hpp"
#include "options.hpp"
#include "qemu_process.hpp"
#include "recording.hpp"
#include "replay.hpp"
#include "transport.hpp"

namespace {

namespace cli = attractor::cli;

// A fresh folder under /tmp, removed with what the test put in it.
struct Scratch {
  std::string dir;
  Scratch() {
    char t[] = "/tmp/attractor-hostile-XXXXXX";
    dir = ::mkdtemp(t);
  }
  ~Scratch() { (void)!std::system(("rm -rf '" + dir + "'").c_str()); }
  std::string file(const std::string& name, const std::string& text = "x\n") const {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  }
};

// The message of the Failure `run` throws with `code` ("" when it throws none).
template <class F>
std::string refusal(int code, F run) {
  try {
    run();
  } catch (const cli::Failure& f) {
    EXPECT_EQ(f.code, code) << f.what();
    return f.what();
  }
  return "";
}

TEST(FileRoles, AnOutputIsNeverAnInputByAnyName) {
  Scratch s;
  const std::string in = s.file("fw.elf");
  ASSERT_EQ(::link(in.c_str(), (s.dir + "/hard").c_str()), 0);
  ASSERT_EQ(::symlink("fw.elf", (s.dir + "/sym").c_str()), 0);
  for (const char* name : {"fw.elf", "hard", "sym", "./fw.elf"}) {
    const std::string msg = refusal(cli::exit_usage, [&] {
      cli::refuse_overlapping_files({{"--elf", in}}, {{"--csv", s.dir + "/" + name}});
    });
    EXPECT_NE(msg.find("is the file of --elf"), std::string::npos) << name << ": " << msg;
  }
  EXPECT_EQ(refusal(cli::exit_usage,
                    [&] {
                      cli::refuse_overlapping_files({{"--elf", in}}, {{"--csv", s.dir + "/new"}});
                    }),
            "");
  std::ifstream back(in);
  std::string text;
  std::getline(back, text);
  EXPECT_EQ(text, "x");
}

TEST(FileRoles, TwoOutputsAreNeverOneFile) {
  Scratch s;
  ASSERT_EQ(::symlink("target", (s.dir + "/dangling").c_str()), 0);
  const std::string msg = refusal(cli::exit_usage, [&] {
    cli::refuse_overlapping_files({}, {{"--csv", s.dir + "/dangling"}, {"--record", s.dir + "/target"}});
  });
  EXPECT_NE(msg.find("--record '" + s.dir + "/target' is the file of --csv"), std::string::npos) << msg;
  EXPECT_NE(refusal(cli::exit_usage,
                    [&] {
                      cli::refuse_overlapping_files({}, {{"--csv", s.dir + "/a"}, {"--record", s.dir + "/./a"}});
                    }),
            "");
  // Outputs not given (empty) are no files; distinct names pass.
  EXPECT_EQ(refusal(cli::exit_usage,
                    [&] {
                      cli::refuse_overlapping_files({{"--elf", ""}}, {{"--csv", ""}, {"--record", ""}});
                    }),
            "");
  EXPECT_EQ(refusal(cli::exit_usage,
                    [&] {
                      cli::refuse_overlapping_files({}, {{"--csv", s.dir + "/a"}, {"--record", s.dir + "/b"}});
                    }),
            "");
}

TEST(FileRoles, ProgramIsFoundAsExecvpFindsIt) {
  EXPECT_EQ(cli::program_file("/bin/sh"), "/bin/sh");
  EXPECT_NE(cli::program_file("sh"), "");
  EXPECT_EQ(cli::program_file("attractor-no-such-program"), "");
}

TEST(ConfigFile, NamesNoFileAndNoProgram) {
  const cli::Spec spec = hil_run::hil_spec();
  for (const char* key : {"elf", "serial", "qemu", "csv", "record", "replay"}) {
    cli::Args a(spec);
    const std::string msg = refusal(cli::exit_usage, [&] {
      cli::parse_config_text(spec, std::string("ticks=5\n") + key + "=/tmp/x\n", "c.conf", a, {});
    });
    EXPECT_NE(msg.find("line 2: --" + std::string(key) + " names a file or a program"), std::string::npos) << msg;
    EXPECT_FALSE(a.given(key));
  }
}

TEST(Replay, ARecordingSetsOnlyItsRecordedKeys) {
  const cli::Spec spec = hil_run::hil_spec();
  for (const char* key : {"elf", "qemu", "csv", "record", "serial", "replay", "config", "timeout", "answer-timeout"}) {
    cli::Args a(spec);
    const std::string msg = refusal(cli::exit_usage, [&] {
      hil_run::read_recorded_options(std::string("plant=skate\n") + key + "=x\n", "r.rec", a);
    });
    EXPECT_NE(msg.find("has the key '" + std::string(key) + "' in its options, not a recorded option"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("(byte 28)"), std::string::npos) << msg;  // 16 + "plant=skate\n"
    EXPECT_FALSE(a.given(key));
  }
  cli::Args a(spec);
  hil_run::read_recorded_options("# comment\nplant = spherical-robot\nticks=7\n", "r.rec", a);
  EXPECT_EQ(a.choice("plant"), "spherical-robot");
  EXPECT_EQ(a.whole("ticks"), 7u);
  EXPECT_NE(refusal(cli::exit_usage, [&] { hil_run::read_recorded_options("ticks=1\nticks=2\n", "r.rec", a); }), "");
}

TEST(Replay, OnlyARegularFileIsOpened) {
  Scratch s;
  const std::string fifo = s.dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& p : {fifo, std::string("/dev/zero"), s.dir}) {
    const std::string msg = refusal(cli::exit_io, [&] { hil_run::load_recording(p); });
    EXPECT_NE(msg.find("is not a regular file"), std::string::npos) << msg;
  }
  const std::string big = s.dir + "/big.rec";
  {
    const int fd = ::open(big.c_str(), O_CREAT | O_WRONLY, 0600);
    ASSERT_EQ(::ftruncate(fd, off_t(hil_run::kRecordingMaxFile) + 1), 0);  // sparse
    ::close(fd);
  }
  EXPECT_NE(refusal(cli::exit_usage, [&] { hil_run::load_recording(big); }).find("over the 1 GiB"), std::string::npos);
}

// A "QEMU" that writes its own message and exits, leaving a child in its process group.
std::string fake_qemu(const Scratch& s, const std::string& body) {
  const std::string path = s.file("qemu", "#!/bin/sh\n" + body + "\n");
  ::chmod(path.c_str(), 0700);
  return path;
}

bool process_alive(pid_t pid) {  // a zombie has ended
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

TEST(QemuProcess, ItsGroupDiesWithItAndItsMessageIsKept) {
  Scratch s;
  hil_run::QemuProcess q;
  q.start(
      {fake_qemu(s, "sleep 300 &\necho $! > " + s.dir + "/child\necho 'qemu-system-arm: no such machine' >&2\nexit 4"),
       "-M", "x"},
      -1);
  (void)!q.wait();
  std::ifstream f(s.dir + "/child");
  pid_t child = 0;
  ASSERT_TRUE(f >> child);
  // SIGKILL is delivered asynchronously: its end is waited for (10 s: a deadlock guard; without
  // the group's kill it sleeps 300 s)
  for (int i = 0; i < 1000 && process_alive(child); ++i) ::usleep(10000);
  EXPECT_FALSE(process_alive(child)) << "the group's other process outlived its leader";
  if (process_alive(child)) ::kill(child, SIGKILL);
  EXPECT_EQ(q.exit_message(), "QEMU exited with code 4: qemu-system-arm: no such machine");
}

TEST(QemuProcess, ItsExitEndsTheWaitForAFrame) {
  Scratch s;
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  ASSERT_EQ(::mkfifo((s.dir + "/go").c_str(), 0600), 0);
  hil_run::QemuProcess q;
  q.start({fake_qemu(s, "read line < " + s.dir + "/go\necho 'qemu: fatal: Lockup' >&2\nkill -ABRT $$")}, -1);
  hil_run::Peer peer(sv[0], sv[0], 30);  // --timeout 30 s: a deadlock guard (the exit ends it in ms)
  peer.qemu = &q;
  peer.tick = 12;
  std::ofstream(s.dir + "/go") << "go\n";  // the byte path stays open: only the exit can end the wait
  attractor::link::FrameView v;
  attractor::link::LinkError e;
  const std::string msg = refusal(cli::exit_hil_link, [&] { peer.receive(v, e); });
  EXPECT_EQ(msg, "while the runner waited for a frame at tick 12: QEMU was killed by signal 6: qemu: fatal: Lockup");
  ::close(sv[1]);
}

}  // namespace
