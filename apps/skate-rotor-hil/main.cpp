// SPDX-License-Identifier: Apache-2.0
// apps/skate-rotor-hil: the same skate-rotor controller as apps/skate-rotor (float, 1 kHz), with
// the plant on the host: the sensor source is the HIL link on the board's UART
// (link::HilLink), and the frames are the clock (link::run_hil_firmware: one control step per
// sensor frame, one actuator frame back). Wiring only. Run by the host runner
// (hil/hil-run: attractor-hil), which starts this image in QEMU with UART0 on a socket (or, with
// --link semihost, on two host FIFOs by semihosting: board/semihost_link.hpp), or talks to a
// board on a serial port. Prints the runtime report after the host's goodbye; exit 0 when the
// controller never left running mode. Every boot is announced on the link with the reset count
// and reason (a record in reset-surviving RAM, board/reset.hpp); the host's reset frame reboots
// the core (SYSRESETREQ, as on a real board), the controller restarting from scratch.
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/reset.hpp"
#include "attractor/board/semihost_link.hpp"
#include "attractor/control/skate_rotor_controller.hpp"
#include "attractor/link/hil_firmware.hpp"
#include "attractor/link/skate_rotor_wire.hpp"

using Board = attractor::board::Board;
using S = float;

namespace {

constexpr std::uint32_t kRateHz = 1000;
constexpr S kDt = 1.0f / static_cast<S>(kRateHz);

using Source = attractor::link::HilLink<S, attractor::link::SkateRotorWire<S>>;  // SIL: SimulatedSkateRotor<S>
using Controller = attractor::SkateRotorController<S>;

}  // namespace

int main() {
  const attractor::rt::BootInfo boot = attractor::rt::on_boot(attractor::board::boot_record());
  Board::initialize();
  const Controller::Config cfg;  // §7.3: σ = −1e-5
  return attractor::link::run_hil_firmware<Board, Source, attractor::board::SemihostLink>(
      "skate-hil", Controller::make(cfg, kDt), kRateHz, boot, [] { attractor::board::system_reset_requested(); });
}
