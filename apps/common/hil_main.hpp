// SPDX-License-Identifier: Apache-2.0
// The HIL app of any plant: the same controller as its SIL app (float, 1 kHz), with the plant on
// the host: the sensor source is the HIL link on the board's UART (link::HilLink with the plant's
// wire mapping), and the frames are the clock (link::run_hil_firmware: one control step per
// sensor frame, one actuator frame back). Run by the host runner (hil/hil-run: attractor-hil
// --plant <name>), which starts the image in QEMU with UART0 on a socket (or, with --link
// semihost, on two host FIFOs by semihosting: board/semihost_link.hpp), or talks to a board on a
// serial port. Prints the runtime report after the host's goodbye; exit 0 when the controller
// never left running mode. Every boot is announced on the link with the reset count and reason
// (a record in reset-surviving RAM, board/reset.hpp); the host's reset frame reboots the core
// (SYSRESETREQ, as on a real board), the controller restarting from scratch.
// The facts give: Controller, make_controller(config, dt), Wire<S>, kHilName (the name its lines
// start with).
#pragma once

#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/reset.hpp"
#include "attractor/board/semihost_link.hpp"
#include "attractor/link/hil_firmware.hpp"
#include "attractor/link/hil_link.hpp"

namespace app {

template <class Facts>
int hil_main() {
  using S = float;
  using Board = attractor::board::Board;
  using Controller = typename Facts::Controller;
  using Source = attractor::link::HilLink<S, typename Facts::template Wire<S>>;
  constexpr std::uint32_t kRateHz = 1000;
  constexpr S kDt = 1.0f / static_cast<S>(kRateHz);
  const attractor::rt::BootInfo boot = attractor::rt::on_boot(attractor::board::boot_record());
  Board::initialize();
  const typename Controller::Config cfg;  // the plant's documented default run
  return attractor::link::run_hil_firmware<Board, Source, attractor::board::SemihostLink>(
      Facts::kHilName, Facts::make_controller(cfg, kDt), kRateHz, boot,
      [] { attractor::board::system_reset_requested(); });
}

}  // namespace app
