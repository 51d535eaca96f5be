# SPDX-License-Identifier: Apache-2.0
# The model compiler in your own project (docs/model-compiler.md), host or firmware:
#
#   attractor_add_model(<target> <description.toml> [HEADER <name.hpp>])
#       Generates <name.hpp> (default: the description's name with .hpp) from the description at
#       build time with scripts/attractor-model (Debian's python3 with python3-sympy), again
#       whenever the description changes, and adds its folder to <target>'s include path: the
#       target's sources `#include "<name.hpp>"`. A refused description fails the build with the
#       compiler's message, which names the description's line. Targets of one folder that name
#       the same description and header share one generation (one run of the compiler, one
#       header in <build folder>/attractor-model/<name>-<key>/).
#
# Included by tools.cmake and firmware.cmake (a checkout or an installed Attractor).
include_guard(GLOBAL)

if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/../scripts/attractor-model)  # a checkout
  get_filename_component(_attractor_model_dir ${CMAKE_CURRENT_LIST_DIR}/../scripts ABSOLUTE)
else()  # installed: <prefix>/share/attractor/model/
  get_filename_component(_attractor_model_dir ${CMAKE_CURRENT_LIST_DIR}/../model ABSOLUTE)
endif()
set(ATTRACTOR_MODEL_COMPILER ${_attractor_model_dir}/attractor-model CACHE INTERNAL "scripts/attractor-model")

function(attractor_add_model target description)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "HEADER" "")
  if(NOT TARGET ${target} OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "attractor_add_model(<existing target> <description.toml> [HEADER <name.hpp>])")
  endif()
  get_filename_component(description ${description} ABSOLUTE)
  if(NOT EXISTS ${description})
    message(FATAL_ERROR "attractor_add_model: ${description} does not exist")
  endif()
  if(NOT arg_HEADER)
    get_filename_component(arg_HEADER ${description} NAME_WE)
    set(arg_HEADER ${arg_HEADER}.hpp)
  endif()
  if(NOT DEFINED CACHE{ATTRACTOR_MODEL_PYTHON})
    find_program(ATTRACTOR_MODEL_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
    if(ATTRACTOR_MODEL_PYTHON)
      execute_process(COMMAND ${ATTRACTOR_MODEL_PYTHON} -c "import sympy, numpy, tomllib"
                      RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
    endif()
    if(NOT ATTRACTOR_MODEL_PYTHON OR NOT _rc EQUAL 0)
      unset(ATTRACTOR_MODEL_PYTHON CACHE)
      message(FATAL_ERROR "attractor_add_model: needs Debian's /usr/bin/python3 (3.11) with sympy and numpy "
                          "(Debian: apt install python3-sympy python3-numpy)")
    endif()
  endif()
  # One generation per (folder, description, header): the key names its folder and its target.
  string(SHA1 _key "${CMAKE_CURRENT_BINARY_DIR}|${description}|${arg_HEADER}")
  string(SUBSTRING ${_key} 0 12 _key)
  get_filename_component(_stem ${arg_HEADER} NAME_WE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/attractor-model/${_stem}-${_key})
  set(_gen_target attractor_model_${_key})
  if(NOT TARGET ${_gen_target})
    file(RELATIVE_PATH cite ${PROJECT_SOURCE_DIR} ${description})
    file(GLOB _compiler_sources ${_attractor_model_dir}/model_compiler/*.py)
    add_custom_command(OUTPUT ${dir}/${arg_HEADER}
                       COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
                       COMMAND ${ATTRACTOR_MODEL_PYTHON} ${ATTRACTOR_MODEL_COMPILER} ${description}
                               -o ${dir}/${arg_HEADER} --cite ${cite} --quiet
                       DEPENDS ${description} ${ATTRACTOR_MODEL_COMPILER} ${_compiler_sources}
                       COMMENT "attractor-model: ${cite} -> ${arg_HEADER}" VERBATIM)
    add_custom_target(${_gen_target} DEPENDS ${dir}/${arg_HEADER})
  endif()
  add_dependencies(${target} ${_gen_target})
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE ${dir})
  else()
    target_include_directories(${target} PRIVATE ${dir})
  endif()
endfunction()
