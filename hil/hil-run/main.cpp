// SPDX-License-Identifier: Apache-2.0
// attractor-hil: the host side of hardware-in-the-loop. Simulates the plant in double (--plant
// skate: skate_plant.hpp, the default; --plant spherical-robot: robot_plant.hpp; each the
// library's model, RK4 of the feedback integrator, zero-order hold of the torques) and
// exchanges, in lockstep, one sensor frame and its actuator frame per 1 ms tick with the
// firmware (apps/skate-rotor-hil, apps/spherical-robot-hil) — started here in QEMU with UART0
// on a Unix socket, or on a
// board behind a serial device (POSIX termios, raw). Optional fault injection (a fault every K
// ticks, classes in turn: corrupt byte, NaN, out of range, dropped, duplicated, reordered,
// delayed frame, vertical bias, firmware reset with resynchronisation; faults.hpp), a CSV of
// every tick, a summary with injected-vs-detected faults, a clear message when the firmware
// stops answering, and a goodbye handshake (QEMU drops unread bytes on close).
//
//   attractor-hil --elf build/fw-m4f/apps/skate-rotor-hil/skate-rotor-hil.mps2-an386.elf
//                 [--ticks 2000] [--fault-every 0] [--mismatch PERCENT] [--noise SIGMA]
//                 [--csv FILE] [--csv-every 1] [--progress N] [--timeout 10] [--faults all|corrupt,nan,...]
//                 [--vertical-bias B] [--gyro-bias B] [--reset-down TICKS] [--plant skate|spherical-robot]
//   attractor-hil --serial /dev/ttyACM0 --baud 115200 ...      (a board running the same image)
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/boot_frame.hpp"
#include "attractor/link/frame_receiver.hpp"
#include "attractor/version.hpp"
#include "faults.hpp"
#include "robot_plant.hpp"
#include "skate_plant.hpp"

extern char** environ;

using namespace attractor;
using namespace attractor::link;

