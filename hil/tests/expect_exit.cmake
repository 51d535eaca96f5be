# SPDX-License-Identifier: Apache-2.0
# The CLI-rule tests' helper, included by hil/CMakeLists.txt before the per-command files:
# attractor_cli_test(name code regex [--not regex] -- command...) runs tests/expect_exit.sh, which
# checks the exit code (the table in hil/cli/exit_codes.hpp) and the message. Labels: host, cli.
set(_x ${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_exit.sh)
set(_cfg ${CMAKE_CURRENT_SOURCE_DIR}/tests/configs)
set(_tmp ${CMAKE_CURRENT_BINARY_DIR}/cli-test-tmp)
file(MAKE_DIRECTORY ${_tmp})
file(WRITE ${_tmp}/a_file "not a directory\n")
function(attractor_cli_test name code regex)
  add_test(NAME tools.cli.${name} COMMAND ${_x} ${code} ${regex} ${ARGN})
  set_tests_properties(tools.cli.${name} PROPERTIES LABELS "host;cli" TIMEOUT 900)
endfunction()
