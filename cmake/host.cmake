# SPDX-License-Identifier: Apache-2.0
# Host build: warnings as errors; sanitizers with -DATTRACTOR_SANITIZE=ON or full (cmake/sanitizers.cmake).
# compile_commands.json for clangd and clang-tidy (.clangd points at build/host).
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
include(${CMAKE_CURRENT_LIST_DIR}/sanitizers.cmake)
add_compile_options(-Wall -Wextra -Werror -Wno-error=deprecated-declarations)
# GCC 12 at -O2 reports Eigen's unaligned SSE loads of 3-float vectors as out of bounds
# (-Warray-bounds, a known false positive with fixed-size Eigen types); keep it visible, not fatal.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-Wno-error=array-bounds -Wno-error=stringop-overflow)
endif()
if(ATTRACTOR_SANITIZER_FLAGS)
  # -g0 (after CMake's -g, so it wins): no debug information in the sanitized test build. A
  # UBSan report still names file, line and column (the check's source location is compiled into
  # it), an ASan report names the functions of its stack (the symbol table); for a debugger,
  # configure the plain host preset. Debug information was ~9 % of a suite unit's compile with
  # line tables only (-g1: integrators_tests 23.5 against 21.3 CPU-s, side by side) and 3x that
  # with full -g under GCC (variable tracking on Eigen code).
  add_compile_options(${ATTRACTOR_SANITIZER_FLAGS} -fno-omit-frame-pointer -g0)
  add_link_options(${ATTRACTOR_SANITIZER_FLAGS})
endif()
# clang links with LLVM's lld (package lld, scripts/bootstrap) when it is installed: an ASan +
# UBSan test executable linked in 0.17 CPU-s instead of GNU ld's 0.78 (docs/testing.md, "How long
# the suite takes"); the executable runs the same tests.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  find_program(ATTRACTOR_LLD NAMES ld.lld)
  if(ATTRACTOR_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
# clang for the builds the suite makes outside this one (the fuzz targets, the starter's
# add_subdirectory build), whichever compiler this build uses.
find_program(ATTRACTOR_CLANGXX NAMES clang++-14 clang++)
find_package(GTest REQUIRED)
include(GoogleTest)
