# SPDX-License-Identifier: Apache-2.0
# Flash targets for boards that exist as real hardware (include AFTER apps/ and the target
# tests, like firmware_checks, since it walks the ATTRACTOR_FIRMWARE_TARGETS property).
#
#   cmake --build <dir> --target flash-<image>.<board>     e.g. flash-skate-rotor.netduinoplus2
#
# A board opts in with BOARD_FLASH_ADDRESS and BOARD_OPENOCD_CONFIG in its board.cmake.
# Tool: -DATTRACTOR_FLASH_TOOL=openocd (default; Debian package 'openocd') or st-flash
# (Debian package 'stlink-tools'). Neither is needed to configure, build or test: a missing
# tool only makes the flash target itself fail with a message. docs/boards.md has the
# procedure for real STM32F405/F407 boards.
set(ATTRACTOR_FLASH_TOOL "openocd" CACHE STRING "Flash programmer: openocd or st-flash")
set_property(CACHE ATTRACTOR_FLASH_TOOL PROPERTY STRINGS openocd st-flash)
find_program(OPENOCD openocd)
find_program(ST_FLASH st-flash)
find_program(ARM_OBJCOPY arm-none-eabi-objcopy)

get_property(_fw GLOBAL PROPERTY ATTRACTOR_FIRMWARE_TARGETS)
foreach(_t IN LISTS _fw)
  string(REGEX REPLACE "^.*\\.([^.]+)$" "\\1" _b "${_t}")
  unset(BOARD_FLASH_ADDRESS)
  unset(BOARD_OPENOCD_CONFIG)
  attractor_load_board(${_b})
  if(NOT BOARD_FLASH_ADDRESS)
    continue()
  endif()
  set(_elf $<TARGET_FILE:${_t}>)
  if(ATTRACTOR_FLASH_TOOL STREQUAL "st-flash")
    if(ST_FLASH)
      set(_cmd ${ARM_OBJCOPY} -O binary ${_elf} ${_elf}.bin
          COMMAND ${ST_FLASH} --reset write ${_elf}.bin ${BOARD_FLASH_ADDRESS})
    else()
      set(_cmd ${CMAKE_COMMAND} -E echo "st-flash not found: apt-get install stlink-tools"
          COMMAND ${CMAKE_COMMAND} -E false)
    endif()
  else()
    if(OPENOCD)
      set(_cfg "")
      foreach(_f IN LISTS BOARD_OPENOCD_CONFIG)
        list(APPEND _cfg -f ${_f})
      endforeach()
      set(_cmd ${OPENOCD} ${_cfg} -c "program ${_elf} verify reset exit")
    else()
      set(_cmd ${CMAKE_COMMAND} -E echo "openocd not found: apt-get install openocd"
          COMMAND ${CMAKE_COMMAND} -E false)
    endif()
  endif()
  add_custom_target(flash-${_t} COMMAND ${_cmd} DEPENDS ${_t} USES_TERMINAL VERBATIM)
endforeach()
