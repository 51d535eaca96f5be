// SPDX-License-Identifier: Apache-2.0
// apps/spherical-robot-hil: the same spherical-robot controller as apps/spherical-robot (float,
// 1 kHz, σ = −1.5e-4 on both rotors, |u_a| <= 1 N m), with the plant on the host: the sensor
// source is the HIL link on the board's UART (link::HilLink with link::SphericalRobotWire), and
// the frames are the clock (link::run_hil_firmware). Wiring only, the same shape as
// apps/skate-rotor-hil. Run by the host runner (attractor-hil --plant spherical-robot). Prints
// the runtime report after the host's goodbye; exit 0 when the controller never left running
// mode. Boots are announced and the host's reset frame reboots the core, as in
// apps/skate-rotor-hil (board/reset.hpp).
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/reset.hpp"
#include "attractor/board/semihost_link.hpp"
#include "attractor/control/spherical_robot_controller.hpp"
#include "attractor/link/hil_firmware.hpp"
#include "attractor/link/spherical_robot_wire.hpp"

using Board = attractor::board::Board;
using S = float;

namespace {

constexpr std::uint32_t kRateHz = 1000;
constexpr S kDt = 1.0f / static_cast<S>(kRateHz);

using Source = attractor::link::HilLink<S, attractor::link::SphericalRobotWire<S>>;  // SIL: SimulatedSphericalRobot<S>
using Controller = attractor::SphericalRobotController<S>;

}  // namespace

int main() {
  const attractor::rt::BootInfo boot = attractor::rt::on_boot(attractor::board::boot_record());
  Board::initialize();
  const Controller::Config cfg;  // reference robot (spherical-robot.md), σ = −1.5e-4
  return attractor::link::run_hil_firmware<Board, Source, attractor::board::SemihostLink>(
      "robot-hil", Controller::make(cfg, kDt), kRateHz, boot, [] { attractor::board::system_reset_requested(); });
}