namespace {

constexpr int kExitUsage = 2, kExitFell = 1, kExitTimeout = 4, kExitLink = 5;

struct Options {
  std::string elf, machine = "mps2-an386", qemu = "qemu-system-arm", serial, csv, plant = "skate";
  int baud = 115200;
  long ticks = 2000;
  long fault_every = 0;
  double timeout_s = 10.0;
  double mismatch_pct = 0.0;       // plant m, l, J1 (robot: also J2) scaled by 1 + pct/100 vs the controller's
  double noise = 0.0;              // Gaussian sensor noise: gyro [rad/s] and vertical [1], fixed seed
  std::vector<hil::Fault> faults;  // --faults: the classes in turn (all by default)
  double vertical_bias = 0.25;     // a bias fault adds this to Γ3 on one frame (|Γ| = 1 broken)
  double gyro_bias = 0.0;          // constant offset on Ω1 all run [rad/s] (not detectable)
  long reset_down = 5;             // ticks of zero torque while the firmware reboots
  long csv_every = 1;              // CSV: every N-th tick plus every tick with a fault (long runs, scripts/soak)
  long progress = -1;              // a progress line every N ticks; -1: every 5000 when ticks >= 10000
  std::string link = "uart";       // QEMU only: "semihost" = the same frames over two host FIFOs (fast)
  long qemu_cpu = -1;              // QEMU's threads on this host CPU; -1: the runner's CPU; -2: any (no pin)
};

using hil::Fault;
using hil::kFaultNames;

[[noreturn]] void usage(const char* msg) {
  std::fprintf(stderr,
               "attractor-hil: %s\nusage: attractor-hil (--elf FIRMWARE.elf [--machine M] [--qemu PATH] [--qemu-cpu "
               "N|any] [--link uart|semihost] | "
               "--serial DEV "
               "[--baud B]) [--ticks N] [--fault-every K] [--mismatch PERCENT] [--noise SIGMA] [--csv FILE] "
               "[--csv-every N] [--progress N] [--timeout SECONDS] "
               "[--faults all|corrupt,nan,out_of_range,drop,duplicate,reorder,delayed,bias,reset] "
               "[--vertical-bias B] [--gyro-bias B] [--reset-down TICKS] [--plant skate|spherical-robot]\n",
               msg);
  std::exit(kExitUsage);
}

long to_long(const char* s, const char* what) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < 0) usage((std::string(what) + ": '" + s + "' is not a count").c_str());
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  (void)hil::parse_fault_list("all", o.faults);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--version") {
      std::printf("attractor-hil %s\n", attractor::version);
      std::exit(0);
    }
    if (a == "--help" || a == "-h") {
      std::printf(
          "attractor-hil: runs a HIL experiment, --plant skate (default) or spherical-robot (see docs/hil.md)\n");
      std::exit(0);
    }
    if (i + 1 >= argc) usage(("missing value after " + a).c_str());
    const char* v = argv[++i];
    if (a == "--elf")
      o.elf = v;
    else if (a == "--machine")
      o.machine = v;
    else if (a == "--qemu")
      o.qemu = v;
    else if (a == "--link") {
      o.link = v;
      if (o.link != "uart" && o.link != "semihost") usage("--link: uart or semihost");
    } else if (a == "--qemu-cpu")
      o.qemu_cpu = std::string(v) == "any" ? -2 : to_long(v, "--qemu-cpu");
    else if (a == "--serial")
      o.serial = v;
    else if (a == "--csv")
      o.csv = v;
    else if (a == "--plant") {
      o.plant = v;
      if (o.plant != "skate" && o.plant != "spherical-robot") usage("--plant: skate or spherical-robot");
    } else if (a == "--baud")
      o.baud = int(to_long(v, "--baud"));
    else if (a == "--ticks")
      o.ticks = to_long(v, "--ticks");
    else if (a == "--fault-every")
      o.fault_every = to_long(v, "--fault-every");
    else if (a == "--faults") {
      if (!hil::parse_fault_list(v, o.faults))
        usage((std::string("--faults: '") + v + "' is not a list of classes").c_str());
    } else if (a == "--reset-down")
      o.reset_down = to_long(v, "--reset-down");
    else if (a == "--vertical-bias" || a == "--gyro-bias") {
      char* end = nullptr;
      const double x = std::strtod(v, &end);
      if (end == v || *end != '\0' || !(std::fabs(x) < 10.0))
        usage((a + ": '" + v + "' is not a bias below 10").c_str());
      (a == "--vertical-bias" ? o.vertical_bias : o.gyro_bias) = x;
    } else if (a == "--csv-every")
      o.csv_every = to_long(v, "--csv-every");
    else if (a == "--progress")
      o.progress = to_long(v, "--progress");
    else if (a == "--mismatch" || a == "--noise") {
      char* end = nullptr;
      const double x = std::strtod(v, &end);
      if (end == v || *end != '\0' || !std::isfinite(x)) usage((a + ": '" + v + "' is not a number").c_str());
      if (a == "--mismatch" && !(x > -90.0 && x < 1000.0)) usage("--mismatch: need -90 < percent < 1000");
      if (a == "--noise" && !(x >= 0.0 && x < 1.0)) usage("--noise: need 0 <= sigma < 1");
      (a == "--mismatch" ? o.mismatch_pct : o.noise) = x;
    } else if (a == "--timeout") {
      char* end = nullptr;
      o.timeout_s = std::strtod(v, &end);
      if (end == v || *end != '\0' || !(o.timeout_s > 0 && o.timeout_s < 1e6)) usage("--timeout: need seconds > 0");
    } else
      usage(("unknown option " + a).c_str());
  }
  if (o.elf.empty() == o.serial.empty()) usage("give exactly one of --elf and --serial");
  if (o.link == "semihost" && o.elf.empty()) usage("--link semihost: needs --elf (QEMU)");
  if (o.fault_every != 0 && o.fault_every < 5)
    usage("--fault-every: 0 (none) or >= 5 (the firmware holds 3 stale ticks)");
  if (o.reset_down < 1 || (o.fault_every != 0 && o.reset_down >= o.fault_every))
    usage("--reset-down: 1 <= ticks < --fault-every (the firmware is down while the plant moves)");
  if (o.csv_every < 1) usage("--csv-every: need N >= 1");
  if (o.progress < 0) o.progress = o.ticks >= 10000 ? 5000 : 0;
  return o;
}

