# SPDX-License-Identifier: Apache-2.0
# cmake -DNM=arm-none-eabi-nm -DFILE=x.elf [-DREMOVE_ON_FAILURE=ON] -P check_no_heap.cmake
# Fails if FILE defines or references an allocator or exception-allocation symbol.
# REMOVE_ON_FAILURE (the check run as a link step): the failing image is deleted too, so that
# the next build links it again instead of finding it up to date.
execute_process(COMMAND ${NM} -C ${FILE} OUTPUT_VARIABLE _syms RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${FILE}")
endif()
set(_bad "")
string(REPLACE "\n" ";" _lines "${_syms}")
foreach(_l IN LISTS _lines)
  if(_l MATCHES " (malloc|_malloc_r|calloc|_calloc_r|realloc|_realloc_r|free|_free_r|_sbrk|_sbrk_r|__cxa_allocate_exception)$"
     OR _l MATCHES " operator (new|delete)")
    list(APPEND _bad "${_l}")
  endif()
endforeach()
if(_bad)
  if(REMOVE_ON_FAILURE)
    file(REMOVE ${FILE})
  endif()
  list(JOIN _bad "\n  " _msg)
  message(FATAL_ERROR "heap symbols in ${FILE}:\n  ${_msg}")
endif()
message(STATUS "no heap symbols in ${FILE}")
