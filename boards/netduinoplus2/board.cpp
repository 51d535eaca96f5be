// STM32F405RG (Cortex-M4F, 168 MHz), run in QEMU as 'netduinoplus2' and flashed to real
#include "attractor/board/board.hpp"

namespace attractor::board {

const char* const name = "netduinoplus2";

void initialize() {}

}  // namespace attractor::board
