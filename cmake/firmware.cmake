# Firmware build support: board discovery and the two functions apps and on-target tests use.
#
#   attractor_add_firmware(NAME <name> SOURCES <src...> [LIBRARIES <lib...>] [BOARDS <b...>])
#       one ELF per board of this core: <name>.<board>.elf, from objects compiled once per core
#       (target <name>.objs: put include directories or definitions there)
#   attractor_add_target_test(NAME <name> SOURCES <src...> [LIBRARIES ...] [TIMEOUT s])
#       the same, plus a CTest "target.<board>.<name>" that runs the image in qemu-system-arm;
#       the image reports pass/fail through its semihosting exit code.
#
# A board is a folder boards/<board>/ with a board.cmake (its data: cores it runs, QEMU
# machine, memory map, stack size) and its sources. ATTRACTOR_BOARDS lists the boards whose
# core matches ATTRACTOR_CPU.
find_program(QEMU_SYSTEM_ARM qemu-system-arm)
add_compile_definitions(EIGEN_NO_MALLOC)
find_program(ARM_NM arm-none-eabi-nm REQUIRED)
find_program(ARM_SIZE arm-none-eabi-size REQUIRED)

set(ATTRACTOR_BOARDS_DIR ${CMAKE_SOURCE_DIR}/boards)
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
message(STATUS "Attractor firmware: core ${ATTRACTOR_CPU}, boards: ${ATTRACTOR_BOARDS}")

# Read one board's data into BOARD_* variables of the caller's scope.
macro(attractor_load_board _board)
  unset(BOARD_CPUS)
  unset(BOARD_QEMU_MACHINE)
  unset(BOARD_QEMU_ARGS)
  include(${ATTRACTOR_BOARDS_DIR}/${_board}/board.cmake)
endmacro()

function(attractor_add_firmware)
  cmake_parse_arguments(FW "" "NAME" "SOURCES;LIBRARIES;BOARDS;DEFINITIONS" ${ARGN})
  if(NOT FW_BOARDS)
    set(FW_BOARDS ${ATTRACTOR_BOARDS})
  endif()
  # Boards named for another core are simply not built in this core's firmware build.
  list(FILTER FW_BOARDS INCLUDE REGEX "^(${_attractor_boards_regex})$")
  if(NOT FW_BOARDS)
    return()
  endif()
  # Compiled once for the core (<name>.objs), linked once per board (<name>.<board>.elf).
  add_library(${FW_NAME}.objs OBJECT ${FW_SOURCES})
  target_link_libraries(${FW_NAME}.objs PUBLIC board_api ${FW_LIBRARIES})
  target_compile_definitions(${FW_NAME}.objs PRIVATE ${FW_DEFINITIONS})
  foreach(_b IN LISTS FW_BOARDS)
    set(_t ${FW_NAME}.${_b})
    add_executable(${_t} $<TARGET_OBJECTS:${FW_NAME}.objs>)
    set_target_properties(${_t} PROPERTIES SUFFIX ".elf")
    target_link_libraries(${_t} PRIVATE board.${_b} ${FW_LIBRARIES})
    target_link_options(${_t} PRIVATE -Wl,-Map=$<TARGET_FILE_DIR:${_t}>/${_t}.map)
    set_property(GLOBAL APPEND PROPERTY ATTRACTOR_FIRMWARE_TARGETS ${_t})
  endforeach()
endfunction()

# The QEMU command line that runs an image on a board (semihosting on, deterministic icount).
function(attractor_qemu_command _out _board _elf)
  attractor_load_board(${_board})
  set(${_out} ${QEMU_SYSTEM_ARM} -M ${BOARD_QEMU_MACHINE} ${BOARD_QEMU_ARGS}
      -display none -monitor none -serial none
      -semihosting-config enable=on,target=native
      -icount shift=0,align=off,sleep=off
      -kernel ${_elf} PARENT_SCOPE)
endfunction()

function(attractor_add_target_test)
  cmake_parse_arguments(TT "" "NAME;TIMEOUT" "SOURCES;LIBRARIES;BOARDS;DEFINITIONS" ${ARGN})
  if(NOT TT_TIMEOUT)
    set(TT_TIMEOUT 300)
  endif()
  if(NOT TT_BOARDS)
    set(TT_BOARDS ${ATTRACTOR_BOARDS})
  endif()
  list(FILTER TT_BOARDS INCLUDE REGEX "^(${_attractor_boards_regex})$")
  attractor_add_firmware(NAME ${TT_NAME} SOURCES ${TT_SOURCES} LIBRARIES ${TT_LIBRARIES}
                         BOARDS ${TT_BOARDS} DEFINITIONS ${TT_DEFINITIONS})
  foreach(_b IN LISTS TT_BOARDS)
    attractor_qemu_command(_cmd ${_b} $<TARGET_FILE:${TT_NAME}.${_b}>)
    add_test(NAME target.${_b}.${TT_NAME} COMMAND ${_cmd})
    set_tests_properties(target.${_b}.${TT_NAME} PROPERTIES TIMEOUT ${TT_TIMEOUT}
                         LABELS "target;${_b}")
  endforeach()
endfunction()
