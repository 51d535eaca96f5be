// SPDX-License-Identifier: Apache-2.0
// Console and exit through semihosting: the default for boards run under QEMU.
#include "attractor/board/board.hpp"
#include "attractor/board/semihosting.hpp"

namespace attractor::board {

void write(const char* s) { semihosting::write0(s); }

void exit(int code) {
  // Under QEMU the UART's host end (a pseudo-terminal) closes with the process, and the kernel
  // drops what its reader has not read yet: a HIL runner on a loaded host would lose the answer
  // to its goodbye. A quarter second of host time lets it read first. (uart_sent: the board's UART
  // driver, which every board with this console has.)
  if (uart_sent()) semihosting::wait_host_ms(250);
  semihosting::exit(code);
}

}  // namespace attractor::board
