// SPDX-License-Identifier: Apache-2.0
// Console and exit through semihosting: the default for boards run under QEMU.
#include "attractor/board/board.hpp"
#include "attractor/board/semihosting.hpp"

namespace attractor::board {

void write(const char* s) { semihosting::write0(s); }

void exit(int code) { semihosting::exit(code); }

}  // namespace attractor::board
