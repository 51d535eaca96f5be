// SPDX-License-Identifier: Apache-2.0
// The one table of exit codes of attractor-sim, attractor-paper and attractor-hil (also in --help,
// docs/hil.md and docs/tools.md),
// and Failure, the exception a host command throws to stop with one of them.
#pragma once

#include <stdexcept>
#include <string>

namespace attractor::cli {

enum Exit : int {
  exit_ok = 0,
  exit_check_failed = 1,  // attractor-paper: a reproduced number disagrees with the paper; attractor-wire-reference
                          // --check: a generated page differs from what the code says
  exit_usage = 2,         // unknown option/command, missing or empty value, malformed token, option not for this
                          // mode, a config line naming a file or a program, an output naming an input or another output
  exit_unstable = 3,      // refused as unstable: check_step, sigma outside its range ((58) skate), no stable auto gains
  exit_blowup = 4,        // the run blew up: non-finite state, invariant drift beyond sanity, no RATTLE solution,
                          // singular closed loop (spherical robot)
  exit_invalid = 5,       // a value outside its physical range, non-finite, off the constraint, absurd step count
  exit_io = 6,            // a file could not be read or written (CSV, --out, --config, stdout: EPIPE, ENOSPC)
  exit_hil_failed = 7,    // attractor-hil: the plant fell, the controller tripped to the safe state, an injected
                          // fault went undetected, or the run did not end cleanly (goodbye, firmware exit)
  exit_hil_silent = 8,    // attractor-hil: the firmware stopped answering (no frame within --timeout)
  exit_hil_link = 9,      // attractor-hil: link or QEMU error: write failed, QEMU's monitor failed, QEMU
                          // did not start or exited
  exit_hil_replay = 10,   // attractor-hil --replay: the firmware's answers (or, --plant-only, the plant's frames)
                          // differ from the recording
  exit_hil_firmware = 11,  // attractor-hil: the firmware's hello names another plant, another wire schema or
                           // another wire version: refused before the first tick
};

inline const char* const kExitCodeTable =
    "exit codes (all commands):\n"
    "  0  success\n"
    "  1  attractor-paper: a reproduced number disagrees with the paper\n"
    "  2  usage: unknown command or option, missing or empty value (a value never is the next\n"
    "     option), malformed number or list, repeated option, option that does not apply to the\n"
    "     chosen mode, bad config-file line (a key naming a file or a program included), an output\n"
    "     that is an input or another output (by device and inode)\n"
    "  3  refused as unstable: step fails check_step, sigma outside its stability range ((58) for the\n"
    "     skate), no stable --gains auto\n"
    "  4  numerical blow-up: non-finite state, invariant drift beyond sanity, RATTLE without solution,\n"
    "     singular closed loop (spherical robot)\n"
    "  5  invalid input: value non-finite or outside its physical range, initial state off the\n"
    "     constraint (without --project), a step --h that --precision holds only as 0 or a\n"
    "     subnormal number, step count 0, not representable or above 1e9 (without --force)\n"
    "  6  I/O error: config file or recording unreadable, not a regular file or too large, CSV or\n"
    "     --out not writable, stdout closed, stdout or a file failed (closed pipe, full disk)\n"
    "  7  attractor-hil: the plant fell or tripped to the safe state, an injected fault went\n"
    "     undetected, or the run did not end cleanly (goodbye unanswered, firmware exit not 0)\n"
    "  8  attractor-hil: the firmware stopped answering (no frame within --timeout)\n"
    "  9  attractor-hil: link or QEMU error (write failed, QEMU or its monitor failed, QEMU did not\n"
    "     start or exited early: QEMU's own message)\n"
    "  10 attractor-hil --replay: a byte differs from the recording (the message names the tick\n"
    "     and the byte in the frame); a file that is not a valid recording is 2, unreadable 6\n"
    "  11 attractor-hil: wrong firmware: its hello names another plant or another wire schema, or\n"
    "     it answers in another wire format (refused before the first tick)\n"
    "  128+N  killed by signal N (attractor-hil stops its QEMU first)\n";

// Thrown by host commands; the tool's main prints "<command>: <message>" and exits with code.
struct Failure : std::runtime_error {
  int code;
  Failure(int c, const std::string& message) : std::runtime_error(message), code(c) {}
};

}  // namespace attractor::cli