speed_t baud_constant(int b) {
  switch (b) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    default: usage("--baud: one of 9600 19200 38400 57600 115200 230400 460800 921600");
  }
}

int open_serial(const Options& o) {
  const int fd = ::open(o.serial.c_str(), O_RDWR | O_NOCTTY);
  if (fd < 0) usage(("cannot open " + o.serial + ": " + std::strerror(errno)).c_str());
  termios t{};
  if (tcgetattr(fd, &t) != 0) usage((o.serial + " is not a serial device").c_str());
  cfmakeraw(&t);
  cfsetispeed(&t, baud_constant(o.baud));
  cfsetospeed(&t, baud_constant(o.baud));
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  tcsetattr(fd, TCSANOW, &t);
  tcflush(fd, TCIOFLUSH);
  return fd;
}

// QEMU with UART0 on a Unix socket; QEMU waits for our connection before it starts the guest.
int start_qemu(const Options& o, pid_t& pid, std::string& sock) {
  sock = "/tmp/attractor-hil-" + std::to_string(::getpid()) + ".sock";
  ::unlink(sock.c_str());
  const std::string chardev = "socket,id=u0,path=" + sock + ",server=on,wait=on";
  std::vector<std::string> args = {o.qemu,
                                   "-M",
                                   o.machine,
                                   "-display",
                                   "none",
                                   "-monitor",
                                   "none",
                                   "-chardev",
                                   chardev,
                                   "-serial",
                                   "chardev:u0",
                                   "-semihosting-config",
                                   "enable=on,target=native",
                                   "-icount",
                                   "shift=0,align=off,sleep=off",
                                   "-kernel",
                                   o.elf};
  // --link semihost: the firmware finds the FIFO prefix in its semihosting command line
  // (board/semihost_link.hpp, both HIL apps); the UART socket stays (QEMU waits for it), unused.
  if (o.link == "semihost") {
    const std::string prefix = "/tmp/attractor-hil-" + std::to_string(::getpid());
    for (const char* end : {".in", ".out"}) {
      ::unlink((prefix + end).c_str());
      if (::mkfifo((prefix + end).c_str(), 0600) != 0) usage(("cannot create FIFO " + prefix + end).c_str());
    }
    *std::find(args.begin(), args.end(), "enable=on,target=native") += ",arg=skate-rotor-hil,arg=hil-fifo=" + prefix;
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // All of QEMU's threads on one host CPU (the child inherits the mask at spawn): its main loop
  // and vCPU thread hand every received byte to each other (CMSDK UART: one-byte buffer, ~4
  // context switches per byte), and same-CPU wake-ups skip the cross-CPU IPIs; measured ~+30 %
  // frames/s on the loaded 2-core VM (docs/hil.md "Link rate"). Instruction counts do not change.
  cpu_set_t mine, one;
  const long cpu = o.qemu_cpu >= 0 ? o.qemu_cpu : o.qemu_cpu == -1 ? ::sched_getcpu() : -1;
  const bool pin = cpu >= 0 && ::sched_getaffinity(0, sizeof mine, &mine) == 0;
  if (pin) {
    if (cpu >= CPU_SETSIZE) usage("--qemu-cpu: no such CPU here");
    CPU_ZERO(&one);
    CPU_SET(int(cpu), &one);
    if (::sched_setaffinity(0, sizeof one, &one) != 0) usage("--qemu-cpu: no such CPU here");
  }
  const int spawned = posix_spawnp(&pid, o.qemu.c_str(), nullptr, nullptr, argv.data(), environ);
  if (pin) (void)::sched_setaffinity(0, sizeof mine, &mine);  // the runner itself stays free
  if (spawned != 0) usage(("cannot start " + o.qemu).c_str());
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
  for (int attempt = 0; attempt < 500; ++attempt) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
      ::unlink(sock.c_str());  // connected: the name is no longer needed, whatever ends the run
      return fd;
    }
    ::close(fd);
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) usage("QEMU exited before opening its UART socket");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGTERM);
  usage("QEMU's UART socket did not appear within 10 s");
}

