// SPDX-License-Identifier: Apache-2.0
// Arm MPS2 FPGA image AN500, Cortex-M7 with double-precision FPU (QEMU mps2-an500)
#include "attractor/board/board.hpp"

namespace attractor::board {

const char* const name = "mps2-an500";

void initialize() {}

}  // namespace attractor::board
