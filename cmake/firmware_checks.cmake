# SPDX-License-Identifier: Apache-2.0
# Checks over every firmware image of this build (included after all of them are declared):
#  - noheap.<elf> (declared by attractor_add_firmware): the ELF has no allocator symbol;
#  - noheap.checker_detects_new: the checker itself fails on an object that calls new;
#  - noheap.link_fails_on_malloc: an image that calls malloc does not link, and the linker's
#    message names the rule and its doc (cmake/cortex-m.ld.in: _sbrk);
#  - the `footprint` target prints flash/RAM and worst-case stack of each image.
get_property(_fw GLOBAL PROPERTY ATTRACTOR_FIRMWARE_TARGETS)
# The checker must be able to fail: an object file that uses operator new.
add_library(heap_canary STATIC EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/host-tests/target/heap_canary.cpp)
add_test(NAME noheap.build_canary
         COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target heap_canary)
add_test(NAME noheap.checker_detects_new
         COMMAND ${CMAKE_COMMAND} -DNM=${ARM_NM} -DFILE=$<TARGET_FILE:heap_canary>
                 -P ${CMAKE_SOURCE_DIR}/cmake/check_no_heap.cmake)
set_tests_properties(noheap.checker_detects_new PROPERTIES WILL_FAIL TRUE
                     DEPENDS noheap.build_canary LABELS "noheap")

# And the link itself must refuse an allocation: no _sbrk is provided anywhere, and the
# linker script turns the request for one into a message that names docs/no-heap.md.
list(GET ATTRACTOR_BOARDS 0 _first_board)
add_executable(heap_canary_image EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/host-tests/target/heap_canary_main.cpp)
target_link_libraries(heap_canary_image PRIVATE board.${_first_board} heap_canary)
add_test(NAME noheap.link_fails_on_malloc
         COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target heap_canary_image)
# Passes only when the link fails for the right reason.
set_tests_properties(noheap.link_fails_on_malloc PROPERTIES
                     PASS_REGULAR_EXPRESSION "undefined symbol `NO_HEAP_IN_FIRMWARE__[a-z_]*see_docs_no_heap_md'"
                     DEPENDS noheap.checker_detects_new LABELS "noheap")

set(_elfs "")
foreach(_t IN LISTS _fw)
  list(APPEND _elfs $<TARGET_FILE:${_t}>)
endforeach()
find_program(DEBIAN_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
add_custom_target(footprint
  COMMAND ${DEBIAN_PYTHON3} ${CMAKE_SOURCE_DIR}/scripts/footprint.py --size ${ARM_SIZE}
          --objdir ${CMAKE_BINARY_DIR} ${_elfs}
  DEPENDS ${_fw} VERBATIM USES_TERMINAL)

# A crash must fail fast instead of hanging CTest: a hard-float image on the FPU-less M3
# would take a NOCP fault at its first FP instruction; since boards/common/identity.cpp the
# image stops before that, at start-up, naming the board it was built for and the CPUID it
# found (the NOCP path itself: target.<board>.rt_fault_nocp).
if(ATTRACTOR_CPU STREQUAL "m4f" AND TARGET integrators.mps2-an386)
  attractor_qemu_command(_cmd mps2-an386 $<TARGET_FILE:integrators.mps2-an386> MACHINE mps2-an385)
  add_test(NAME target.fault_handler_reports_nocp COMMAND ${_cmd})
  set_tests_properties(target.fault_handler_reports_nocp PROPERTIES TIMEOUT 30
                       PASS_REGULAR_EXPRESSION "BOARD MISMATCH: image built for mps2-an386 [^\n]*running on CPUID 0x410fc231" LABELS "target")
endif()

# An image on another board's model stops at start-up with "BOARD MISMATCH" instead of running
# with wrong peripherals and wrong costs (boards/common/identity.cpp): an mps2-an386 image on
# the STM32F405 model (same M4 core, other board). The reverse cannot start at all: an STM32
# image's vector table sits at 0x08000000, unmapped on the mps2 models (QEMU: lockup at reset).
if(ATTRACTOR_CPU STREQUAL "m4f" AND TARGET integrators.mps2-an386 AND TARGET integrators.netduinoplus2)
  attractor_qemu_command(_cmd mps2-an386 $<TARGET_FILE:integrators.mps2-an386> MACHINE netduinoplus2)
  add_test(NAME target.identity_mps2_image_on_stm32 COMMAND ${_cmd})
  set_tests_properties(target.identity_mps2_image_on_stm32 PROPERTIES TIMEOUT 30
                       PASS_REGULAR_EXPRESSION "BOARD MISMATCH" LABELS "target")
endif()

# A user's firmware project outside this tree (docs/starter-firmware/), built the two supported
# ways and run in QEMU: against the installed package (find_package(Attractor)) and against
# this source tree (add_subdirectory). Each configures, builds one image (board library +
# main.cpp), runs its no-heap check and the image; passes when the image says UPRIGHT (it
# prints that only on its exit code 0). Once per firmware build is enough: the M4F build.
if(ATTRACTOR_CPU STREQUAL "m4f" AND TARGET board.mps2-an386)
  set(_st ${CMAKE_BINARY_DIR}/starter)
  set(_st_src ${CMAKE_SOURCE_DIR}/docs/starter-firmware)
  set(_st_run "${CMAKE_COMMAND} --build @B@ --target starter.mps2-an386 && ctest --test-dir @B@ -R noheap.starter.mps2-an386 --output-on-failure && @B@/run/starter.mps2-an386.sh")
  string(REPLACE "@B@" "${_st}/fp" _run_fp "${_st_run}")
  string(REPLACE "@B@" "${_st}/sub" _run_sub "${_st_run}")
  add_test(NAME starter.find_package COMMAND sh -c
           "${CMAKE_COMMAND} -E rm -rf ${_st}/prefix ${_st}/fp && ${CMAKE_COMMAND} --install ${CMAKE_BINARY_DIR} --prefix ${_st}/prefix --component Unspecified && ${CMAKE_COMMAND} -S ${_st_src} -B ${_st}/fp -DCMAKE_PREFIX_PATH=${_st}/prefix -DATTRACTOR_CPU=m4f -DCMAKE_TOOLCHAIN_FILE=${_st}/prefix/share/attractor/cmake/arm-none-eabi.cmake && ${_run_fp}")
  add_test(NAME starter.add_subdirectory COMMAND sh -c
           "${CMAKE_COMMAND} -E rm -rf ${_st}/sub && ${CMAKE_COMMAND} -S ${_st_src} -B ${_st}/sub -DATTRACTOR_SOURCE_DIR=${CMAKE_SOURCE_DIR} -DATTRACTOR_CPU=m4f -DCMAKE_TOOLCHAIN_FILE=${CMAKE_SOURCE_DIR}/cmake/arm-none-eabi.cmake && ${_run_sub}")
  set_tests_properties(starter.find_package starter.add_subdirectory PROPERTIES
                       TIMEOUT 300 LABELS "target;starter"
                       PASS_REGULAR_EXPRESSION "starter [(]Attractor ${PROJECT_VERSION}[)] on mps2-an386: [^\n]*\n(.|\n)*starter: UPRIGHT")
endif()