// --link semihost, after QEMU started the guest: the read end of PREFIX.out at once, the write
// end of PREFIX.in once the firmware opened it (ENXIO until then). The names stay until the
// runner exits (atexit): a firmware rebooted by a reset fault opens them again (its old
// semihosting handles stay open in QEMU: two per reset, so the host never sees an EOF).
std::string g_fifo_prefix;
void unlink_fifos() {
  if (g_fifo_prefix.empty()) return;
  ::unlink((g_fifo_prefix + ".in").c_str());
  ::unlink((g_fifo_prefix + ".out").c_str());
}
void open_fifos(const Options& o, pid_t qemu, int& rfd, int& wfd) {
  const std::string prefix = "/tmp/attractor-hil-" + std::to_string(::getpid());
  g_fifo_prefix = prefix;
  std::atexit(unlink_fifos);
  rfd = ::open((prefix + ".out").c_str(), O_RDONLY | O_NONBLOCK);
  const auto t0 = std::chrono::steady_clock::now();
  while ((wfd = ::open((prefix + ".in").c_str(), O_WRONLY | O_NONBLOCK)) < 0 && errno == ENXIO) {
    int status = 0;
    if (::waitpid(qemu, &status, WNOHANG) == qemu ||
        std::chrono::steady_clock::now() - t0 > std::chrono::duration<double>(o.timeout_s)) {
      ::kill(qemu, SIGTERM);
      ::unlink((prefix + ".in").c_str());
      ::unlink((prefix + ".out").c_str());
      usage("--link semihost: the firmware did not open the link FIFO (an image without board/semihost_link.hpp?)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (rfd < 0 || wfd < 0) usage(("cannot open the FIFOs " + prefix + ".in/.out").c_str());
  ::fcntl(wfd, F_SETFL, ::fcntl(wfd, F_GETFL) & ~O_NONBLOCK);
}

class Peer {
 public:
  Peer(int rfd, int wfd, double timeout_s) : fd_(rfd), wfd_(wfd), timeout_ms_(int(timeout_s * 1000)) {}

  void send(const std::vector<std::uint8_t>& f) {
    std::size_t off = 0;
    while (off < f.size()) {
      const ssize_t n = ::write(wfd_, f.data() + off, f.size() - off);
      if (n <= 0) {
        std::fprintf(stderr, "attractor-hil: write failed: %s\n", std::strerror(errno));
        std::exit(kExitLink);
      }
      off += std::size_t(n);
    }
    ++frames_sent_;
    bytes_sent_ += f.size();
  }

  // Next decoded frame from the firmware; false on timeout (timeout_ms < 0: the run's) or when
  // the firmware closed the line (closed()).
  bool receive(FrameView& v, LinkError& e, int timeout_ms = -1) {
    for (;;) {
      while (pos_ < len_) {
        const FrameReceiver::Event ev = rx_.push(buf_[pos_++]);
        ++bytes_received_;
        if (ev == FrameReceiver::Event::none) continue;
        e = ev == FrameReceiver::Event::overflow ? LinkError::bad_length : decode_frame(rx_.data(), rx_.size(), v);
        ++frames_received_;
        return true;
      }
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms < 0 ? timeout_ms_ : timeout_ms) <= 0) return false;
      const ssize_t n = ::read(fd_, buf_, sizeof buf_);
      closed_ = n <= 0;
      if (n <= 0) return false;  // closed: the firmware (QEMU) is gone
      len_ = std::size_t(n);
      pos_ = 0;
    }
  }

  bool closed() const { return closed_; }
  long frames_sent_ = 0, frames_received_ = 0, bytes_sent_ = 0, bytes_received_ = 0;

 private:
  int fd_, wfd_;  // read and write ends: the same socket or device, or the two FIFOs
  int timeout_ms_;
  FrameReceiver rx_;
  std::uint8_t buf_[4096];
  std::size_t len_ = 0, pos_ = 0;
  bool closed_ = false;
};

std::vector<std::uint8_t> encode(FrameType t, std::uint32_t seq, std::uint64_t tick, const SensorReading<double>* r) {
  std::uint8_t payload[layout::sensor_payload_size];
  if (r != nullptr) pack_sensor(*r, payload);  // unchecked: injected faults must reach the wire
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  const LinkError e = encode_frame(FrameHeader{t, seq, tick}, payload, r ? sizeof payload : 0, wire, sizeof wire, n);
  if (e != LinkError::none) std::abort();  // our own frames: a programming error
  return std::vector<std::uint8_t>(wire, wire + n);
}

// The hello handshake, at the start and after a reset (one mechanism for both): hello with tick
// index first + attempt, sent again every 0.5 s until the answer with that tick arrives. QEMU's
// STM32 USART drops the bytes that arrive before the firmware enables it (the CMSDK UART holds
// them), so a hello can be lost whole, or in part and answered as a rejected frame; the firmware
// takes a hello after ticks as a new run (link/lockstep.hpp), so nothing of a cut one is carried
// over. On the way: a boot frame (a firmware announces every boot before it reads anything) is
// noted in `boot`; answers to earlier attempts, a rejected frame's answer and undecodable frames
// (a serial port opened in the middle of an announcement) are skipped. false when `deadline`
// passes or the firmware closed the line.
bool handshake(Peer& peer, std::uint64_t first, std::chrono::steady_clock::time_point deadline, rt::BootInfo& boot,
               bool& boot_seen) {
  FrameView v;
  LinkError e;
  for (std::uint64_t attempt = first;; ++attempt) {
    if (peer.closed() || std::chrono::steady_clock::now() > deadline) return false;
    peer.send(encode(FrameType::hello, 0, attempt, nullptr));
    while (peer.receive(v, e, 500)) {
      if (e != LinkError::none) continue;
      if (v.header.type == FrameType::hello && v.header.tick == attempt) return true;
      rt::BootInfo b;
      if (v.header.type == FrameType::boot && unpack_boot(v, b) == LinkError::none) {
        boot = b;
        boot_seen = true;
      }
    }
  }
}

// The firmware's boot frame after a reset request (nothing else may come first).
bool await_boot(Peer& peer, rt::BootInfo& boot) {
  FrameView v;
  LinkError e;
  if (!peer.receive(v, e) || e != LinkError::none) return false;
  return unpack_boot(v, boot) == LinkError::none;
}

// Resident set of this process [KiB] (Linux /proc; 0 elsewhere): the progress lines show that a
// long run (scripts/soak) does not grow.
long rss_kib() {
  long pages = 0, resident = 0;
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
  std::fclose(f);
  return resident * (::sysconf(_SC_PAGESIZE) / 1024);
}

}  // namespace

