# SPDX-License-Identifier: Apache-2.0
# STM32F405RG (Cortex-M4F, 168 MHz), run in QEMU as 'netduinoplus2' and flashed to real
# STM32F405/F407 boards. RM0090 §2.3 (memory map): flash at 0x08000000 (1 MiB, aliased at 0
# when booting from flash), SRAM1+SRAM2 at 0x20000000 (112 + 16 KiB).
set(BOARD_CPUS m4f)
set(BOARD_QEMU_MACHINE netduinoplus2)
set(BOARD_FLASH_ORIGIN 0x08000000)
set(BOARD_FLASH_LENGTH 1M)
set(BOARD_RAM_ORIGIN 0x20000000)
set(BOARD_RAM_LENGTH 128K)
set(BOARD_STACK_SIZE 0x4000)
set(BOARD_SYSTICK_HZ 168000000)
set(BOARD_CAPABILITIES uart uart_rx_wait led actuators core_clock tick_rate)   # optional board API (board.hpp)
set(BOARD_SOURCES board.cpp tim4_idle_guard.cpp uart_rx_wait.cpp ../common/systick.cpp ../common/watchdog_stm32_iwdg.cpp)   # own console (USART1 or semihosting), tick (TIM2 or SysTick), TIM5/DWT cost clock
# Real hardware (flash targets: cmake/firmware.cmake, docs/boards.md): flash base (RM0090 §3.3 Table 5) and the
# OpenOCD scripts for an ST-LINK/V2 probe (Discovery boards have one on board).
set(BOARD_FLASH_ADDRESS 0x08000000)
set(BOARD_OPENOCD_CONFIG interface/stlink.cfg target/stm32f4x.cfg)
