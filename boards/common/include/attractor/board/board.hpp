// The thin interface every board implements (boards/<name>/board.cpp). A board is data
// (board.cmake: core, memory map, QEMU machine) plus these few functions.
#pragma once

#include <cstdint>

namespace attractor::board {

// Board name as in boards/<name>.
extern const char* const name;

// Clocks, console, peripherals. Called once by main() before anything else.
void initialize();

// Human-readable console output (semihosting under QEMU; the UART once the runtime owns it).
void write(const char* s);

// End the program with an exit code (semihosting exit under QEMU; on real hardware: park the
// core with actuators off, the code latched for a debugger).
[[noreturn]] void exit(int code);

// Stack high-water mark: bytes of the stack region that were ever written since reset,
// measured against the pattern painted by the reset handler.
std::uint32_t stack_used_bytes();
std::uint32_t stack_size_bytes();

}  // namespace attractor::board
