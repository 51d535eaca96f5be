// SPDX-License-Identifier: Apache-2.0
// I/O of the Arm MPS2 FPGA images (AN385/AN386/AN500) as QEMU models them: CMSDK APB UART0
// (capability uart), the FPGA I/O block's LED (led) and COUNTER (the reference clock), and
// the 25 MHz clock (core_clock). No PWM timers: no actuators capability.
// References: Arm Cortex-M System Design Kit TRM (DDI 0479C) §4.3 "UART" (register offsets
// DATA 0x00, STATE 0x04, CTRL 0x08, BAUDDIV 0x10); Arm AN385 application note §3.7/§4.6
// (UART0 at 0x4000 4000, FPGA I/O at 0x4002 8000 with LED register at offset 0x00).
#include <cstdint>

#include "attractor/board/board.hpp"

namespace attractor::board {
namespace {

inline volatile std::uint32_t& reg(std::uint32_t a) {
  return *reinterpret_cast<volatile std::uint32_t*>(static_cast<std::uintptr_t>(a));
}

namespace uart0 {
constexpr std::uint32_t BASE = 0x40004000u;
constexpr std::uint32_t DATA = BASE + 0x00u;
constexpr std::uint32_t STATE = BASE + 0x04u;    // bit0 TX buffer full, bit1 RX buffer full
constexpr std::uint32_t CTRL = BASE + 0x08u;     // bit0 TX enable, bit1 RX enable
constexpr std::uint32_t BAUDDIV = BASE + 0x10u;  // >= 16; PCLK / baud
constexpr std::uint32_t STATE_TXFULL = 1u << 0;
constexpr std::uint32_t STATE_RXFULL = 1u << 1;
}  // namespace uart0

constexpr std::uint32_t FPGAIO_LED = 0x40028000u;
constexpr std::uint32_t kPclkHz = 25000000u;

void uart_enable() {
  if ((reg(uart0::CTRL) & 3u) != 3u) {
    reg(uart0::BAUDDIV) = kPclkHz / 115200u;
    reg(uart0::CTRL) = 3u;
  }
}

// volatile: a plain flag set inside the byte loop let GCC 12's store motion write the loop's last
// data-register store a second time after the loop (each frame's closing 0x00 went out twice).
volatile bool g_uart_sent = false;  // read at exit (console_semihosting.cpp)

void put(unsigned char c) {
  uart_enable();
  g_uart_sent = true;
  for (int i = 0; i < 100000 && (reg(uart0::STATE) & uart0::STATE_TXFULL); ++i) {
  }
  reg(uart0::DATA) = c;
}

}  // namespace

void uart_write(const char* s) {
  while (*s) put(static_cast<unsigned char>(*s++));
}
void uart_write(const unsigned char* data, std::uint32_t size) {
  for (std::uint32_t i = 0; i < size; ++i) put(data[i]);
}
bool uart_sent() { return g_uart_sent; }
bool uart_read(unsigned char& byte) {
  uart_enable();
  if ((reg(uart0::STATE) & uart0::STATE_RXFULL) == 0u) return false;
  byte = static_cast<unsigned char>(reg(uart0::DATA) & 0xFFu);
  return true;
}

void led_set(bool on) { reg(FPGAIO_LED) = (reg(FPGAIO_LED) & ~1u) | (on ? 1u : 0u); }

// FPGA I/O COUNTER (offset 0x18) counts the 25 MHz reference from QEMU's virtual clock
// (PRESCALE at 0x1C = 0: every cycle); independent of SysTick.
std::uint32_t reference_now() {
  reg(FPGAIO_LED + 0x1Cu) = 0u;
  return reg(FPGAIO_LED + 0x18u);
}
std::uint32_t reference_hz() { return kPclkHz; }

std::uint32_t core_clock_hz() { return kPclkHz; }

}  // namespace attractor::board
