// SPDX-License-Identifier: Apache-2.0
// attractor-hil: the host side of hardware-in-the-loop (docs/hil.md). Simulates the plant in
// double (--plant: one of the plants of plant_registry.hpp, the first by default) and exchanges,
// in lockstep, one sensor frame and its actuator frame per 1 ms tick with the plant's firmware
// (apps/<plant>-hil), started here in QEMU or on a board behind a serial device. One concept per
// file:
//   plant_registry.hpp  the plants, one line each (skate_plant.hpp, robot_plant.hpp, ...)
//   options.hpp         the options (shared option layer, hil/cli/spec.hpp) and their rules
//   firmware_image.hpp  the --elf checks: a runnable ARM executable
//   firmware_identity.hpp  the hello answer's plant and wire schema: the wrong firmware is exit 11
//   qemu_process.hpp    QEMU as a child that never outlives the runner (signals included)
//   qemu_monitor.hpp    QEMU's monitor: the system_reset of the unrequested_reset fault class
//   transport.hpp       the byte paths (UART socket, semihosting FIFOs, serial) and Peer
//   handshake.hpp       hello / boot resynchronisation
//   answers.hpp         one tick's answers, stray answers, the recovery of a missing one
//   experiment.hpp      the tick loop with fault injection (hil/faults/link_faults.hpp)
//   round_trip_stats.hpp  the round-trip latency percentiles and histogram, fixed memory
//   summary.hpp         the "hil:" lines and the outcome's exit code
//   byte_tap.hpp, recording.hpp, replay.hpp  --record, --replay [--plant-only]: raw bytes kept
//                       in a versioned file and checked bit for bit on a second run
// Everything is validated before QEMU starts; exit codes: hil/cli/exit_codes.hpp (--help).
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

#include "experiment.hpp"
#include "file_roles.hpp"
#include "firmware_image.hpp"
#include "options.hpp"
#include "plant_registry.hpp"
#include "qemu_monitor.hpp"
#include "qemu_process.hpp"
#include "recording.hpp"
#include "replay.hpp"
#include "standard_streams.hpp"
#include "summary.hpp"
#include "transport.hpp"

