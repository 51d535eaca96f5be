// SPDX-License-Identifier: Apache-2.0
// Fault containment: MPU stack guard, fault enables, and the fault handlers (board/fault.hpp).
// Registers: ARMv7-M ARM B3.2 (SCB: CCR B3.2.8, SHCSR B3.2.13, CFSR B3.2.15, HFSR B3.2.16,
// MMFAR B3.2.17, BFAR B3.2.18) and B3.5 (PMSAv7 MPU: TYPE, CTRL, RNR, RBAR, RASR).
#include "attractor/board/fault.hpp"

#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/cortex_m.hpp"
#include "attractor/board/identity.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/text.hpp"

// Linker-script symbols (cmake/cortex-m.ld.in): the guard sits right below _stack_bottom.
extern "C" std::uint32_t _stack_guard, _stack_bottom, _estack, _sidata;

namespace {

namespace cm = attractor::cortex_m;

constexpr std::uint32_t SHCSR = 0xE000ED24u;
constexpr std::uint32_t SHCSR_MEMFAULTENA = 1u << 16, SHCSR_BUSFAULTENA = 1u << 17, SHCSR_USGFAULTENA = 1u << 18;
constexpr std::uint32_t CCR_DIV_0_TRP = 1u << 4;
constexpr std::uint32_t CFSR = 0xE000ED28u, HFSR = 0xE000ED2Cu, MMFAR = 0xE000ED34u, BFAR = 0xE000ED38u;
constexpr std::uint32_t CFSR_MSTKERR = 1u << 4, CFSR_MMARVALID = 1u << 7, CFSR_STKERR = 1u << 12,
                        CFSR_BFARVALID = 1u << 15;
constexpr std::uint32_t MPU_TYPE = 0xE000ED90u, MPU_CTRL = 0xE000ED94u, MPU_RNR = 0xE000ED98u, MPU_RBAR = 0xE000ED9Cu,
                        MPU_RASR = 0xE000EDA0u;
constexpr std::uint32_t MPU_CTRL_ENABLE = 1u << 0, MPU_CTRL_PRIVDEFENA = 1u << 2;

void (*volatile g_safe_hook)(void*) = nullptr;
void* volatile g_safe_ctx = nullptr;
bool g_guarded = false;

std::uintptr_t addr(const std::uint32_t* p) { return reinterpret_cast<std::uintptr_t>(p); }

// The stack the fault handlers switch to: the main stack may be exhausted (that may be the
// fault). Big enough for the report (a Text<160> and a few calls).
alignas(8) std::uint32_t g_fault_stack[512];

}  // namespace

// Top of the fault stack, for the handler stubs below.
extern "C" std::uint32_t* const attractor_fault_stack_top = g_fault_stack + 512;

namespace attractor::board {

std::uintptr_t stack_guard_begin() { return g_guarded ? addr(&_stack_guard) : 0u; }
std::uintptr_t stack_guard_end() { return g_guarded ? addr(&_stack_bottom) : 0u; }

void set_safe_output(void (*hook)(void*), void* ctx) {
  g_safe_hook = nullptr;  // never a new hook with the old context
  g_safe_ctx = ctx;
  g_safe_hook = hook;
}

void fault_protection_start() {
  // Region 7 (highest number wins on overlap): [_stack_guard, _stack_bottom), no access
  // (AP = 000), execute never; the background map (PRIVDEFENA) stays for everything else.
  const std::uint32_t size = static_cast<std::uint32_t>(addr(&_stack_bottom) - addr(&_stack_guard));
  const std::uint32_t dregions = (cm::reg(MPU_TYPE) >> 8) & 0xFFu;
  if (dregions != 0u && size >= 32u && (size & (size - 1u)) == 0u) {
    unsigned log2 = 0;
    while ((1u << log2) < size) ++log2;
    cm::reg(MPU_RNR) = dregions - 1u;
    cm::reg(MPU_RBAR) = static_cast<std::uint32_t>(addr(&_stack_guard));
    cm::reg(MPU_RASR) = (1u << 28) /* XN */ | (0u << 24) /* AP: no access */ |
                        ((log2 - 1u) << 1) /* SIZE: 2^(SIZE+1) bytes */ | 1u /* ENABLE */;
    cm::reg(MPU_CTRL) = MPU_CTRL_ENABLE | MPU_CTRL_PRIVDEFENA;
    g_guarded = true;
  }
  cm::reg(SHCSR) |= SHCSR_MEMFAULTENA | SHCSR_BUSFAULTENA | SHCSR_USGFAULTENA;
  cm::reg(cm::scb::CCR) |= CCR_DIV_0_TRP;
  cm::dsb();
  cm::isb();
}

}  // namespace attractor::board

