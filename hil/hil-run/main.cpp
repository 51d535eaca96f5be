// SPDX-License-Identifier: Apache-2.0
// attractor-hil: the host side of hardware-in-the-loop (docs/hil.md). Simulates the plant in
// double (--plant skate: skate_plant.hpp, the default; --plant spherical-robot: robot_plant.hpp)
// and exchanges, in lockstep, one sensor frame and its actuator frame per 1 ms tick with the
// firmware (apps/skate-rotor-hil, apps/spherical-robot-hil), started here in QEMU or on a board
// behind a serial device. One concept per file:
//   options.hpp         the options (shared option layer, hil/cli/spec.hpp) and their rules
//   firmware_image.hpp  the --elf checks: a runnable ARM executable
//   firmware_identity.hpp  the hello answer's plant and wire schema: the wrong firmware is exit 10
//   qemu_process.hpp    QEMU as a child that never outlives the runner (signals included)
//   transport.hpp       the byte paths (UART socket, semihosting FIFOs, serial) and Peer
//   handshake.hpp       hello / boot resynchronisation
//   answers.hpp         one tick's answers, stray answers, the recovery of a missing one
//   experiment.hpp      the tick loop with fault injection (hil/faults/link_faults.hpp)
//   round_trip_stats.hpp  the round-trip latency percentiles and histogram, fixed memory
//   summary.hpp         the "hil:" lines and the outcome's exit code
// Everything is validated before QEMU starts; exit codes: hil/cli/exit_codes.hpp (--help).
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "experiment.hpp"
#include "firmware_image.hpp"
#include "options.hpp"
#include "qemu_process.hpp"
#include "robot_plant.hpp"
#include "skate_plant.hpp"
#include "summary.hpp"
#include "transport.hpp"

namespace {

using namespace hil_run;

// The CSV, opened (created or truncated) before QEMU starts, so an unwritable path fails first.
struct CsvFile {
  std::FILE* f = nullptr;
  ~CsvFile() {
    if (f != nullptr) std::fclose(f);
  }
};

// QEMU's host CPU for --qemu-cpu (-1: none), checked against this process's affinity.
long qemu_cpu(const Options& o) {
  if (o.qemu_cpu == -2) return -1;
  const long cpu = o.qemu_cpu >= 0 ? o.qemu_cpu : ::sched_getcpu();
  cpu_set_t mine;
  if (cpu < 0 || ::sched_getaffinity(0, sizeof mine, &mine) != 0) return -1;
  if (cpu >= CPU_SETSIZE || !CPU_ISSET(int(cpu), &mine))
    throw Failure(code::exit_usage, "--qemu-cpu: CPU " + std::to_string(cpu) + " is not available to this process");
  return cpu;
}

template <class Plant>
int run(const Options& o) {
  // Everything that can be refused is refused here, before any process or file name exists.
  auto made = Plant::make(o.loop);
  if (!made)
    throw Failure(code::exit_invalid, std::string("--mismatch: the plant's parameters are invalid (") +
                                          attractor::to_string(made.error()) + ")");
  if (o.qemu_mode()) check_firmware_image(o.elf);
  const long cpu = o.qemu_mode() ? qemu_cpu(o) : -1;
  CsvFile csv;
  if (!o.csv.empty() && (csv.f = std::fopen(o.csv.c_str(), "w")) == nullptr)
    throw Failure(code::exit_io, "--csv: cannot write '" + o.csv + "': " + std::strerror(errno));

  TemporaryNames names;  // declared before QEMU: removed after it is stopped
  QemuProcess qemu;
  int fd = -1, rfd = -1, wfd = -1;
  if (o.qemu_mode()) {
    fd = start_qemu(o, cpu, qemu);
    rfd = wfd = fd;
    if (o.link == "semihost") {
      open_fifos(o, qemu, rfd, wfd);
      ::close(fd);  // the UART socket is unused on this path (QEMU only waited for it)
    }
  } else {
    rfd = wfd = open_serial(o);
  }
  int fw_exit = -1;
  RunRecord rec;
  {
    Peer peer(rfd, wfd, o.timeout_s);
    rec = run_experiment(o, *made, peer, csv.f);
    if (csv.f != nullptr) {
      check_csv(csv.f, o.csv);
      const int closed = std::fclose(csv.f);
      csv.f = nullptr;
      if (closed != 0) throw Failure(code::exit_io, "--csv: error writing '" + o.csv + "': " + std::strerror(errno));
    }
    // With semihosting (--link semihost) the firmware exits after the goodbye and its exit code
    // counts; one that does not is stopped (exit -1). Without it (UART) QEMU is simply stopped.
    const bool has_fw_exit = o.qemu_mode() && o.link == "semihost";
    if (has_fw_exit)
      for (int i = 0; i < 200 && !qemu.exited(); ++i) ::usleep(10000);
    qemu.stop();
    if (has_fw_exit) fw_exit = qemu.wait();
    return report<Plant>(o, rec, peer, has_fw_exit, fw_exit);
  }
}

}  // namespace

int main(int argc, char** argv) {
  install_signal_handlers();
  try {
    const attractor::cli::Spec spec = hil_spec();
    attractor::cli::Args args(spec);
    if (!attractor::cli::parse_args(spec, argc, argv, args)) return code::exit_ok;  // --help printed
    const Options o = read_options(args, SkatePlant::kMismatchKeys, SkatePlant::kPercentKeys, RobotPlant::kMismatchKeys,
                                   RobotPlant::kPercentKeys);
    return o.plant == "skate" ? run<SkatePlant>(o) : run<RobotPlant>(o);
  } catch (const attractor::cli::Failure& f) {
    std::fprintf(stderr, "attractor-hil: %s\n", f.what());
    return f.code;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attractor-hil: internal error: %s\n", e.what());
    return code::exit_hil_link;
  }
}
