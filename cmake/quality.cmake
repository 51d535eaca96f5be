# SPDX-License-Identifier: Apache-2.0
# Code-quality checks of the whole tree, run by CTest when the tools exist:
#   tools.tidy_lib_headers   clang-tidy (.clang-tidy) on one TU that includes every library header
#   tools.format_check       scripts/format --check: every C++ file already formatted (.clang-format)
find_program(ATTRACTOR_CLANG_TIDY NAMES clang-tidy-14 clang-tidy)
find_program(ATTRACTOR_CLANG_FORMAT NAMES clang-format-14 clang-format)
if(ATTRACTOR_CLANG_TIDY)
  file(GLOB_RECURSE _lib_headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/lib/include
       ${PROJECT_SOURCE_DIR}/lib/include/attractor/*.hpp)
  list(SORT _lib_headers)
  set(_tu "// generated: every library header, for clang-tidy\n")
  foreach(h IN LISTS _lib_headers)
    string(APPEND _tu "#include \"${h}\"\n")
  endforeach()
  string(APPEND _tu "int main() { return 0; }\n")
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/tidy_all_headers.cpp "${_tu}")
  find_path(_eigen_dir Eigen/Core PATH_SUFFIXES eigen3)
  add_test(NAME tools.tidy_lib_headers
           COMMAND ${ATTRACTOR_CLANG_TIDY} --quiet --config-file=${PROJECT_SOURCE_DIR}/.clang-tidy
                   ${CMAKE_CURRENT_BINARY_DIR}/tidy_all_headers.cpp --
                   -std=c++17 -I${PROJECT_SOURCE_DIR}/lib/include -isystem ${_eigen_dir} -DEIGEN_NO_MALLOC)
  set_tests_properties(tools.tidy_lib_headers PROPERTIES LABELS "host;tidy" TIMEOUT 600 COST 20)
endif()
# The whole tree (every tracked C++ file under lib, apps, boards, host-tests, hil).
if(ATTRACTOR_CLANG_FORMAT)
  add_test(NAME tools.format_check COMMAND ${PROJECT_SOURCE_DIR}/scripts/format --check
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(tools.format_check PROPERTIES LABELS "host;format"
                       ENVIRONMENT "CLANG_FORMAT=${ATTRACTOR_CLANG_FORMAT}")
endif()

# tools.fuzz_short: configures host-tests/fuzz with clang (a separate build in <build>/fuzz),
# builds the libFuzzer targets (at -O0: host-tests/fuzz/CMakeLists.txt) and runs each for a few
# seconds from its seed corpus (4 s at most a target: the two option fuzzers reach that cap, the
# frame and text fuzzers finish their inputs in 1-3 s).
# Its sanitizer set is this build's (cmake/sanitizers.cmake): full when this build is full, else ON.
if(ATTRACTOR_CLANGXX)  # cmake/host.cmake
  set(_fuzz_san ON)
  if(ATTRACTOR_SANITIZE STREQUAL "full" OR ATTRACTOR_SANITIZE STREQUAL "FULL")
    set(_fuzz_san full)
  endif()
  add_test(NAME tools.fuzz_short
           COMMAND ${CMAKE_CTEST_COMMAND} --build-and-test ${PROJECT_SOURCE_DIR}/host-tests/fuzz
                   ${CMAKE_BINARY_DIR}/fuzz --build-generator ${CMAKE_GENERATOR} --build-noclean
                   --build-options -DCMAKE_CXX_COMPILER=${ATTRACTOR_CLANGXX} -DCMAKE_BUILD_TYPE=Debug
                   -DATTRACTOR_SANITIZE=${_fuzz_san} -DATTRACTOR_FUZZ_OPT=-O0 -DATTRACTOR_FUZZ_SECONDS=4
                   --test-command ${CMAKE_CTEST_COMMAND} --output-on-failure)
  set_tests_properties(tools.fuzz_short PROPERTIES LABELS "host;fuzz" TIMEOUT 900 COST 100)  # longest: start first
endif()
