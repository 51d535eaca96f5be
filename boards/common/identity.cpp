// SPDX-License-Identifier: Apache-2.0
// Board identity check (board/identity.hpp). Values read from QEMU 7.2 ('xp' in the monitor)
// and the reference manuals:
//   CPUID (ARMv7-M ARM B3.2.3), part number bits [15:4]: 0xC23 Cortex-M3, 0xC24 M4, 0xC27 M7.
//   mps2 SCC ID register at 0x4002FFFC (Arm AN385/AN386/AN500 application notes; QEMU
//   hw/misc/mps2-scc.c): 0x41043850 AN385, 0x41043860 AN386, 0x41045000 AN500.
//   STM32F405/407 DBGMCU IDCODE (RM0090 §38.6.1) DEV_ID [11:0] = 0x413 on silicon; QEMU's
//   netduinoplus2 does not model DBGMCU and reads 0 there. An mps2 model reads 0 there too, so
//   a 0 is accepted only with the STM32F405's interrupt count: NVIC ICTR (0xE000E004,
//   ARMv7-M ARM B3.4.3) INTLINESNUM = 2 (65..96 lines; the F405 has 82, QEMU's model 96),
//   where QEMU's mps2-an386 has 1. ICTR is in the PPB, readable on every core; the mps2 SCC
//   address is not (it bus-faults on the STM32 model), so an STM32 image never reads it.
//   The other direction cannot be checked: an STM32 image's vector table is at 0x08000000,
//   unmapped on an mps2 model, which locks up at reset before any code runs.
// On a machine of another family the SCC read may bus-fault: the fault report then names the
// probe address (boards/common/fault.cpp) — still a clear stop, not a silent wrong run.
#include "attractor/board/identity.hpp"

#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/cortex_m.hpp"
#include "attractor/board/semihosting.hpp"
#include "attractor/core/text.hpp"

#ifndef ATTRACTOR_BOARD_NAME
#error "ATTRACTOR_BOARD_NAME comes from boards/CMakeLists.txt"
#endif

namespace attractor::board {
namespace {

namespace cm = attractor::cortex_m;

constexpr bool same(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

constexpr std::uint32_t kCpuid = 0xE000ED00u;
constexpr std::uint32_t kSccId = 0x4002FFFCu;
constexpr std::uint32_t kDbgmcuIdcode = 0xE0042000u;
constexpr std::uint32_t kIctr = 0xE000E004u;
constexpr std::uint32_t kStm32f405IntLines = 2u;  // ICTR INTLINESNUM

struct Expected {
  std::uint32_t part;      // CPUID [15:4]
  bool stm32;              // board ID is DBGMCU IDCODE (else mps2 SCC ID)
  std::uint32_t board_id;  // exact SCC ID, or DEV_ID for STM32
};

constexpr Expected expected() {
  return same(ATTRACTOR_BOARD_NAME, "mps2-an385")      ? Expected{0xC23u, false, 0x41043850u}
         : same(ATTRACTOR_BOARD_NAME, "mps2-an386")    ? Expected{0xC24u, false, 0x41043860u}
         : same(ATTRACTOR_BOARD_NAME, "mps2-an500")    ? Expected{0xC27u, false, 0x41045000u}
         : same(ATTRACTOR_BOARD_NAME, "netduinoplus2") ? Expected{0xC24u, true, 0x413u}
                                                       : Expected{0u, false, 0u};
}
constexpr Expected kExpected = expected();
static_assert(kExpected.part != 0u, "board/identity: add this board's CPUID part and board ID");

}  // namespace

std::uintptr_t identity_probe_address() { return kExpected.stm32 ? kDbgmcuIdcode : kSccId; }

Identity read_identity() {
  Identity id{};
  id.cpuid = cm::reg(kCpuid);
  // Read the board register only when the core matches: a wrong core is already a mismatch.
  if (((id.cpuid >> 4) & 0xFFFu) == kExpected.part) {
    id.board_id = cm::reg(static_cast<std::uint32_t>(identity_probe_address()));
    id.ictr = cm::reg(kIctr);
  }
  return id;
}

bool identity_matches(const Identity& found) {
  if (((found.cpuid >> 4) & 0xFFFu) != kExpected.part) return false;
  if (kExpected.stm32) {
    const std::uint32_t dev = found.board_id & 0xFFFu;
    if (dev == kExpected.board_id) return true;
    // 0: QEMU's netduinoplus2 (no DBGMCU model), told from an mps2 model by its IRQ count.
    return found.board_id == 0u && (found.ictr & 0xFu) == kStm32f405IntLines;
  }
  return found.board_id == kExpected.board_id;
}

void check_board_identity() {
  const Identity found = read_identity();
  if (identity_matches(found)) return;
  Text<240> t;
  t << "BOARD MISMATCH: image built for " << ATTRACTOR_BOARD_NAME << " (CPUID part ";
  t.hex(kExpected.part);
  t << ", board ID ";
  t.hex(kExpected.board_id);
  t << "), running on CPUID ";
  t.hex(found.cpuid);
  t << " board ID ";
  t.hex(found.board_id);
  t << " ICTR ";
  t.hex(found.ictr);
  t << ": stopped\n";
  write(t.c_str());
#if defined(ATTRACTOR_BOARD_CAP_UART)
  // Without semihosting (attractor-hil's UART link) the console line is dropped: then on the
  // UART, still free at reset, where the runner reads it instead of a frame. Only then: on a
  // core without the FPU (an M4F image on an M3) the UART code may fault, and with semihosting
  // the exit below comes first.
  if (!semihosting::present()) uart_write(t.c_str());
#endif
  exit(3);
}

}  // namespace attractor::board
