# SPDX-License-Identifier: Apache-2.0
# --version prints the project version (CMakeLists.txt, attractor/version.hpp): every tool, and a
# command of the Spec layer.
string(REPLACE "." "[.]" _v ${PROJECT_VERSION})
foreach(_tool attractor-paper attractor-sim attractor-wire-reference)
  add_test(NAME tools.${_tool}_version COMMAND ${_tool} --version)
  set_tests_properties(tools.${_tool}_version PROPERTIES LABELS host PASS_REGULAR_EXPRESSION "^${_tool} ${_v}\n$")
endforeach()
# attractor-hil is one command of the Spec layer.
add_test(NAME tools.attractor-hil_version COMMAND attractor-hil --version)
set_tests_properties(tools.attractor-hil_version PROPERTIES LABELS host PASS_REGULAR_EXPRESSION "^attractor-hil: Attractor ${_v}\n$")
add_test(NAME tools.sim_command_version COMMAND attractor-sim skate --version)
set_tests_properties(tools.sim_command_version PROPERTIES LABELS host PASS_REGULAR_EXPRESSION "^skate: Attractor ${_v}\n$")
