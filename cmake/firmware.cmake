# SPDX-License-Identifier: Apache-2.0
# Firmware build support: board discovery and the two functions apps and on-target tests use.
#
#   attractor_add_firmware(NAME <name> SOURCES <src...> [LIBRARIES <lib...>] [BOARDS <b...>]
#                          [REQUIRES <capability...>] [LINE_TABLES] [EXCLUDE_FROM_ALL])
#       one ELF per board of this core: <name>.<board>.elf, from objects compiled once per core
#       (target <name>.objs: put include directories or definitions there). REQUIRES: only
#       for the boards whose BOARD_CAPABILITIES list every one of them, and the objects see
#       those members in attractor::board::Board (ATTRACTOR_BOARD_HAS_<CAPABILITY>).
#       LINE_TABLES: debug info -g1 (lines only) instead of -g; target tests always have it.
#       EXCLUDE_FROM_ALL: built only when asked for (--target); its no-heap check then runs as
#       part of its link instead of as a CTest, which would find no image to read.
#   attractor_add_target_test(NAME <name> SOURCES <src...> [LIBRARIES ...] [TIMEOUT s]
#                             [REQUIRES ...])
#       the same, plus a CTest "target.<board>.<name>" that runs the image in qemu-system-arm;
#       the image reports pass/fail through its semihosting exit code.
#
# Every image of a board that exists as hardware (BOARD_FLASH_ADDRESS in its board.cmake) also
# gets a flash target, in this tree and in a user's project alike:
#   cmake --build <dir> --target flash-<name>.<board>      e.g. flash-starter.netduinoplus2
# with -DATTRACTOR_FLASH_TOOL=openocd (default; Debian package openocd) or st-flash (Debian
# package stlink-tools). Neither is needed to configure, build or test: a missing tool only
# makes the flash target fail with a message. -DATTRACTOR_HSE_HZ=<Hz> sets the board's crystal
# (netduinoplus2: default 8 MHz, the STM32F4-Discovery; 12000000 for the Feather STM32F405).
# docs/boards.md has the procedure for real boards.
#
# A board is a folder boards/<board>/ with a board.cmake (its data: cores it runs, QEMU
# machine, memory map, stack size, optional capabilities) and its sources. ATTRACTOR_BOARDS
# lists the boards whose core matches ATTRACTOR_CPU.
#
# The same file serves this repository's own build and a user's firmware project: through
# find_package(Attractor) (lib/AttractorConfig.cmake.in, after `cmake --install`) or
# add_subdirectory(<attractor>) (CMakeLists.txt). Paths are relative to this file, so the
# installed copy (<prefix>/share/attractor/{cmake,boards}) finds the installed boards; the
# variables the functions read are global (CACHE INTERNAL) so they work from any directory.
# attractor_add_board_libraries() declares board_api and one board.<board> per board.
find_program(QEMU_SYSTEM_ARM qemu-system-arm)
add_compile_definitions(EIGEN_NO_MALLOC)
# Warnings as on the host (cmake/host.cmake): every firmware source builds clean on every core.
add_compile_options(-Wall -Wextra -Werror)
find_program(ARM_NM arm-none-eabi-nm REQUIRED)
find_program(ARM_SIZE arm-none-eabi-size REQUIRED)
find_program(ARM_OBJCOPY arm-none-eabi-objcopy)
find_program(OPENOCD openocd)
find_program(ST_FLASH st-flash)
set(ATTRACTOR_FLASH_TOOL "openocd" CACHE STRING "Flash programmer: openocd or st-flash")
set_property(CACHE ATTRACTOR_FLASH_TOOL PROPERTY STRINGS openocd st-flash)
if(NOT ATTRACTOR_FLASH_TOOL MATCHES "^(openocd|st-flash)$")
  message(FATAL_ERROR "ATTRACTOR_FLASH_TOOL is openocd or st-flash, not '${ATTRACTOR_FLASH_TOOL}'")
endif()
set(ATTRACTOR_HSE_HZ "" CACHE STRING "The board's HSE crystal [Hz] (netduinoplus2; empty: the board's default)")
if(NOT ATTRACTOR_HSE_HZ STREQUAL "" AND NOT ATTRACTOR_HSE_HZ MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "ATTRACTOR_HSE_HZ is a frequency in Hz (e.g. 12000000), not '${ATTRACTOR_HSE_HZ}'")
endif()

