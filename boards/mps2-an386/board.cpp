// SPDX-License-Identifier: Apache-2.0
// Arm MPS2 FPGA image AN386, Cortex-M4F (QEMU mps2-an386)
#include "attractor/board/board.hpp"

namespace attractor::board {

const char* const name = "mps2-an386";

void initialize() {}

}  // namespace attractor::board
