// SPDX-License-Identifier: Apache-2.0
// attractor-hil's options on the shared option layer (hil/cli/spec.hpp): declared once with unit,
// default, range and help; read from the command line or --config with the same rules as
// attractor-sim; every value and every combination checked here, before anything is started.
// --mismatch, --noise and --seed mean what they mean in attractor-sim (closed_loop_options.hpp):
// the plant's parameters off the controller's model, seeded Gaussian sensor noise.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "closed_loop_options.hpp"
#include "exit_codes.hpp"
#include "link_faults.hpp"
#include "numbers.hpp"
#include "plant_registry.hpp"
#include "spec.hpp"

namespace hil_run {

namespace cli = attractor::cli;

struct Options {
  std::string elf, machine = "mps2-an386", qemu = "qemu-system-arm", serial, csv, plant;
  int baud = 115200;
  int64_t ticks = 2000;
  int64_t fault_every = 0;
  double timeout_s = 10.0;
  int status_every = 100;                     // a status frame (the firmware's counters) after every N answers
  int answer_timeout_ms = 200;                // no answer within it: a lone 0x00, then the frame again (answers.hpp)
  cli::ClosedLoopOptions loop;                // --mismatch, --noise, --seed (attractor-sim's meaning)
  std::vector<attractor::hil::Fault> faults;  // --faults: the classes in turn (all by default)
  double vertical_bias = 0.25;                // a bias fault adds this to Γ3 on one frame (|Γ| = 1 broken)
  double gyro_bias = 0.0;                     // constant offset on Ω1 all run [rad/s] (not detectable)
  int64_t reset_down = 5;                     // ticks of zero torque while the firmware reboots
  int64_t stuck_ticks = 6;                    // a stuck_* fault lasts this many consecutive ticks
  int64_t csv_every = 1;                      // CSV: every N-th tick plus every tick with a fault
  int64_t progress = 0;                       // a progress line every N ticks (0: none)
  std::string link = "uart";                  // QEMU only: "semihost" = the same frames over two host FIFOs
  long qemu_cpu = -1;                         // QEMU's threads on this host CPU; -1: the runner's CPU; -2: any (no pin)
  std::string record, replay;                 // recording.hpp, replay.hpp
  bool faulty_line = false;                   // the line corrupts bytes too: detections may exceed injections
  bool plant_only = false;                    // --replay without a firmware: the plant against the recorded answers
  bool qemu_mode() const { return serial.empty() && !plant_only; }
  // QEMU's monitor, for the unrequested_reset class (qemu_monitor.hpp).
  bool needs_monitor() const {
    bool any = false;
    for (auto f : faults) any = any || f == attractor::hil::Fault::unrequested_reset;
    return qemu_mode() && fault_every > 0 && any;
  }
};

inline const std::vector<std::string> kBauds = {"9600",   "19200",  "38400",  "57600",
                                                "115200", "230400", "460800", "921600"};

// The registered plants' names joined by `sep`, or their HIL apps.
inline std::string plant_names(const char* sep, bool apps = false) {
  std::string out;
  for (const PlantFacts& p : registered_plants()) out += (out.empty() ? "" : sep) + (apps ? p.hil_app : p.name);
  return out;
}

inline cli::Spec hil_spec() {
  std::vector<std::string> names;
  for (const PlantFacts& p : registered_plants()) names.push_back(p.name);
  const std::string usage =
      "usage: attractor-hil (--elf FIRMWARE.elf [--link uart|semihost] | --serial DEV [--baud B])\n"
      "                     [--plant " +
      plant_names("|") + "] [--ticks N] [--fault-every K] [options]";
  const std::string about =
      "Hardware in the loop: the plant simulated here in double, in lockstep with the firmware\n(" +
      plant_names(", ", true) + ") in QEMU or on a board (docs/hil.md).";
  cli::Spec s("attractor-hil", usage, about);
  s.group("firmware")
      .input("elf", "FILE", "firmware image, run in QEMU (one of --elf and --serial)")
      .input("serial", "DEV", "a board running the image behind this serial device (POSIX termios, raw)")
      .choice("plant", names, names.front(), "the plant the firmware controls")
      .choice("link", {"uart", "semihost"}, "uart",
              "with --elf: the byte path, QEMU's UART or two host FIFOs by semihosting\n"
              "                          (the only mode that gives the firmware host semihosting file access)")
      .text("machine", "M", "with --elf: QEMU machine (default mps2-an386)")
      .program("qemu", "PATH", "with --elf: the QEMU binary (default qemu-system-arm)")
      .text("qemu-cpu", "N|any", "with --elf: pin QEMU to host CPU N, or 'any' (default: the runner's CPU)")
      .number_mode("baud", "", "115200", cli::between(9600, 921600),
                   "with --serial: one of 9600 19200 38400 57600 115200 230400 460800 921600")
      .flag("print-qemu-command",
            "with --elf: print the QEMU command line this run would start, one line, and exit 0\n"
            "                          (nothing is started or created; docs/hil.md \"QEMU command line\")");
  s.group("experiment")
      .number("ticks", "", 2000, cli::between(1, 1e9), "1 ms ticks to run (whole number)")
      .number("timeout", "s", 10, cli::between(0, 1e6, true), "wall time without a frame before giving up")
      .number("answer-timeout", "ms", 200, cli::between(1, 60000),
              "no answer within it: a lone 0x00, then the frame again (whole ms)")
      .number("status-every", "", 100, cli::between(0, 65535),
              "the firmware's counters in a status frame after every N answers\n"
              "                          (0: only on the runner's request, before a reset and the goodbye)")
      .number_mode("progress", "", "every 5000 when --ticks >= 10000, else none", cli::between(0, 1e9),
                   "a progress line on stderr every N ticks (0: none)")
      .output("csv", "FILE", "a CSV row per tick (see --csv-every)")
      .number("csv-every", "", 1, cli::between(1, 1e9), "with --csv: every N-th tick plus every faulted tick");
  s.group("faults")
      .number("fault-every", "", 0, cli::between(0, 1e9), "a fault every K ticks, the classes in turn (0: none; >= 5)")
      .text("faults", "LIST",
            "all | corrupt,nan,out_of_range,drop,duplicate,reorder,delayed,bias,reset,\n"
            "                          cut,lost_delimiter,spurious_zero,noise,wild_sequence,wild_tick,\n"
            "                          unrequested_reset (QEMU's UART link only) (default all);\n"
            "                          stuck_nan,stuck_out_of_range,stuck_limit,stuck_frozen by name only\n"
            "                          (a sensor stuck for --stuck-ticks ticks: the first three trip)")
      .number("vertical-bias", "", 0.25, cli::between(-10, 10, true), "a bias fault adds B to Gamma3 on one frame")
      .number("gyro-bias", "rad/s", 0, cli::between(-10, 10, true), "constant offset on Omega1 all run")
      .number("reset-down", "", 5, cli::between(1, 1e9), "ticks of zero torque while the firmware reboots")
      .number("stuck-ticks", "", 6, cli::between(1, 1e9), "a stuck_* fault lasts N consecutive ticks (< --fault-every)")
      .flag("faulty-line",
            "the line itself drops, flips or inserts bytes (a relay, a noisy UART): the firmware\n"
            "                          may count more than was injected (at least, not exactly)");
  s.group("record and replay")
      .output("record", "FILE", "keep the run's bytes both ways, its faults and options in FILE")
      .input("replay", "FILE",
             "send a recording's bytes to the firmware again; every answer must match bit for bit\n"
             "                          (the recording's options are used; exit 10 at the first difference)")
      .flag("plant-only", "with --replay: no firmware; the plant against the recorded answers");
  s.group("plant error (attractor-sim's options)");
  s.number("noise", "", 0, cli::non_negative(), "sensor noise: Gaussian SD added to every gyro and vertical component")
      .number("seed", "", 1, cli::between(0, 9007199254740992.0), "noise seed (whole number)")
      .text("mismatch", "K=F,...",
            "plant parameter K = model value x (1 + F), F > -1 (K: the plant's\n"
            "                          attractor-sim names); a bare number P is the older form: m, l and the\n"
            "                          rotor inertias x (1 + P/100), -90 < P < 1000");
  s.notes(
      "The plant's success criterion, the fault classes and the summary lines: docs/hil.md.\n"
      "Everything is checked before QEMU starts (options, --elf is a 32-bit ARM executable, --csv\n"
      "writable); the firmware's hello answer before the first tick (its plant and wire schema: exit 11\n"
      "when they are not this runner's); QEMU runs in its own process group and is stopped on every\n"
      "exit path (SIGINT, SIGTERM and SIGHUP included).\n\n");
  return s;
}

// A count: a whole number in the Spec's range, read as an integer (the shared layer's rule);
// `def` when not given.
inline int64_t count(const cli::Args& a, const std::string& name, int64_t def) {
  return a.given(name) ? static_cast<int64_t>(a.whole(name)) : def;
}

// --mismatch: attractor-sim's K=F list over the plant's keys, or the older bare percent P (the
// keys of `percent_keys`, each F = P/100).
inline std::vector<std::pair<std::string, double>> read_mismatch(const std::string& text,
                                                                 const std::vector<std::string>& keys,
                                                                 const std::vector<std::string>& percent_keys,
                                                                 const std::string& shown) {
  double pct = 0;
  if (!cli::parse_number(text, pct)) return cli::parse_mismatch(text, keys, shown);
  if (!(pct > -90.0 && pct < 1000.0))
    throw cli::Failure(cli::exit_invalid,
                       "--mismatch = " + cli::exact(pct) + " % is outside its range: need -90 < P < 1000");
  std::vector<std::pair<std::string, double>> out;
  if (pct != 0)
    for (const auto& k : percent_keys) out.emplace_back(k, pct / 100.0);
  return out;
}

// The parsed and checked options; --mismatch over the chosen plant's keys (plant_registry.hpp).
inline Options read_options(const cli::Args& a) {
  using cli::Failure;
  Options o;
  o.elf = a.text("elf");
  o.serial = a.text("serial");
  o.record = a.text("record");
  o.replay = a.text("replay");
  o.plant_only = a.flag("plant-only");
  if (a.given("record") && o.record.empty()) throw Failure(cli::exit_usage, "--record: empty file name");
  if (o.plant_only) {
    if (!a.given("replay")) throw Failure(cli::exit_usage, "--plant-only needs --replay FILE");
    for (const char* k : {"elf", "serial", "qemu", "qemu-cpu"}) a.forbid(k, "with --plant-only (no firmware runs)");
  } else if (a.given("elf") == a.given("serial")) {
    throw Failure(cli::exit_usage, "give exactly one of --elf and --serial");
  }
  if (a.given("elf") && o.elf.empty()) throw Failure(cli::exit_usage, "--elf: empty file name");
  if (a.given("serial") && o.serial.empty()) throw Failure(cli::exit_usage, "--serial: empty device name");
  o.plant = a.choice("plant");
  o.link = a.choice("link");
  if (o.plant_only) {
    o.machine = a.given("machine") ? a.text("machine") : o.machine;  // the recording's, not used
  } else if (o.qemu_mode()) {
    a.forbid("baud", "with --elf (QEMU's UART model has no baud rate; --baud is for --serial)");
    if (a.given("machine")) o.machine = a.text("machine");
    if (a.given("qemu")) o.qemu = a.text("qemu");
    if (o.machine.empty() || o.qemu.empty()) throw Failure(cli::exit_usage, "--machine/--qemu: empty name");
    // A machine name only: QEMU's -M also takes properties (dumpdtb=FILE writes a file).
    if (o.machine.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
            std::string::npos ||
        o.machine[0] == '-')
      throw Failure(cli::exit_usage,
                    "--machine: " + a.shown("machine") + " is not a machine name (letters, digits, '.', '_', '-')");
    if (a.given("qemu-cpu")) {
      const std::string c = a.text("qemu-cpu");
      double n = 0;
      if (c == "any")
        o.qemu_cpu = -2;
      else if (cli::parse_number(c, n) && n >= 0 && n < 1024 && n == std::floor(n))
        o.qemu_cpu = long(n);
      else
        throw Failure(cli::exit_usage,
                      "--qemu-cpu: " + a.shown("qemu-cpu") + " is not a CPU number (0..1023) or 'any'");
    }
  } else {
    for (const char* k : {"link", "machine", "qemu", "qemu-cpu"}) a.forbid(k, "with --serial (QEMU only, with --elf)");
    const double b = a.num("baud", 115200);
    bool known = false;
    for (const auto& k : kBauds) known = known || cli::exact(b) == k;
    if (!known)
      throw Failure(cli::exit_invalid,
                    "--baud = " + cli::exact(b) + ": one of 9600 19200 38400 57600 115200 230400 460800 921600");
    o.baud = int(b);
  }
  o.ticks = count(a, "ticks", 2000);
  o.timeout_s = a.num("timeout");
  o.answer_timeout_ms = int(count(a, "answer-timeout", 200));
  o.status_every = int(count(a, "status-every", 100));
  o.progress = count(a, "progress", o.ticks >= 10000 ? 5000 : 0);
  o.csv = a.text("csv");
  if (a.given("csv") && o.csv.empty()) throw Failure(cli::exit_io, "--csv: empty file name");
  if (!a.given("csv")) a.forbid("csv-every", "without --csv");
  o.csv_every = count(a, "csv-every", 1);

  o.fault_every = count(a, "fault-every", 0);
  if (o.fault_every != 0 && o.fault_every < 5)
    throw Failure(cli::exit_invalid, "--fault-every: 0 (none) or >= 5 (the firmware holds 3 stale ticks)");
  const std::string classes = a.given("faults") ? a.text("faults") : std::string("all");
  if (!attractor::hil::parse_fault_list(classes, o.faults))
    throw Failure(cli::exit_usage, "--faults: " + (a.given("faults") ? a.shown("faults") : std::string("'all'")) +
                                       " is not a list of classes");
  // A reset only QEMU's monitor can make, and only while the firmware waits in WFI (the UART
  // link): over --link semihost its blocking read holds QEMU's global lock, and the monitor
  // answers only after the next frame. Left out of "all" there, refused by name.
  if (!o.serial.empty() || o.link == "semihost") {
    const std::size_t n = o.faults.size();
    o.faults.erase(std::remove(o.faults.begin(), o.faults.end(), attractor::hil::Fault::unrequested_reset),
                   o.faults.end());
    if (classes != "all" && o.faults.size() != n)
      throw Failure(cli::exit_usage,
                    "--faults: unrequested_reset needs QEMU's UART link (QEMU's monitor resets the machine), not "
                    "--serial or --link semihost");
    if (o.faults.empty()) throw Failure(cli::exit_usage, "--faults: no class left for this link");
  }
  if (o.fault_every == 0)
    for (const char* k : {"faults", "vertical-bias", "reset-down", "stuck-ticks"}) a.forbid(k, "without --fault-every");
  o.faulty_line = a.flag("faulty-line");
  o.vertical_bias = a.num("vertical-bias");
  o.gyro_bias = a.num("gyro-bias");
  o.reset_down = count(a, "reset-down", 5);
  if (o.fault_every != 0 && o.reset_down >= o.fault_every)
    throw Failure(cli::exit_invalid,
                  "--reset-down: 1 <= ticks < --fault-every (the firmware is down while the plant moves)");
  o.stuck_ticks = count(a, "stuck-ticks", 6);
  if (o.fault_every != 0 && o.stuck_ticks >= o.fault_every)
    throw Failure(cli::exit_invalid, "--stuck-ticks: 1 <= ticks < --fault-every (one stuck sensor at a time)");

  o.loop.noise = a.num("noise");
  o.loop.seed = a.whole("seed");
  if (a.given("seed") && !(o.loop.noise > 0)) a.forbid("seed", "without --noise");
  if (a.given("mismatch"))
    for (const PlantFacts& p : registered_plants())
      if (p.name == o.plant)
        o.loop.mismatch = read_mismatch(a.text("mismatch"), p.mismatch_keys, p.percent_keys, a.shown("mismatch"));
  return o;
}

}  // namespace hil_run
