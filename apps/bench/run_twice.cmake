# SPDX-License-Identifier: Apache-2.0
# Run the benchmark image twice (CMD: the QEMU command, '|'-separated) and require identical
# output and exit code 0. The output (semihosting, on QEMU's stderr) is echoed once.
string(REPLACE "|" ";" _cmd "${CMD}")
foreach(_i 1 2)
  execute_process(COMMAND ${_cmd} OUTPUT_VARIABLE _out${_i} ERROR_VARIABLE _err${_i}
                  RESULT_VARIABLE _rc${_i})
  if(NOT _rc${_i} EQUAL 0)
    message(FATAL_ERROR "run ${_i} exited with ${_rc${_i}}:\n${_out${_i}}${_err${_i}}")
  endif()
endforeach()
message("${_out1}${_err1}")
if(NOT "${_out1}${_err1}" STREQUAL "${_out2}${_err2}")
  message(FATAL_ERROR "the two runs differ:\n--- run 2 ---\n${_out2}${_err2}")
endif()
string(FIND "${_err1}" "instructions/step" _pos)
if(_pos EQUAL -1)
  message(FATAL_ERROR "no benchmark lines in the output")
endif()
message("identical in two runs")
