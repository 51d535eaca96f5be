// SPDX-License-Identifier: Apache-2.0
// The firmware side of a HIL app, for any Board with the capabilities uart and uart_rx_wait
// (boards/common/include/attractor/board/board.hpp): the link's byte port on the board's UART,
// the lockstep's cost clock, and the run itself — start the deterministic receive, run the
// lockstep until the host's goodbye (link/lockstep.hpp), print the runtime report and what the
// link rejected. An app (apps/skate-rotor-hil, apps/spherical-robot-hil) is then wiring only:
// board, HilLink<S, Wire> source, controller, run_hil_firmware<Board, Source>(name, make(...),
// rate, boot, reboot).
// Boots and resets (docs/hil.md, fault class reset): every boot is announced on the link first
// (link/boot_frame.hpp: reset count and reason from the app's boot record, `boot`), and the
// host's reset frame ends the run without an answer and calls `reboot` (on the boards
// board::system_reset_requested: SYSRESETREQ with the request recorded in reset-surviving RAM).
// The board pieces are passed in so that this header stays free of board code.
#pragma once

#include <cstdint>

#include "attractor/core/result.hpp"
#include "attractor/core/text.hpp"
#include "attractor/link/boot_frame.hpp"
#include "attractor/link/lockstep.hpp"
#include "attractor/rt/boot_record.hpp"
#include "attractor/rt/loop.hpp"
#include "attractor/rt/tick.hpp"

namespace attractor::link {

// No alternative byte port: the UART always.
struct NoAltPort {
  static bool open() { return false; }
  static bool active() { return false; }
  static bool read(std::uint8_t&) { return false; }
  static void write(const std::uint8_t*, std::uint32_t) {}
};

// The link's byte port: the board's UART, read by sleeping until a byte arrives (capability
// uart_rx_wait), written by the board's blocking write (capability uart); or `Alt` when it
// opened at start (the HIL apps pass board::SemihostLink: the host's FIFOs by semihosting when
// the runner asks for them, attractor-hil --link semihost; docs/hil.md "Link rate").
template <class Board, class Alt = NoAltPort>
struct BoardUartPort {
  static bool read(std::uint8_t& b) { return Alt::active() ? Alt::read(b) : Board::uart_rx_wait_read(b); }
  static void write(const std::uint8_t* d, std::uint32_t n) {
    if (Alt::active())
      Alt::write(d, n);
    else
      Board::uart_write(d, n);
  }
};

// The lockstep's board view: cost on the board's reference clock (mps2: FPGA COUNTER, 25 MHz,
// computed from virtual time on read: no timer behind it; uart_rx_wait_start() stops SysTick,
// the usual cost clock), and the board's stack.
template <class Board>
struct BoardLockstepClock {
  static std::uint32_t cost_now() { return Board::reference_now(); }
  static std::uint32_t cost_hz() { return Board::reference_hz(); }
  static std::uint32_t cost_mask() { return 0xFFFFFFFFu; }
  static std::uint32_t stack_used_bytes() { return Board::stack_used_bytes(); }
  static std::uint32_t stack_size_bytes() { return Board::stack_size_bytes(); }
};

// What the app does on the host's reset request: reboot the core (never returns).
using Reboot = void (*)();

// Runs `loop` (an rt::Loop whose source is a HilLink) in lockstep on the board's UART until the
// host says goodbye (or asks for a reset: `reboot()`); `name` prefixes the console lines.
// Returns the exit code: 0 when the controller never left running mode, 1 otherwise.
template <class Board, class Alt = NoAltPort, class Loop>
int run_hil_firmware(const char* name, Loop& loop, std::uint32_t rate_hz, const rt::BootInfo& boot, Reboot reboot);

// The whole app after Board::initialize(): the controller as made (a refused configuration is
// printed and exits 2), an rt::Loop of a fresh `Source` (a HilLink) and it, then the run above.
template <class Board, class Source, class Alt = NoAltPort, class Controller>
int run_hil_firmware(const char* name, const Result<Controller>& controller, std::uint32_t rate_hz,
                     const rt::BootInfo& boot, Reboot reboot) {
  if (!controller) {
    Text<128> t;
    t << name << ": configuration refused: " << to_string(controller.error()) << "\n";
    Board::write(t.c_str());
    return 2;
  }
  rt::Loop<Source, Controller> loop(Source{}, *controller);
  return run_hil_firmware<Board, Alt>(name, loop, rate_hz, boot, reboot);
}

template <class Board, class Alt, class Loop>
int run_hil_firmware(const char* name, Loop& loop, std::uint32_t rate_hz, const rt::BootInfo& boot, Reboot reboot) {
  {
    Text<128> t;
    t << name << ": waiting for the host (HIL link on the UART, frames are the tick)\n";
    Board::write(t.c_str());
  }
  // Nothing may run down while the firmware waits for the host: the frames are the clock
  // (uart_rx_wait_start() also stops QEMU's reset-time watchdog timer and SysTick).
  Board::uart_rx_wait_start();
  using Port = BoardUartPort<Board, Alt>;
  if (Alt::open()) {
    Text<96> t;
    t << name << ": link on the host's FIFOs (semihosting)\n";
    Board::write(t.c_str());
  }
  {  // the boot announcement, before anything is read (the host notes it before its hello answer)
    std::uint8_t frame[layout::max_wire_size];
    std::size_t n = 0;
    if (encode_boot_frame(0, boot, frame, sizeof frame, n) == LinkError::none) {
      Port::write(frame, std::uint32_t(n));
    }
  }
  const rt::Report r = run_lockstep<BoardLockstepClock<Board>, Port>(loop, loop.source(), rt::rate_hz(rate_hz));
  if (loop.source().reset_requested()) {
    reboot();  // does not return on a board (the core resets)
    return 1;
  }
  rt::write_report(r, [](const char* s) { Board::write(s); });
  const LinkCounters c = loop.source().power_on_counters();  // every hello's run, as the report
  Text<320> t;
  t << name << ": link rejected " << c.total_rejected() << " (bad_length " << c.rejected_by(LinkError::bad_length)
    << " bad_framing " << c.rejected_by(LinkError::bad_framing) << " bad_crc " << c.rejected_by(LinkError::bad_crc)
    << " bad_version " << c.rejected_by(LinkError::bad_version) << " bad_type " << c.rejected_by(LinkError::bad_type)
    << " non_finite " << c.rejected_by(LinkError::non_finite) << " out_of_range "
    << c.rejected_by(LinkError::out_of_range) << ") gaps " << c.gaps << " repeated " << c.repeated << " late " << c.late
    << " implausible " << c.implausible << " wild " << c.wild << "; boot " << boot.resets << " ("
    << rt::to_string(boot.reason) << ")\n";
  Board::write(t.c_str());
  return r.mode == rt::Mode::running ? 0 : 1;
}

}  // namespace attractor::link