get_filename_component(_attractor_cmake_dir "${CMAKE_CURRENT_LIST_DIR}" ABSOLUTE)
get_filename_component(_attractor_boards_dir "${CMAKE_CURRENT_LIST_DIR}/../boards" ABSOLUTE)
set(ATTRACTOR_CMAKE_DIR ${_attractor_cmake_dir} CACHE INTERNAL "Attractor's cmake/ folder")
set(ATTRACTOR_BOARDS_DIR ${_attractor_boards_dir} CACHE INTERNAL "Attractor's boards/ folder")
set(ATTRACTOR_BOARDS "")
file(GLOB _board_files ${ATTRACTOR_BOARDS_DIR}/*/board.cmake)
foreach(_bf IN LISTS _board_files)
  get_filename_component(_bdir ${_bf} DIRECTORY)
  get_filename_component(_b ${_bdir} NAME)
  unset(BOARD_CPUS)
  include(${_bf})
  if(ATTRACTOR_CPU IN_LIST BOARD_CPUS)
    list(APPEND ATTRACTOR_BOARDS ${_b})
  endif()
endforeach()
list(SORT ATTRACTOR_BOARDS)
list(JOIN ATTRACTOR_BOARDS "|" _attractor_boards_regex)
set(ATTRACTOR_BOARDS ${ATTRACTOR_BOARDS} CACHE INTERNAL "boards of core ${ATTRACTOR_CPU}")
set(_attractor_boards_regex ${_attractor_boards_regex} CACHE INTERNAL "")
message(STATUS "Attractor firmware: core ${ATTRACTOR_CPU}, boards: ${ATTRACTOR_BOARDS}")

# Read one board's data into BOARD_* variables of the caller's scope.
macro(attractor_load_board _board)
  unset(BOARD_CPUS)
  unset(BOARD_QEMU_MACHINE)
  unset(BOARD_QEMU_ARGS)
  unset(BOARD_CAPABILITIES)
  include(${ATTRACTOR_BOARDS_DIR}/${_board}/board.cmake)
endmacro()

# Optional board capabilities (boards/common/include/attractor/board/board.hpp).
set(ATTRACTOR_BOARD_CAPABILITIES uart uart_rx_wait led actuators core_clock tick_rate CACHE INTERNAL "")

# The board interface apps compile against (boards/common/include: app code is compiled once
# per core and linked once per board) and one static library per board of this core:
# board.<name> (start-up, linker script, drivers). Called once per build.
function(attractor_add_board_libraries)
  if(TARGET board_api)
    return()
  endif()
  set(_dir ${ATTRACTOR_BOARDS_DIR})
  add_library(board_api INTERFACE)
  target_include_directories(board_api INTERFACE ${_dir}/common/include)
  target_link_libraries(board_api INTERFACE attractor::attractor)
  target_compile_definitions(board_api INTERFACE EIGEN_NO_MALLOC)
  foreach(_b IN LISTS ATTRACTOR_BOARDS)
    attractor_load_board(${_b})
    set(BOARD ${_b})
    set(_ld ${CMAKE_BINARY_DIR}/attractor-boards/${_b}.ld)
    configure_file(${ATTRACTOR_CMAKE_DIR}/cortex-m.ld.in ${_ld} @ONLY)
    list(TRANSFORM BOARD_SOURCES PREPEND ${_dir}/${_b}/)
    add_library(board.${_b} STATIC
      ${_dir}/common/startup.cpp ${_dir}/common/fault.cpp ${_dir}/common/identity.cpp
      ${_dir}/common/semihosting.cpp ${BOARD_SOURCES})
    target_include_directories(board.${_b} PUBLIC ${_dir}/common/include ${_dir}/${_b})
    target_link_libraries(board.${_b} PUBLIC attractor::attractor)
    target_compile_definitions(board.${_b} PRIVATE
      ATTRACTOR_BOARD_NAME="${_b}" ATTRACTOR_SYSTICK_HZ=${BOARD_SYSTICK_HZ})
    # The board's own code may use its capabilities (identity.cpp: the UART).
    foreach(_c IN LISTS BOARD_CAPABILITIES)
      string(TOUPPER ${_c} _c)
      target_compile_definitions(board.${_b} PRIVATE ATTRACTOR_BOARD_CAP_${_c}=1)
    endforeach()
    if(NOT ATTRACTOR_HSE_HZ STREQUAL "")
      target_compile_definitions(board.${_b} PRIVATE ATTRACTOR_HSE_HZ=${ATTRACTOR_HSE_HZ}u)
    endif()
    target_link_options(board.${_b} INTERFACE -T${_ld})
    set_property(TARGET board.${_b} APPEND PROPERTY INTERFACE_LINK_DEPENDS ${_ld})
  endforeach()
endfunction()

# <out-var>: those of <boards...> that have every capability in <caps> (a ;-list).
function(attractor_boards_with _out _caps)
  foreach(_c IN LISTS _caps)
    if(NOT _c IN_LIST ATTRACTOR_BOARD_CAPABILITIES)
      message(FATAL_ERROR "unknown board capability '${_c}' (known: ${ATTRACTOR_BOARD_CAPABILITIES})")
    endif()
  endforeach()
  set(_keep "")
  foreach(_b IN LISTS ARGN)
    attractor_load_board(${_b})
    set(_ok TRUE)
    foreach(_c IN LISTS _caps)
      if(NOT _c IN_LIST BOARD_CAPABILITIES)
        set(_ok FALSE)
      endif()
    endforeach()
    if(_ok)
      list(APPEND _keep ${_b})
    endif()
  endforeach()
  set(${_out} ${_keep} PARENT_SCOPE)
endfunction()

function(attractor_add_firmware)
  cmake_parse_arguments(FW "LINE_TABLES;EXCLUDE_FROM_ALL" "NAME" "SOURCES;LIBRARIES;BOARDS;DEFINITIONS;REQUIRES" ${ARGN})
  if(NOT FW_BOARDS)
    set(FW_BOARDS ${ATTRACTOR_BOARDS})
  endif()
  # Boards named for another core are simply not built in this core's firmware build, nor
  # boards that lack a required capability.
  list(FILTER FW_BOARDS INCLUDE REGEX "^(${_attractor_boards_regex})$")
  attractor_boards_with(FW_BOARDS "${FW_REQUIRES}" ${FW_BOARDS})
  if(NOT FW_BOARDS)
    return()
  endif()
  # Compiled once for the core (<name>.objs), linked once per board (<name>.<board>.elf).
  set(_exclude "")
  if(FW_EXCLUDE_FROM_ALL)
    set(_exclude EXCLUDE_FROM_ALL)
  endif()
  add_library(${FW_NAME}.objs OBJECT ${_exclude} ${FW_SOURCES})
  target_link_libraries(${FW_NAME}.objs PUBLIC board_api ${FW_LIBRARIES})
  target_compile_definitions(${FW_NAME}.objs PRIVATE ${FW_DEFINITIONS})
  # LINE_TABLES (test images: run, not stepped through): -g1 keeps file:line for addr2line and
  # backtraces but no variable locations, which took a third of the bench's compile (the bench
  # image goes further: -g0, apps/bench/CMakeLists.txt). The code is the same; -g never changes it.
  if(FW_LINE_TABLES)
    target_compile_options(${FW_NAME}.objs PRIVATE -g1)
  endif()
  foreach(_c IN LISTS FW_REQUIRES)
    string(TOUPPER ${_c} _c)
    target_compile_definitions(${FW_NAME}.objs PRIVATE ATTRACTOR_BOARD_HAS_${_c}=1)
  endforeach()
  foreach(_b IN LISTS FW_BOARDS)
    set(_t ${FW_NAME}.${_b})
    add_executable(${_t} ${_exclude} $<TARGET_OBJECTS:${FW_NAME}.objs>)
    set_target_properties(${_t} PROPERTIES SUFFIX ".elf")
    target_link_libraries(${_t} PRIVATE board.${_b} ${FW_LIBRARIES})
    target_link_options(${_t} PRIVATE -Wl,-Map=$<TARGET_FILE_DIR:${_t}>/${_t}.map)
    set_property(GLOBAL APPEND PROPERTY ATTRACTOR_FIRMWARE_TARGETS ${_t})
    attractor_add_flash_target(${_t} ${_b})
    # noheap.<elf>: the image defines or references no allocator symbol (check_no_heap.cmake).
    set(_check ${CMAKE_COMMAND} -DNM=${ARM_NM} -DFILE=$<TARGET_FILE:${_t}>)
    set(_script -P ${ATTRACTOR_CMAKE_DIR}/check_no_heap.cmake)
    if(FW_EXCLUDE_FROM_ALL)
      add_custom_command(TARGET ${_t} POST_BUILD COMMAND ${_check} -DREMOVE_ON_FAILURE=ON ${_script} VERBATIM)
    else()
      add_test(NAME noheap.${_t} COMMAND ${_check} ${_script})
      set_tests_properties(noheap.${_t} PROPERTIES LABELS "noheap")
    endif()
    # <build>/run/<name>.<board>.sh runs the image in QEMU (used by scripts/run-main).
    attractor_qemu_command(_cmd ${_b} $<TARGET_FILE:${_t}>)
    list(JOIN _cmd " " _cmd)
    file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/run/${_t}.sh
         CONTENT "#!/bin/sh\n# Generated by cmake/firmware.cmake: runs ${_t} in QEMU.\nexec ${_cmd} \"$@\"\n"
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  endforeach()
endfunction()

# flash-<image> for an image of a board with BOARD_FLASH_ADDRESS (see the header).
function(attractor_add_flash_target _t _b)
  unset(BOARD_FLASH_ADDRESS)
  unset(BOARD_OPENOCD_CONFIG)
  attractor_load_board(${_b})
  if(NOT BOARD_FLASH_ADDRESS)
    return()
  endif()
  set(_elf $<TARGET_FILE:${_t}>)
  if(ATTRACTOR_FLASH_TOOL STREQUAL "st-flash" AND ST_FLASH)
    set(_cmd ${ARM_OBJCOPY} -O binary ${_elf} ${_elf}.bin COMMAND ${ST_FLASH} --reset write ${_elf}.bin
        ${BOARD_FLASH_ADDRESS})
  elseif(ATTRACTOR_FLASH_TOOL STREQUAL "st-flash")
    set(_cmd ${CMAKE_COMMAND} -E echo "st-flash not found: apt-get install stlink-tools" COMMAND ${CMAKE_COMMAND} -E false)
  elseif(OPENOCD)
    set(_cfg "")
    foreach(_f IN LISTS BOARD_OPENOCD_CONFIG)
      list(APPEND _cfg -f ${_f})
    endforeach()
    set(_cmd ${OPENOCD} ${_cfg} -c "program ${_elf} verify reset exit")
  else()
    set(_cmd ${CMAKE_COMMAND} -E echo "openocd not found: apt-get install openocd" COMMAND ${CMAKE_COMMAND} -E false)
  endif()
  add_custom_target(flash-${_t} COMMAND ${_cmd} DEPENDS ${_t} USES_TERMINAL VERBATIM)
endfunction()

# The QEMU command line that runs an image on a board (semihosting on, deterministic icount):
# the one definition every test, benchmark and scripts/run-main uses.
#   attractor_qemu_command(<out-var> <board> <elf> [MACHINE <qemu-machine>] [ARGS <word...>])
# MACHINE runs the image on another machine than the board's (e.g. a negative test). ARGS: the
# image's semihosting command line (SYS_GET_CMDLINE), after its name; no commas (QEMU syntax).
function(attractor_qemu_command _out _board _elf)
  cmake_parse_arguments(QC "" "MACHINE" "ARGS" ${ARGN})
  attractor_load_board(${_board})
  if(NOT QC_MACHINE)
    set(QC_MACHINE ${BOARD_QEMU_MACHINE})
  endif()
  set(_semihosting enable=on,target=native)
  if(QC_ARGS)
    list(PREPEND QC_ARGS image)
    list(TRANSFORM QC_ARGS PREPEND ",arg=")
    list(JOIN QC_ARGS "" _args)
    string(APPEND _semihosting ${_args})
  endif()
  set(${_out} ${QEMU_SYSTEM_ARM} -M ${QC_MACHINE} ${BOARD_QEMU_ARGS}
      -display none -monitor none -serial none
      -semihosting-config ${_semihosting}
      -icount shift=0,align=off,sleep=off
      -kernel ${_elf} PARENT_SCOPE)
endfunction()

function(attractor_add_target_test)
  cmake_parse_arguments(TT "" "NAME;TIMEOUT" "SOURCES;LIBRARIES;BOARDS;DEFINITIONS;REQUIRES" ${ARGN})
  if(NOT TT_TIMEOUT)
    set(TT_TIMEOUT 300)
  endif()
  if(NOT TT_BOARDS)
    set(TT_BOARDS ${ATTRACTOR_BOARDS})
  endif()
  list(FILTER TT_BOARDS INCLUDE REGEX "^(${_attractor_boards_regex})$")
  attractor_boards_with(TT_BOARDS "${TT_REQUIRES}" ${TT_BOARDS})
  if(NOT TT_BOARDS)
    return()
  endif()
  attractor_add_firmware(NAME ${TT_NAME} LINE_TABLES SOURCES ${TT_SOURCES} LIBRARIES ${TT_LIBRARIES}
                         BOARDS ${TT_BOARDS} DEFINITIONS ${TT_DEFINITIONS}
                         REQUIRES ${TT_REQUIRES})
  foreach(_b IN LISTS TT_BOARDS)
    attractor_qemu_command(_cmd ${_b} $<TARGET_FILE:${TT_NAME}.${_b}>)
    add_test(NAME target.${_b}.${TT_NAME} COMMAND ${_cmd})
    # A QEMU device warning means a peripheral was programmed wrongly (e.g. a zero reload).
    set_tests_properties(target.${_b}.${TT_NAME} PROPERTIES TIMEOUT ${TT_TIMEOUT}
                         LABELS "target;${_b}"
                         FAIL_REGULAR_EXPRESSION "Timer with (delta|period) zero")
  endforeach()
endfunction()

# attractor_add_model (model.cmake): a header generated from a model description at build time.
include(${CMAKE_CURRENT_LIST_DIR}/model.cmake)
