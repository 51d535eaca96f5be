# SPDX-License-Identifier: Apache-2.0
# Arm MPS2 FPGA image AN385, Cortex-M3, soft float (QEMU mps2-an385)
# Memory map from QEMU 7.2 'info mtree -f' (docs/boards.md, "QEMU facts") and the Arm
# application note: 4 MiB SSRAM1 at 0x0 (code), 4 MiB SSRAM2/3 at 0x20000000 (data).
set(BOARD_CPUS m3)
set(BOARD_QEMU_MACHINE mps2-an385)
set(BOARD_FLASH_ORIGIN 0x00000000)
set(BOARD_FLASH_LENGTH 4M)
set(BOARD_RAM_ORIGIN 0x20000000)
set(BOARD_RAM_LENGTH 4M)
set(BOARD_STACK_SIZE 0x8000)
set(BOARD_SYSTICK_HZ 25000000)   # SysTick reference clock under QEMU
set(BOARD_CAPABILITIES uart uart_rx_wait led core_clock tick_rate)   # optional board API (board.hpp)
set(BOARD_SOURCES board.cpp ../common/console_semihosting.cpp ../common/systick.cpp ../common/systick_board.cpp
                  ../common/cmsdk_idle_guard.cpp ../common/mps2_io.cpp ../common/cmsdk_uart_rx_wait.cpp
                  ../common/watchdog_cmsdk.cpp)