namespace {

using namespace hil_run;

// The CSV and the recording, opened (created or truncated) before QEMU starts, so an unwritable
// path fails first.
struct CsvFile {
  std::FILE* f = nullptr;
  ~CsvFile() {
    if (f != nullptr) std::fclose(f);
  }
};

// --replay --plant-only: the experiment against the recorded answers, no firmware.
template <class Plant>
int replay_plant(const Options& o, const Recording& recording, const Plant& plant) {
  PlantReplay script(recording);
  Peer peer(-1, -1, o.timeout_s);
  peer.tap = &script;
  const RunRecord rec = run_experiment(o, plant, peer, nullptr);
  script.finish(o.ticks);
  std::printf(
      "hil: replay --plant-only: %zu recorded events, %ld frames / %ld bytes written by the plant run, "
      "identical to '%s'; %ld frames read (the recorded answers), min Gamma3 %.6f\n",
      script.events(), peer.frames_sent_, peer.bytes_sent_, o.replay.c_str(), peer.frames_received_, rec.min_gamma3);
  return code::exit_ok;
}

// --replay with a firmware: the recorded writes again, every byte back compared.
inline int replay_firmware(const Options& o, const Recording& recording, Peer& peer, QemuMonitor& monitor) {
  FirmwareReplay check(recording);
  peer.tap = &check;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t n =
      check.run(peer, recording, monitor.connected() ? &monitor : nullptr, o.answer_timeout_ms, o.timeout_s);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "hil: replay: %ld frames / %ld bytes sent, %zu bytes received in %.2f s wall, identical to '%s'; "
      "%ld lone 0x00 after a late answer\n",
      peer.frames_sent_ - check.nudges, peer.bytes_sent_ - check.nudges, n, s, o.replay.c_str(), check.nudges);
  return code::exit_ok;
}

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
int run(const Options& o, const Recording& recording, const std::string& header) {
  // Everything that can be refused is refused here, before any process or file name exists.
  auto made = Plant::make(o.loop);
  if (!made)
    throw Failure(code::exit_invalid, std::string("--mismatch: the plant's parameters are invalid (") +
                                          attractor::to_string(made.error()) + ")");
  if (o.plant_only) return replay_plant(o, recording, *made);
  if (o.qemu_mode()) check_firmware_image(o.elf);
  const long cpu = o.qemu_mode() ? qemu_cpu(o) : -1;
  CsvFile csv;
  if (!o.csv.empty() && (csv.f = std::fopen(o.csv.c_str(), "w")) == nullptr)
    throw Failure(code::exit_io, "--csv: cannot write '" + o.csv + "': " + std::strerror(errno));
  CsvFile record;
  if (!o.record.empty() && (record.f = std::fopen(o.record.c_str(), "wb")) == nullptr)
    throw Failure(code::exit_io, "--record: cannot write '" + o.record + "': " + std::strerror(errno));

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
  QemuMonitor monitor;  // unrequested_reset only
  if (o.needs_monitor()) monitor.connect(temp_prefix() + ".mon", qemu);
  int fw_exit = -1;
  RunRecord rec;
  {
    Peer peer(rfd, wfd, o.timeout_s);
    if (o.qemu_mode()) peer.qemu = &qemu;  // its exit while a frame is awaited: exit 9
    if (!o.replay.empty()) {
      const int rc = replay_firmware(o, recording, peer, monitor);
      qemu.stop();
      return rc;
    }
    std::unique_ptr<RecordingWriter> writer;
    if (record.f != nullptr) peer.tap = (writer = std::make_unique<RecordingWriter>(record.f, o.record, header)).get();
    rec = run_experiment(o, *made, peer, csv.f, monitor.connected() ? &monitor : nullptr);
    if (writer) {
      writer->finish(o.ticks);
      const int closed = std::fclose(record.f);
      record.f = nullptr;
      if (closed != 0)
        throw Failure(code::exit_io, "--record: error writing '" + o.record + "': " + std::strerror(errno));
    }
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
  if (!attractor::cli::guard_standard_streams()) {
    std::fprintf(stderr, "attractor-hil: %s\n", attractor::cli::kStdoutClosed);
    return code::exit_io;
  }
  install_signal_handlers();
  try {
    const attractor::cli::Spec spec = hil_spec();
    attractor::cli::Args args(spec);
    if (!attractor::cli::parse_args(spec, argc, argv, args)) return code::exit_ok;  // --help printed
    const Recording recording = args.given("replay") ? load_replay(args) : Recording{};
    const std::string header = recorded_options(args, args.given("elf") ? args.text("elf") : args.text("serial"));
    const Options o = read_options(args);
    if (args.flag("print-qemu-command")) {
      if (!o.qemu_mode() || !o.replay.empty())
        throw Failure(code::exit_usage, "--print-qemu-command needs --elf (and no --replay)");
      std::printf("%s\n", shell_line(qemu_command(o)).c_str());
      return code::exit_ok;
    }
    // The default QEMU is a program run too (the options given were compared in parse_args).
    if (o.qemu_mode() && !args.given("qemu"))
      attractor::cli::refuse_overlapping_files({{"--qemu (default)", attractor::cli::program_file(o.qemu)}},
                                               {{"--csv", o.csv}, {"--record", o.record}}, false);
    return with_plant(o.plant, [&](auto plant) { return run<typename decltype(plant)::type>(o, recording, header); });
  } catch (const attractor::cli::Failure& f) {
    std::fprintf(stderr, "attractor-hil: %s\n", f.what());
    return f.code;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attractor-hil: internal error: %s\n", e.what());
    return code::exit_hil_link;
  }
}
