# SPDX-License-Identifier: Apache-2.0
# Toolchain file for bare-metal Cortex-M with Debian's gcc-arm-none-eabi and newlib-nano.
# Select the core with -DATTRACTOR_CPU=m4f|m7|m3 (the presets do).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy)
set(CMAKE_SIZE arm-none-eabi-size)
set(CMAKE_NM arm-none-eabi-nm)
# Bare metal cannot link a test executable without startup code.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# A bare-metal platform ("Generic") has no system prefixes, so find_package would find the
# header-only Eigen only through a PATH entry that happens to end in /usr/bin: name the host's
# prefixes, where Debian's libeigen3-dev puts its package file.
list(APPEND CMAKE_SYSTEM_PREFIX_PATH /usr/local /usr)

set(ATTRACTOR_CPU "m4f" CACHE STRING "Cortex-M core: m4f (hard float), m7 (double FPU), m3 (soft float)")
set_property(CACHE ATTRACTOR_CPU PROPERTY STRINGS m4f m7 m3)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ATTRACTOR_CPU)

if(ATTRACTOR_CPU STREQUAL "m4f")
  set(_cpu "-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
elseif(ATTRACTOR_CPU STREQUAL "m7")
  set(_cpu "-mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard")
elseif(ATTRACTOR_CPU STREQUAL "m3")
  set(_cpu "-mcpu=cortex-m3 -mthumb -mfloat-abi=soft")
else()
  message(FATAL_ERROR "ATTRACTOR_CPU must be m4f, m7 or m3 (got '${ATTRACTOR_CPU}')")
endif()

# No exceptions/RTTI, sections for --gc-sections, no errno from math (sqrtf -> vsqrt.f32).
# -fsingle-precision-constant is deliberately NOT used: float literals carry an 'f'.
set(_common "${_cpu} -ffunction-sections -fdata-sections -fno-math-errno -fstack-usage -fcallgraph-info=su -fno-unwind-tables -fno-asynchronous-unwind-tables -Wdouble-promotion")
set(CMAKE_C_FLAGS_INIT "${_common}")
set(CMAKE_CXX_FLAGS_INIT "${_common} -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit")
set(CMAKE_ASM_FLAGS_INIT "${_cpu}")
# newlib-nano, our own startup, and no _sbrk provider: any malloc fails the link.
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_cpu} -nostartfiles --specs=nano.specs -Wl,--gc-sections -Wl,--no-warn-rwx-segments")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
