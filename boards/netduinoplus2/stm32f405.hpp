// SPDX-License-Identifier: Apache-2.0
// STM32F405/407 peripheral registers used by this board, written for the project from
// ST RM0090 "STM32F405/415, STM32F407/417, STM32F427/437 and STM32F429/439 reference manual"
// (Rev 19). Base addresses: RM0090 §2.3 Table 1 (memory map); offsets: the register
// description section cited on each line. Only what the board support needs.
#pragma once

#include <cstdint>

namespace attractor::stm32f405 {

inline volatile std::uint32_t& reg(std::uint32_t address) {
  return *reinterpret_cast<volatile std::uint32_t*>(static_cast<std::uintptr_t>(address));
}

// --- RCC, base 0x4002 3800 (RM0090 §2.3 Table 1; registers §7.3) ---
namespace rcc {
constexpr std::uint32_t BASE = 0x40023800u;
constexpr std::uint32_t CR = BASE + 0x00u;  // clock control, §7.3.1
constexpr std::uint32_t CR_HSION = 1u << 0;
constexpr std::uint32_t CR_HSIRDY = 1u << 1;
constexpr std::uint32_t CR_HSEON = 1u << 16;
constexpr std::uint32_t CR_HSERDY = 1u << 17;
constexpr std::uint32_t CR_PLLON = 1u << 24;
constexpr std::uint32_t CR_PLLRDY = 1u << 25;
constexpr std::uint32_t PLLCFGR = BASE + 0x04u;  // PLL configuration, §7.3.2:
                                                 // M [5:0], N [14:6], P [17:16] (0 = /2),
                                                 // PLLSRC [22] (1 = HSE), Q [27:24]
constexpr std::uint32_t PLLCFGR_PLLSRC_HSE = 1u << 22;
constexpr std::uint32_t CFGR = BASE + 0x08u;  // clock configuration, §7.3.3:
                                              // SW [1:0], SWS [3:2], HPRE [7:4],
                                              // PPRE1 [12:10], PPRE2 [15:13]
constexpr std::uint32_t CFGR_SW_PLL = 2u;
constexpr std::uint32_t CFGR_SWS_MASK = 3u << 2;
constexpr std::uint32_t CFGR_SWS_PLL = 2u << 2;
constexpr std::uint32_t CFGR_PPRE1_DIV4 = 5u << 10;
constexpr std::uint32_t CFGR_PPRE2_DIV2 = 4u << 13;
constexpr std::uint32_t AHB1ENR = BASE + 0x30u;  // AHB1 clock enable, §7.3.10
constexpr std::uint32_t AHB1ENR_GPIOAEN = 1u << 0;
constexpr std::uint32_t AHB1ENR_GPIODEN = 1u << 3;
constexpr std::uint32_t APB1ENR = BASE + 0x40u;  // APB1 clock enable, §7.3.13
constexpr std::uint32_t APB1ENR_TIM2EN = 1u << 0;
constexpr std::uint32_t APB1ENR_TIM3EN = 1u << 1;
constexpr std::uint32_t APB1ENR_TIM4EN = 1u << 2;
constexpr std::uint32_t APB1ENR_TIM5EN = 1u << 3;
constexpr std::uint32_t APB1ENR_PWREN = 1u << 28;
constexpr std::uint32_t APB2ENR = BASE + 0x44u;  // APB2 clock enable, §7.3.14
constexpr std::uint32_t APB2ENR_USART1EN = 1u << 4;
}  // namespace rcc

// --- Flash interface, base 0x4002 3C00: FLASH_ACR §3.9.1 ---
namespace flash {
constexpr std::uint32_t ACR = 0x40023C00u;
constexpr std::uint32_t ACR_LATENCY_5WS = 5u;  // 150 < HCLK <= 168 MHz at 2.7-3.6 V (Table 10)
constexpr std::uint32_t ACR_PRFTEN = 1u << 8;
constexpr std::uint32_t ACR_ICEN = 1u << 9;
constexpr std::uint32_t ACR_DCEN = 1u << 10;
}  // namespace flash

// --- PWR, base 0x4000 7000: PWR_CR §5.4.1 ---
namespace pwr {
constexpr std::uint32_t CR = 0x40007000u;
constexpr std::uint32_t CR_VOS = 1u << 14;  // regulator scale 1: needed for 168 MHz (STM32F405)
}  // namespace pwr

// --- GPIO, ports at 0x4002 0000 + 0x400 * port (Table 1; registers §8.4) ---
namespace gpio {
constexpr std::uint32_t base(unsigned port) { return 0x40020000u + 0x400u * port; }  // A = 0
constexpr std::uint32_t MODER = 0x00u;    // §8.4.1: 2 bits per pin, 01 output, 10 alternate
constexpr std::uint32_t OTYPER = 0x04u;   // §8.4.2
constexpr std::uint32_t OSPEEDR = 0x08u;  // §8.4.3
constexpr std::uint32_t PUPDR = 0x0Cu;    // §8.4.4
constexpr std::uint32_t IDR = 0x10u;      // §8.4.5
constexpr std::uint32_t ODR = 0x14u;      // §8.4.6
constexpr std::uint32_t BSRR = 0x18u;     // §8.4.7: set [15:0], reset [31:16]
constexpr std::uint32_t AFRL = 0x20u;     // §8.4.9: pins 0-7, 4 bits each
constexpr std::uint32_t AFRH = 0x24u;     // §8.4.10: pins 8-15
constexpr unsigned PORT_A = 0, PORT_D = 3;
}  // namespace gpio

// --- USART1, base 0x4001 1000 (Table 1; registers §30.6) ---
namespace usart1 {
constexpr std::uint32_t BASE = 0x40011000u;
constexpr std::uint32_t SR = BASE + 0x00u;  // status, §30.6.1
constexpr std::uint32_t SR_RXNE = 1u << 5;
constexpr std::uint32_t SR_TC = 1u << 6;
constexpr std::uint32_t SR_TXE = 1u << 7;
constexpr std::uint32_t DR = BASE + 0x04u;   // data, §30.6.2
constexpr std::uint32_t BRR = BASE + 0x08u;  // baud rate, §30.6.3 (mantissa.fraction /16)
constexpr std::uint32_t CR1 = BASE + 0x0Cu;  // control 1, §30.6.4
constexpr std::uint32_t CR1_RE = 1u << 2;
constexpr std::uint32_t CR1_TE = 1u << 3;
constexpr std::uint32_t CR1_RXNEIE = 1u << 5;
constexpr std::uint32_t CR1_UE = 1u << 13;
constexpr unsigned IRQ = 37;  // vector table position, §12.2 Table 62
}  // namespace usart1

// --- General-purpose timers TIM2..TIM5 (32-bit TIM2/TIM5), registers §18.4 ---
namespace tim {
constexpr std::uint32_t TIM2 = 0x40000000u;  // Table 1
constexpr std::uint32_t TIM3 = 0x40000400u;
constexpr std::uint32_t TIM4 = 0x40000800u;
constexpr std::uint32_t TIM5 = 0x40000C00u;
constexpr std::uint32_t CR1 = 0x00u;  // §18.4.1
constexpr std::uint32_t CR1_CEN = 1u << 0;
constexpr std::uint32_t CR1_URS = 1u << 2;  // only overflow raises the update interrupt
constexpr std::uint32_t CR1_ARPE = 1u << 7;
constexpr std::uint32_t DIER = 0x0Cu;  // §18.4.4
constexpr std::uint32_t DIER_UIE = 1u << 0;
constexpr std::uint32_t SR = 0x10u;  // §18.4.5 (rc_w0: write 0 to clear)
constexpr std::uint32_t SR_UIF = 1u << 0;
constexpr std::uint32_t EGR = 0x14u;  // §18.4.6
constexpr std::uint32_t EGR_UG = 1u << 0;
constexpr std::uint32_t CCMR1 = 0x18u;  // §18.4.7: OC1M [6:4] (110 = PWM mode 1), OC1PE [3]
constexpr std::uint32_t CCER = 0x20u;   // §18.4.9: CC1E [0]
constexpr std::uint32_t CNT = 0x24u;    // §18.4.10
constexpr std::uint32_t PSC = 0x28u;    // §18.4.11
constexpr std::uint32_t ARR = 0x2Cu;    // §18.4.12
constexpr std::uint32_t CCR1 = 0x34u;   // §18.4.13
constexpr unsigned TIM2_IRQ = 28;       // §12.2 Table 62
constexpr unsigned TIM4_IRQ = 30;
}  // namespace tim

}  // namespace attractor::stm32f405
