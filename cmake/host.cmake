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
  # -g1 (line tables only; after CMake's -g, so it wins): sanitizer reports still name file and
  # line, but GCC skips variable tracking, which with ASan+UBSan on Eigen code dominated the
  # build — spherical_robot_model_test.cpp (GCC) took 353 s of CPU with -g and 118 s with -g1.
  add_compile_options(${ATTRACTOR_SANITIZER_FLAGS} -fno-omit-frame-pointer -g1)
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
find_package(GTest REQUIRED)
include(GoogleTest)
