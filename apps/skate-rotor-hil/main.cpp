// SPDX-License-Identifier: Apache-2.0
// apps/skate-rotor-hil: the same skate-rotor controller as apps/skate-rotor (float, 1 kHz), with
// the plant on the host: the sensor source is the HIL link on the board's UART
// (link::HilLink), and the frames are the clock (link::run_lockstep: one control step per
// sensor frame, one actuator frame back). Wiring only. Run by the host runner
// (hil/hil-run: attractor-hil), which starts this image in QEMU with UART0 on a socket, or talks
// to a board on a serial port. Prints the runtime report after the host's goodbye; exit 0 when
// the controller never left running mode.
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/control/skate_rotor_controller.hpp"
#include "attractor/core/text.hpp"
#include "attractor/link/lockstep.hpp"
#include "attractor/link/skate_rotor_wire.hpp"
#include "attractor/rt/loop.hpp"
#include "attractor/rt/tick.hpp"
#include "semihost_link.hpp"
#include "uart_wait.hpp"

using attractor::Text;
using Board = attractor::board::Board;
using S = float;

namespace {

constexpr std::uint32_t kRateHz = 1000;
constexpr S kDt = 1.0f / static_cast<S>(kRateHz);

using Source = attractor::link::HilLink<S, attractor::link::SkateRotorWire<S>>;  // SIL: SimulatedSkateRotor<S>
using Controller = attractor::SkateRotorController<S>;
using Loop = attractor::rt::Loop<Source, Controller>;

// The link's byte port: the board's UART0, read by WFI until a byte arrives (uart_wait.hpp),
// written by the board's blocking write; or, when the host runner asks for it, two host FIFOs
// through semihosting (semihost_link.hpp: the fast path for long runs in QEMU).
struct UartPort {
  static bool read(std::uint8_t& b) {
    return skate_hil::SemihostLink::active() ? skate_hil::SemihostLink::read(b) : skate_hil::Mps2UartWait::read(b);
  }
  static void write(const std::uint8_t* d, std::uint32_t n) {
    if (skate_hil::SemihostLink::active())
      skate_hil::SemihostLink::write(d, n);
    else
      Board::uart_write(d, n);
  }
};

// The lockstep's board view: cost on the board's reference clock (mps2: FPGA COUNTER, 25 MHz;
// no timer behind it, SysTick is stopped while waiting, uart_wait.hpp), the board's stack.
struct LockstepClock {
  static std::uint32_t cost_now() { return Board::reference_now(); }
  static std::uint32_t cost_hz() { return Board::reference_hz(); }
  static std::uint32_t cost_mask() { return 0xFFFFFFFFu; }
  static std::uint32_t stack_used_bytes() { return Board::stack_used_bytes(); }
  static std::uint32_t stack_size_bytes() { return Board::stack_size_bytes(); }
};

}  // namespace

int main() {
  Board::initialize();
  const Controller::Config cfg;  // §7.3: σ = −1e-5
  auto controller = Controller::make(cfg, kDt);
  if (!controller) {
    Text<96> t;
    t << "skate-hil: configuration refused: " << attractor::to_string(controller.error()) << "\n";
    Board::write(t.c_str());
    return 2;
  }
  Board::write("skate-rotor-hil: waiting for the host (HIL link on UART0, frames are the tick)\n");
  // Nothing may run down while the firmware waits for the host: the frames are the clock
  // (start() also stops QEMU's reset-time watchdog timer and SysTick).
  skate_hil::Mps2UartWait::start();
  if (skate_hil::SemihostLink::open()) Board::write("skate-rotor-hil: link on the host's FIFOs (semihosting)\n");
  Loop loop(Source{}, *controller);
  const attractor::rt::Report r =
      attractor::link::run_lockstep<LockstepClock, UartPort>(loop, loop.source(), attractor::rt::rate_hz(kRateHz));
  attractor::rt::write_report(r, [](const char* s) { Board::write(s); });
  const attractor::link::LinkCounters& c = loop.source().counters();
  Text<200> t;
  t << "skate-hil: link rejected " << c.total_rejected() << " (bad_length " << c.rejected[0] << " bad_framing "
    << c.rejected[1] << " bad_crc " << c.rejected[2] << " non_finite " << c.rejected[5] << " out_of_range "
    << c.rejected[6] << ") gaps " << c.gaps << " repeated " << c.repeated << "\n";
  Board::write(t.c_str());
  return r.mode == attractor::rt::Mode::running ? 0 : 1;
}