// The experiment, generic over the plant (skate_plant.hpp, robot_plant.hpp).
template <class Plant>
int run(const Options& o) {
  pid_t qemu = -1;
  std::string sock;
  const int fd = o.serial.empty() ? start_qemu(o, qemu, sock) : open_serial(o);
  int rfd = fd, wfd = fd;
  if (o.link == "semihost") open_fifos(o, qemu, rfd, wfd);
  Peer peer(rfd, wfd, o.timeout_s);
  std::FILE* csv = o.csv.empty() ? nullptr : std::fopen(o.csv.c_str(), "w");
  if (!o.csv.empty() && csv == nullptr) usage(("cannot write " + o.csv).c_str());
  if (csv) std::fprintf(csv, "tick,fault,%s,mode,reason,tick_cost,stale,rejected,gaps,repeated\n", Plant::kCsvColumns);

  auto fail_timeout = [&](long tick) {
    std::fprintf(stderr,
                 "attractor-hil: the firmware stopped answering at tick %ld (no frame within %.1f s of wall time)\n",
                 tick, o.timeout_s);
    if (qemu > 0) ::kill(qemu, SIGTERM);
    std::exit(kExitTimeout);
  };
  const auto t0 = std::chrono::steady_clock::now();

  // hello: the firmware restarts its link state and answers hello with the hello's tick index.
  FrameView v;
  LinkError e;
  rt::BootInfo boot;  // the firmware's latest boot announcement
  bool boot_seen = false;
  const auto timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(o.timeout_s));  // the handshake's whole budget
  if (!handshake(peer, 0, t0 + timeout, boot, boot_seen)) fail_timeout(0);

  // The plant, its parameters off the controller's by --mismatch percent (Plant::make says which).
  auto made = Plant::make(o.mismatch_pct);
  if (!made) usage(("plant refused: " + std::string(attractor::to_string(made.error()))).c_str());
  Plant plant = *made;
  std::mt19937_64 rng(12);
  std::normal_distribution<double> gauss(0.0, 1.0);
  Vec3<double> torque = Vec3<double>::Zero();
  double min_gamma3 = 1.0;
  long injected[hil::kFaultClasses] = {}, answers_bad = 0, down = 0;
  hil::Detected banked;                          // every boot's counters (a reset restarts them)
  SensorReading<double> past[hil::kDelayTicks];  // the last clean readings, for delayed frames
  std::uint32_t seq = 0;
  ActuatorReport<double> last;
  std::uint32_t cost_min = std::numeric_limits<std::uint32_t>::max(), cost_max = 0;
  double cost_sum = 0;
  long cost_n = 0;
  for (long tick = 1; tick <= o.ticks; ++tick) {
    SensorReading<double> r = plant.step(torque);
    min_gamma3 = std::min(min_gamma3, plant.gamma3());
    if (o.noise > 0.0) {
      for (int i = 0; i < 3; ++i) r.gyro[i] += o.noise * gauss(rng);
      for (int i = 0; i < 3; ++i) r.vertical[i] += o.noise * gauss(rng);
    }
    r.gyro[0] += o.gyro_bias;
    const SensorReading<double> old = past[tick % hil::kDelayTicks];  // the reading of tick - kDelayTicks
    past[tick % hil::kDelayTicks] = r;
    Fault f = down > 0 ? Fault::none : hil::fault_at(tick, o.fault_every, o.faults);
    // Only faults the run can still reveal: a reset needs ticks to resume on, a drop a next frame.
    if ((f == Fault::reset && tick + o.reset_down >= o.ticks) || (f == Fault::drop && tick == o.ticks)) f = Fault::none;
    ++injected[int(f)];
    if (down > 0 || f == Fault::reset) {
      // The firmware is down (rebooting): nothing is exchanged, the motor gets no torque.
      if (f == Fault::reset) {
        peer.send(encode(FrameType::reset, seq, std::uint64_t(tick), nullptr));
        const rt::BootInfo before = boot;
        if (!await_boot(peer, boot)) fail_timeout(tick);
        banked.bank(last.link, last.faults);  // the new boot starts its counters at zero
        banked.resets += hil::reset_detected(before, boot_seen, boot) ? 1 : 0;
        boot_seen = true;
        last = ActuatorReport<double>{};
        last.mode = rt::Mode::running;  // nothing reported yet by the new boot
        if (!handshake(peer, std::uint64_t(tick), std::chrono::steady_clock::now() + timeout, boot, boot_seen))
          fail_timeout(tick);
        down = o.reset_down;
      }
      --down;
      torque = Vec3<double>::Zero();
      if (csv && (tick % o.csv_every == 0 || f != Fault::none)) {  // decimated, fault ticks always
        std::fprintf(csv, "%ld,%s,", tick, kFaultNames[int(f)]);
        plant.write_csv(csv, torque);
        std::fprintf(csv, ",down,none,0,0,0,0,0\n");
      }
      continue;
    }
    if (f == Fault::nan) r.vertical[1] = std::numeric_limits<double>::quiet_NaN();
    if (f == Fault::out_of_range) r.gyro[2] = 5000.0;
    if (f == Fault::bias) r.vertical[2] += o.vertical_bias;
    std::vector<std::uint8_t> frame = f == Fault::delayed
                                          ? encode(FrameType::sensor, seq, std::uint64_t(tick - hil::kDelayTicks), &old)
                                          : encode(FrameType::sensor, seq, std::uint64_t(tick), &r);
    if (f == Fault::corrupt) {
      std::uint8_t& b = frame[frame.size() / 2];
      b = std::uint8_t(b ^ (b == 0x01 ? 0x02 : 0x01));  // never a zero: one frame stays one frame
    }
    int expect = 1;
    if (f == Fault::drop) {
      expect = 0;
      ++seq;
    } else if (f == Fault::reorder) {
      peer.send(encode(FrameType::sensor, seq + 1, std::uint64_t(tick), &r));
      peer.send(frame);
      expect = 2;
      seq += 2;
    } else {
      peer.send(frame);
      if (f == Fault::duplicate) {
        peer.send(frame);
        expect = 2;
      }
      ++seq;
    }
    for (int k = 0; k < expect; ++k) {
      ActuatorReport<double> a;
      if (!peer.receive(v, e)) fail_timeout(tick);
      if (e == LinkError::none && v.header.type == FrameType::boot) {
        std::fprintf(stderr,
                     "attractor-hil: the firmware rebooted unasked at tick %ld (boot frame in place of an answer)\n",
                     tick);
        if (qemu > 0) ::kill(qemu, SIGTERM);
        return kExitLink;
      }
      if (e == LinkError::none) e = unpack_actuator(v, a);
      if (e != LinkError::none) {
        ++answers_bad;  // a corrupt answer: keep the last torque (zero-order hold)
        continue;
      }
      last = a;
      torque = a.torque;
      cost_min = std::min(cost_min, a.tick_cost);
      cost_max = std::max(cost_max, a.tick_cost);
      cost_sum += a.tick_cost;
      ++cost_n;
    }
    if (csv && (tick % o.csv_every == 0 || f != Fault::none)) {  // decimated, fault ticks always
      std::fprintf(csv, "%ld,%s,", tick, kFaultNames[int(f)]);
      plant.write_csv(csv, torque);
      std::fprintf(csv, ",%s,%s,%u,%u,%u,%u,%u\n", rt::to_string(last.mode), attractor::to_string(last.reason),
                   last.tick_cost, last.faults.stale, last.link.total_rejected(), last.link.gaps, last.link.repeated);
    }
    if (o.progress > 0 && tick % o.progress == 0) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      long faults = 0;
      for (int i = 1; i < hil::kFaultClasses; ++i) faults += injected[i];
      hil::Detected now = banked;  // every boot so far, the current one included
      now.bank(last.link, last.faults);
      std::fprintf(stderr,
                   "attractor-hil: tick %ld of %ld, %.0f s wall, %.0f frames/s, faults injected %ld, firmware "
                   "rejected %u gaps %u repeated %u late %u implausible %u boots %ld, min Gamma3 %.6f, max cost %u, "
                   "mode %s, rss %ld KiB\n",
                   tick, o.ticks, s, double(peer.frames_sent_) / s, faults, now.link.total_rejected(), now.link.gaps,
                   now.link.repeated, now.link.late, now.link.implausible, now.resets, min_gamma3, cost_max,
                   rt::to_string(last.mode), rss_kib());
    }
  }

  peer.send(encode(FrameType::goodbye, seq, std::uint64_t(o.ticks), nullptr));
  bool goodbye = false;
  while (!goodbye && peer.receive(v, e)) goodbye = e == LinkError::none && v.header.type == FrameType::goodbye;
  if (csv) std::fclose(csv);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rfd != fd) ::close(rfd);
  if (wfd != fd) ::close(wfd);
  ::close(fd);
  int fw_exit = -1;
  if (qemu > 0) {
    int status = 0;
    ::waitpid(qemu, &status, 0);
    fw_exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  banked.bank(last.link, last.faults);  // every boot's counters summed
  const LinkCounters& d = banked.link;
  const std::vector<hil::ClassCount> classes = hil::class_counts(injected, banked);
  const long detected_corrupt = classes[0].detected;
  const bool all_detected = hil::all_detected(classes);
  const bool upright = Plant::upright(min_gamma3) && last.mode == rt::Mode::running;
  std::printf("hil: %ld ticks (%.3f s simulated) in %.2f s wall, %.0f frames/s; %s\n", o.ticks, o.ticks * 1e-3, wall,
              double(peer.frames_sent_) / wall, o.serial.empty() ? ("QEMU " + o.machine).c_str() : o.serial.c_str());
  std::printf(
      "hil: link: %ld frames / %ld bytes sent, %ld frames / %ld bytes received, %ld corrupt answers, goodbye %s\n",
      peer.frames_sent_, peer.bytes_sent_, peer.frames_received_, peer.bytes_received_, answers_bad,
      goodbye ? "answered" : "MISSING");
  std::printf("hil: link (%s): firmware rejected %u frames, %u sequence gaps, %u repeated; runner rss %ld KiB\n",
              o.serial.empty() ? o.link.c_str() : "serial", last.link.total_rejected(), last.link.gaps,
              last.link.repeated, rss_kib());
  std::printf("hil: tick cost [cost-clock counts] min %u mean %.2f max %u over %ld steps\n", cost_n ? cost_min : 0,
              cost_n ? cost_sum / double(cost_n) : 0.0, cost_max, cost_n);
  std::printf(
      "hil: faults injected / detected by the firmware: corrupt %ld/%ld nan %ld/%u out_of_range %ld/%u "
      "drop+reorder %ld/%u gaps duplicate+reorder %ld/%u repeated delayed %ld/%u late bias %ld/%u implausible "
      "reset %ld/%ld boots; runtime stale ticks %u\n",
      injected[1], detected_corrupt, injected[2], d.rejected_by(LinkError::non_finite), injected[3],
      d.rejected_by(LinkError::out_of_range), injected[4] + injected[6], d.gaps, injected[5] + injected[6], d.repeated,
      injected[int(Fault::delayed)], d.late, injected[int(Fault::bias)], d.implausible, injected[int(Fault::reset)],
      banked.resets, banked.faults.stale);
  std::printf("hil: firmware boot: %u resets since power-on, last reason %s\n", boot.resets,
              rt::to_string(boot.reason));
  std::printf("hil: plant %s, mismatch %+.1f %% (%s), sensor noise sigma %g, gyro bias %g rad/s on Omega1\n",
              Plant::kName, o.mismatch_pct, Plant::kMismatched, o.noise, o.gyro_bias);
  std::printf("hil: min Gamma3 %.6f (max tilt %.4f rad; upright: %s), controller %s (%s), firmware exit %d\n",
              min_gamma3, std::acos(std::min(min_gamma3, 1.0)), Plant::kCriterion, rt::to_string(last.mode),
              attractor::to_string(last.reason), fw_exit);
  const bool ok = upright && all_detected && goodbye && (qemu <= 0 || fw_exit == 0);
  std::printf("hil: %s\n", ok        ? "UPRIGHT, every injected fault detected"
                           : upright ? "UPRIGHT, but faults missed or link incomplete"
                                     : "FELL or tripped to the safe state");
  return ok ? 0 : kExitFell;
}

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  return o.plant == "skate" ? run<hil_run::SkatePlant>(o) : run<hil_run::RobotPlant>(o);
}
