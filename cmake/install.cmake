# SPDX-License-Identifier: Apache-2.0
# `cmake --install` puts beside the header library (lib/CMakeLists.txt) what a project outside
# this tree needs, under <prefix>/share/attractor/: cmake/ (toolchain file, firmware.cmake with
# attractor_add_firmware, the linker script template, the no-heap checker, tools.cmake with
# attractor_add_simulator and attractor_add_conformance_test) and boards/ (start-up, drivers,
# board data); and the host tools' headers: <prefix>/include/attractor-tools/ (attractor-sim's
# driver), <prefix>/include/attractor-testing/ (the conformance harness; its allocation counter
# source in share/attractor/testing/). AttractorConfig.cmake includes firmware.cmake when the
# consumer cross-compiles with that toolchain file (docs/starter-firmware/), tools.cmake
# otherwise (docs/starter-system/); both include model.cmake (attractor_add_model, with the model
# compiler in share/attractor/model/: docs/starter-model/).
include(GNUInstallDirs)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake ${CMAKE_CURRENT_LIST_DIR}/firmware.cmake
              ${CMAKE_CURRENT_LIST_DIR}/cortex-m.ld.in ${CMAKE_CURRENT_LIST_DIR}/check_no_heap.cmake
              ${CMAKE_CURRENT_LIST_DIR}/tools.cmake ${CMAKE_CURRENT_LIST_DIR}/model.cmake
        DESTINATION ${CMAKE_INSTALL_DATADIR}/attractor/cmake)
# The model compiler behind attractor_add_model (model.cmake): share/attractor/model/.
install(PROGRAMS ${CMAKE_CURRENT_LIST_DIR}/../scripts/attractor-model DESTINATION ${CMAKE_INSTALL_DATADIR}/attractor/model)
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../scripts/model_compiler/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/attractor/model/model_compiler FILES_MATCHING PATTERN "*.py")
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../boards/ DESTINATION ${CMAKE_INSTALL_DATADIR}/attractor/boards
        PATTERN CMakeLists.txt EXCLUDE)
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../hil/cli/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/attractor-tools
        FILES_MATCHING PATTERN "*.hpp")
set(_support ${CMAKE_CURRENT_LIST_DIR}/../host-tests/support)
install(FILES ${_support}/conformance.hpp ${_support}/no_alloc.hpp ${_support}/numeric_jacobian.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/attractor-testing)
install(FILES ${_support}/no_alloc.cpp DESTINATION ${CMAKE_INSTALL_DATADIR}/attractor/testing)
