# SPDX-License-Identifier: Apache-2.0
# `cmake --install` puts beside the header library (lib/CMakeLists.txt) what a firmware project
# outside this tree needs, under <prefix>/share/attractor/: cmake/ (toolchain file,
# firmware.cmake with attractor_add_firmware, the linker script template, the no-heap checker)
# and boards/ (start-up, drivers, board data). AttractorConfig.cmake includes firmware.cmake
# when the consumer cross-compiles with that toolchain file (docs/starter-firmware/).
include(GNUInstallDirs)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake ${CMAKE_CURRENT_LIST_DIR}/firmware.cmake
              ${CMAKE_CURRENT_LIST_DIR}/cortex-m.ld.in ${CMAKE_CURRENT_LIST_DIR}/check_no_heap.cmake
        DESTINATION ${CMAKE_INSTALL_DATADIR}/attractor/cmake)
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../boards/ DESTINATION ${CMAKE_INSTALL_DATADIR}/attractor/boards
        PATTERN CMakeLists.txt EXCLUDE)
