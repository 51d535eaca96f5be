// STM32F405RG (Cortex-M4F, 168 MHz): QEMU netduinoplus2 and real STM32F405/F407 boards.
#include "attractor/board/board.hpp"

namespace attractor::board {

const char* const name = "netduinoplus2";

void initialize() {}

}  // namespace attractor::board
