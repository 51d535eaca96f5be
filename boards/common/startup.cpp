// SPDX-License-Identifier: Apache-2.0
// Cortex-M startup shared by every board: vector table, reset handler (FPU on before any FP
// instruction, .data/.bss init, stack painting, fault protection, static constructors).
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/fault.hpp"
#include "attractor/board/identity.hpp"
#include "attractor/board/semihosting.hpp"
#include "attractor/core/text.hpp"

// Linker-script symbols (cmake/cortex-m.ld.in).
extern "C" {
extern std::uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _stack_bottom, _estack;
extern void (*__preinit_array_start[])();
extern void (*__preinit_array_end[])();
extern void (*__init_array_start[])();
extern void (*__init_array_end[])();
int main();
}

namespace {
constexpr std::uint32_t kStackPaint = 0xC0FFEE55u;
}

extern "C" [[noreturn]] void reset_c() {
  // Paint the stack below the current frame so the high-water mark can be measured.
  std::uint32_t* sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  for (std::uint32_t* p = &_stack_bottom; p < sp - 16; ++p) *p = kStackPaint;

  std::uint32_t* src = &_sidata;
  for (std::uint32_t* dst = &_sdata; dst < &_edata;) *dst++ = *src++;
  for (std::uint32_t* dst = &_sbss; dst < &_ebss;) *dst++ = 0u;

  // MPU stack guard and fault enables before any application code (board/fault.hpp).
  attractor::board::fault_protection_start();
  // Stop with a clear message on a machine this image was not built for (board/identity.hpp).
  attractor::board::check_board_identity();

  for (auto f = __preinit_array_start; f < __preinit_array_end; ++f) (*f)();
  for (auto f = __init_array_start; f < __init_array_end; ++f) (*f)();

  attractor::board::exit(main());
}

// The reset handler is naked so that nothing runs before the FPU is enabled: with
// -mfloat-abi=hard the compiler may use FP registers anywhere, and an FP instruction with the
// coprocessor off is a NOCP UsageFault.
extern "C" [[noreturn]] __attribute__((naked)) void Reset_Handler() {
#if defined(__ARM_FP)
  __asm__ volatile(
      "ldr r0, =0xE000ED88 \n"  // CPACR (ARMv7-M ARM B3.2.20)
      "ldr r1, [r0]        \n"
      "ldr r2, =0x00F00000 \n"  // CP10, CP11 full access
      "orr r1, r1, r2      \n"
      "str r1, [r0]        \n"
      "dsb                 \n"
      "isb                 \n"
      "b reset_c           \n"
      ".ltorg              \n");
#else
  __asm__ volatile("b reset_c \n");
#endif
}

namespace attractor::board {

std::uint32_t stack_size_bytes() {
  return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&_estack) -
                                    reinterpret_cast<std::uintptr_t>(&_stack_bottom));
}

std::uint32_t stack_used_bytes() {
  const std::uint32_t* p = &_stack_bottom;
  while (p < &_estack && *p == kStackPaint) ++p;
  return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&_estack) - reinterpret_cast<std::uintptr_t>(p));
}

}  // namespace attractor::board

// Fault handlers: boards/common/fault.cpp (MPU stack guard, safe-output hook, report).
extern "C" {
void NMI_Handler();
void HardFault_Handler();
void MemManage_Handler();
void BusFault_Handler();
void UsageFault_Handler();
void Unexpected_Handler();
}
// The weak aliases below need their target in this file: it jumps to the reporting handler.
extern "C" __attribute__((naked)) void default_handler() { __asm__ volatile("b Unexpected_Handler"); }

// Core exceptions and external interrupts default to the reporting handler; boards and the
// runtime override them with strong definitions (e.g. SysTick_Handler, irq37_handler).
// nothrow: the alias must carry its target's attributes (GCC -Wmissing-attributes; with
// -fno-exceptions default_handler is implicitly nothrow).
#define WEAK_DEFAULT __attribute__((weak, alias("default_handler"), nothrow))
extern "C" {
void SVC_Handler() WEAK_DEFAULT;
void DebugMon_Handler() WEAK_DEFAULT;
void PendSV_Handler() WEAK_DEFAULT;
void SysTick_Handler() WEAK_DEFAULT;
// Macro lists: clang-format 14 does not reach a fixed point on them.
// clang-format off
#define IRQ_DECL(n) void irq##n##_handler() WEAK_DEFAULT;
#define IRQ_DECL10(n) \
  IRQ_DECL(n##0) IRQ_DECL(n##1) IRQ_DECL(n##2) IRQ_DECL(n##3) IRQ_DECL(n##4) \
  IRQ_DECL(n##5) IRQ_DECL(n##6) IRQ_DECL(n##7) IRQ_DECL(n##8) IRQ_DECL(n##9)
IRQ_DECL10()
IRQ_DECL10(1) IRQ_DECL10(2) IRQ_DECL10(3) IRQ_DECL10(4) IRQ_DECL10(5)
IRQ_DECL10(6) IRQ_DECL10(7) IRQ_DECL10(8) IRQ_DECL10(9)
}

using Vector = void (*)();
#define IRQ_ENTRY(n) irq##n##_handler,
#define IRQ_ENTRY10(n) \
  IRQ_ENTRY(n##0) IRQ_ENTRY(n##1) IRQ_ENTRY(n##2) IRQ_ENTRY(n##3) IRQ_ENTRY(n##4) \
  IRQ_ENTRY(n##5) IRQ_ENTRY(n##6) IRQ_ENTRY(n##7) IRQ_ENTRY(n##8) IRQ_ENTRY(n##9)
// clang-format on

// 16 core vectors + 100 external interrupts (covers STM32F405's 82 and the mps2 images).
extern "C" __attribute__((section(".isr_vector"), used))
const Vector vector_table[16 + 100] = {reinterpret_cast<Vector>(&_estack),
                                       Reset_Handler,
                                       NMI_Handler,
                                       HardFault_Handler,
                                       MemManage_Handler,
                                       BusFault_Handler,
                                       UsageFault_Handler,
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       SVC_Handler,
                                       DebugMon_Handler,
                                       nullptr,
                                       PendSV_Handler,
                                       SysTick_Handler,
                                       IRQ_ENTRY10() IRQ_ENTRY10(1) IRQ_ENTRY10(2) IRQ_ENTRY10(3) IRQ_ENTRY10(4)
                                           IRQ_ENTRY10(5) IRQ_ENTRY10(6) IRQ_ENTRY10(7) IRQ_ENTRY10(8) IRQ_ENTRY10(9)};