// Runs on the fault stack. Safe outputs first, then the report, then exit (code 3).
extern "C" [[noreturn]] void fault_report(const std::uint32_t* frame, std::uint32_t kind) {
  // A fault inside the hook or the report (HardFault escalation) skips the hook the second time.
  static volatile bool in_fault = false;
  if (!in_fault && g_safe_hook != nullptr) {
    in_fault = true;
    g_safe_hook(g_safe_ctx);
  }
  in_fault = true;
  static const char* const names[] = {"HardFault",  "MemManage", "BusFault",
                                      "UsageFault", "NMI",       "unexpected interrupt"};
  const std::uint32_t cfsr = cm::reg(CFSR);
  const std::uintptr_t f = reinterpret_cast<std::uintptr_t>(frame);
  // The frame is readable when it lies wholly inside the stack above the guard.
  const bool frame_ok = f >= addr(&_stack_bottom) && f + 32u <= addr(&_estack);
  const std::uint32_t mmfar = cm::reg(MMFAR);
  const bool in_guard =
      g_guarded && (cfsr & CFSR_MMARVALID) != 0u && mmfar >= addr(&_stack_guard) && mmfar < addr(&_stack_bottom);
  const bool overflow =
      (cfsr & (CFSR_MSTKERR | CFSR_STKERR)) != 0u || in_guard || (g_guarded && f < addr(&_stack_bottom));
  attractor::Text<200> t;
  t << "FAULT " << names[kind < 6 ? kind : 5];
  t << " CFSR=";
  t.hex(cfsr);
  t << " HFSR=";
  t.hex(cm::reg(HFSR));
  if (cfsr & CFSR_MMARVALID) {
    t << " MMFAR=";
    t.hex(mmfar);
  }
  if (cfsr & CFSR_BFARVALID) {
    const std::uint32_t bfar = cm::reg(BFAR);
    t << " BFAR=";
    t.hex(bfar);
    if (bfar == attractor::board::identity_probe_address()) {
      t << " BOARD MISMATCH: no board ID register here, not an " ATTRACTOR_BOARD_NAME;
    }
  }
  if (frame_ok) {
    t << " PC=";
    t.hex(frame[6]);
    t << " LR=";
    t.hex(frame[5]);
  }
  if (overflow) t << " stack overflow";
  // A trap from reading an error Result's value (core/result.hpp): the error it held.
  const attractor::Error bad = attractor::detail::result_fault_error;
  if (bad != attractor::Error::none) t << " RESULT READ WITHOUT VALUE: " << attractor::to_string(bad);
  t << "\n";
  attractor::board::write(t.c_str());
  attractor::board::exit(3);
}

// The report and the safe hook are compiled for the FPU: a NOCP fault (FPU off) would fault
// again in the handler, so the handler turns CP10/CP11 on first (CPACR, ARMv7-M ARM B3.2.20).
#if defined(__ARM_FP)
#define ATTRACTOR_FPU_ON       \
  "ldr r2, =0xE000ED88 \n"     \
  "ldr r3, [r2]     \n"        \
  "orr r3, r3, #0x00F00000 \n" \
  "str r3, [r2]     \n"        \
  "dsb              \n"        \
  "isb              \n"
#else
#define ATTRACTOR_FPU_ON ""
#endif

// Each handler: pick the stack the frame was pushed on (EXC_RETURN bit 2), move MSP to the
// fault stack (the main stack may be the thing that overflowed), FPU on, then
// fault_report(frame, kind).
#define ATTRACTOR_FAULT_STUB(handler, kind)                       \
  extern "C" __attribute__((naked)) void handler() {              \
    __asm__ volatile(                                             \
        "movs r0, #4      \n"                                     \
        "mov r1, lr       \n"                                     \
        "tst r0, r1       \n"                                     \
        "beq 1f           \n"                                     \
        "mrs r0, psp      \n"                                     \
        "b 2f             \n"                                     \
        "1: mrs r0, msp   \n"                                     \
        "2: ldr r2, =attractor_fault_stack_top \n"                \
        "ldr r2, [r2]     \n"                                     \
        "mov sp, r2       \n" ATTRACTOR_FPU_ON "movs r1, #" #kind \
        "\n"                                                      \
        "ldr r2, =fault_report \n"                                \
        "bx r2            \n"                                     \
        ".ltorg           \n");                                   \
  }

ATTRACTOR_FAULT_STUB(HardFault_Report, 0)

// A semihosting call (BKPT 0xAB) with no host to take it (QEMU without -semihosting-config,
// attractor-hil's UART link; a board without a debugger) is a debug event escalated to
// HardFault. It is stepped over as a failed call (r0 = -1, the semihosting error value): console
// lines are dropped, SYS_EXIT returns (its caller then idles), board/semihost_link.hpp falls back
// to the UART. Every other HardFault goes to the report. The faulting frame is the one the BKPT
// pushed (EXC_RETURN bit 2 picks MSP or PSP); its PC is the BKPT itself.
extern "C" __attribute__((naked)) void HardFault_Handler() {
  __asm__ volatile(
      "tst lr, #4       \n"
      "ite eq           \n"
      "mrseq r0, msp    \n"
      "mrsne r0, psp    \n"
      "ldr r2, =_stack_bottom \n"  // a frame inside the stack and a PC inside the code, or the
      "cmp r0, r2       \n"        // report: a stack overflow or a jump to nowhere must not
      "blo 1f           \n"        // fault again here (that would lock the core up)
      "ldr r2, =_estack \n"
      "subs r2, r2, #32 \n"
      "cmp r0, r2       \n"
      "bhi 1f           \n"
      "ldr r1, [r0, #24] \n"
      "ldr r2, =vector_table \n"
      "cmp r1, r2       \n"
      "blo 1f           \n"
      "ldr r2, =_sidata \n"
      "cmp r1, r2       \n"
      "bhs 1f           \n"
      "ldrh r2, [r1]    \n"
      "movw r3, #0xBEAB \n"
      "cmp r2, r3       \n"
      "bne 1f           \n"
      "adds r1, r1, #2  \n"
      "str r1, [r0, #24] \n"
      "mov r2, #-1      \n"
      "str r2, [r0]     \n"
      "ldr r2, =0xE000ED2C \n"
      "mov r3, #0xC0000000 \n"
      "str r3, [r2]     \n"
      "bx lr            \n"
      "1: b HardFault_Report \n"
      ".ltorg           \n");
}
ATTRACTOR_FAULT_STUB(MemManage_Handler, 1)
ATTRACTOR_FAULT_STUB(BusFault_Handler, 2)
ATTRACTOR_FAULT_STUB(UsageFault_Handler, 3)
ATTRACTOR_FAULT_STUB(NMI_Handler, 4)
ATTRACTOR_FAULT_STUB(Unexpected_Handler, 5)
