// SPDX-License-Identifier: Apache-2.0
// Arm MPS2 FPGA image AN385, Cortex-M3, soft float (QEMU mps2-an385)
#include "attractor/board/board.hpp"

namespace attractor::board {

const char* const name = "mps2-an385";

void initialize() {}

}  // namespace attractor::board
