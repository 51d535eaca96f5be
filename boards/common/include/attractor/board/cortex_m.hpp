// SPDX-License-Identifier: Apache-2.0
// Cortex-M core peripherals used by the runtime, written for this project from the
// Arm v7-M Architecture Reference Manual (DDI 0403E, "ARMv7-M ARM") and the Cortex-M4 TRM
// (DDI 0439B). Section numbers are cited next to each address. ARMv6-M (M0) has the same
// SysTick/NVIC/SCB addresses used here (word access only); it has no DWT cycle counter.
#pragma once

#include <cstdint>

namespace attractor::cortex_m {

inline volatile std::uint32_t& reg(std::uint32_t address) {
  return *reinterpret_cast<volatile std::uint32_t*>(static_cast<std::uintptr_t>(address));
}

// --- System Control Block (ARMv7-M ARM B3.2, register map table B3-4) ---
namespace scb {
constexpr std::uint32_t ICSR = 0xE000ED04u;  // Interrupt Control and State, B3.2.4
constexpr std::uint32_t ICSR_PENDSVSET = 1u << 28;
constexpr std::uint32_t ICSR_PENDSVCLR = 1u << 27;
constexpr std::uint32_t ICSR_PENDSTSET = 1u << 26;
constexpr std::uint32_t ICSR_PENDSTCLR = 1u << 25;
constexpr std::uint32_t SHPR3 = 0xE000ED20u;  // System Handler Priority 3, B3.2.12:
                                              // [23:16] PendSV (14), [31:24] SysTick (15)
constexpr std::uint32_t CCR = 0xE000ED14u;    // Configuration and Control, B3.2.8
}  // namespace scb

// --- SysTick (ARMv7-M ARM B3.3, table B3-6) ---
namespace systick {
constexpr std::uint32_t CSR = 0xE000E010u;  // Control and Status, B3.3.3
constexpr std::uint32_t CSR_ENABLE = 1u << 0;
constexpr std::uint32_t CSR_TICKINT = 1u << 1;
constexpr std::uint32_t CSR_CLKSOURCE = 1u << 2;  // 1: processor clock, 0: reference clock
constexpr std::uint32_t CSR_COUNTFLAG = 1u << 16;
constexpr std::uint32_t RVR = 0xE000E014u;    // Reload Value (24 bits), B3.3.4
constexpr std::uint32_t CVR = 0xE000E018u;    // Current Value (24 bits, write clears), B3.3.5
constexpr std::uint32_t CALIB = 0xE000E01Cu;  // Calibration, B3.3.6
constexpr std::uint32_t MAX_RELOAD = 0x00FFFFFFu;
}  // namespace systick

// --- NVIC (ARMv7-M ARM B3.4, table B3-8) ---
namespace nvic {
constexpr std::uint32_t ISER0 = 0xE000E100u;  // Interrupt Set-Enable, B3.4.4
constexpr std::uint32_t ICER0 = 0xE000E180u;  // Interrupt Clear-Enable, B3.4.5
constexpr std::uint32_t ISPR0 = 0xE000E200u;  // Interrupt Set-Pending, B3.4.6
constexpr std::uint32_t ICPR0 = 0xE000E280u;  // Interrupt Clear-Pending, B3.4.7
constexpr std::uint32_t IPR0 = 0xE000E400u;   // Interrupt Priority (4 per word), B3.4.9

inline void enable(unsigned irq) { reg(ISER0 + 4u * (irq >> 5)) = 1u << (irq & 31u); }
inline void disable(unsigned irq) { reg(ICER0 + 4u * (irq >> 5)) = 1u << (irq & 31u); }
inline void clear_pending(unsigned irq) { reg(ICPR0 + 4u * (irq >> 5)) = 1u << (irq & 31u); }
// Priority byte of an external interrupt (0 = highest; the core implements the top bits:
// 4 on STM32F4 and the Cortex-M4 default, 3 on the mps2 images). Word read-modify-write
// so it is valid on ARMv6-M too.
inline void set_priority(unsigned irq, std::uint8_t priority) {
  volatile std::uint32_t& r = reg(IPR0 + 4u * (irq >> 2));
  const unsigned shift = 8u * (irq & 3u);
  r = (r & ~(0xFFu << shift)) | (static_cast<std::uint32_t>(priority) << shift);
}
}  // namespace nvic

// System handler priorities (SHPR3, B3.2.12).
inline void set_pendsv_priority(std::uint8_t p) {
  reg(scb::SHPR3) = (reg(scb::SHPR3) & ~(0xFFu << 16)) | (static_cast<std::uint32_t>(p) << 16);
}
inline void set_systick_priority(std::uint8_t p) {
  reg(scb::SHPR3) = (reg(scb::SHPR3) & ~(0xFFu << 24)) | (static_cast<std::uint32_t>(p) << 24);
}
inline void pend_pendsv() { reg(scb::ICSR) = scb::ICSR_PENDSVSET; }

// --- Debug: DEMCR (ARMv7-M ARM C1.6.5) and the DWT cycle counter (C1.8.7, C1.8.8) ---
namespace dwt {
constexpr std::uint32_t DEMCR = 0xE000EDFCu;      // Debug Exception and Monitor Control, C1.6.5
constexpr std::uint32_t DEMCR_TRCENA = 1u << 24;  // enables DWT and ITM
constexpr std::uint32_t CTRL = 0xE0001000u;       // DWT Control, C1.8.7
constexpr std::uint32_t CTRL_CYCCNTENA = 1u << 0;
constexpr std::uint32_t CTRL_NOCYCCNT = 1u << 25;  // 1: no cycle counter implemented
constexpr std::uint32_t CYCCNT = 0xE0001004u;      // Cycle Count, C1.8.8
constexpr std::uint32_t LAR = 0xE0001FB0u;         // CoreSight lock access (Cortex-M7 TRM 3.4)
constexpr std::uint32_t LAR_KEY = 0xC5ACCE55u;
}  // namespace dwt

#if __ARM_ARCH >= 7
// Enable the DWT cycle counter and check that it counts. Returns false when there is none or
// it reads a constant (QEMU 7.2: CYCCNT reads 0, writes ignored).
inline bool dwt_cycle_counter_start() {
  reg(dwt::DEMCR) |= dwt::DEMCR_TRCENA;
  reg(dwt::LAR) = dwt::LAR_KEY;  // needed on Cortex-M7, ignored elsewhere
  if (reg(dwt::CTRL) & dwt::CTRL_NOCYCCNT) return false;
  reg(dwt::CYCCNT) = 0u;
  reg(dwt::CTRL) |= dwt::CTRL_CYCCNTENA;
  const std::uint32_t a = reg(dwt::CYCCNT);
  for (volatile int i = 0; i < 16; i = i + 1) {
  }
  return reg(dwt::CYCCNT) != a;
}
#else
inline bool dwt_cycle_counter_start() { return false; }
#endif

inline void wfi() { __asm__ volatile("wfi" ::: "memory"); }
inline void dsb() { __asm__ volatile("dsb" ::: "memory"); }
inline void isb() { __asm__ volatile("isb" ::: "memory"); }
inline void disable_irq() { __asm__ volatile("cpsid i" ::: "memory"); }
inline void enable_irq() { __asm__ volatile("cpsie i" ::: "memory"); }

}  // namespace attractor::cortex_m
