# SPDX-License-Identifier: Apache-2.0
# The host build's sanitizer flags, one definition for the main build (cmake/host.cmake) and the
# fuzz targets (host-tests/fuzz). ATTRACTOR_SANITIZE:
#   OFF   no sanitizers
#   ON    AddressSanitizer + UndefinedBehaviorSanitizer without the checks listed below: what CI
#         runs (preset host-asan)
#   full  AddressSanitizer + every UndefinedBehaviorSanitizer check (on demand)
# Every finding is fatal. float-cast-overflow is named because GCC's -fsanitize=undefined lacks it
# (clang's has it): a double beyond the range of the type it is converted to is undefined
# behaviour the tools must never reach.
#
# What ON leaves out, and why each is covered here (docs/testing.md, "Sanitizer checks"):
#   alignment          C++17 aligns every over-aligned object (stack, new, std::allocator); a
#                      misaligned Eigen object needs a pointer cast or a placement new into bytes,
#                      and lib/ has neither (the wire format is read byte by byte,
#                      link/byte_order.hpp). Eigen's own alignment assert is no substitute in
#                      host-asan: clang at -O1 (most suites) folds it away
#   null, object-size  a null or out-of-object access is a fault or an ASan report (redzones)
#   pointer-overflow   pointer arithmetic that wraps the address space: an out-of-object pointer
#                      that is dereferenced is an ASan report
#   vptr, function     lib/ has no virtual functions, RTTI or function-pointer casts; the host's
#                      two polymorphic interfaces (hil-run's ByteTap, a link test's Peer) are never
#                      downcast, and a call on a destroyed object is an ASan use-after-free
# These checks are the ones that keep Eigen's expressions from folding at -O1: without them a
# suite's compile drops by about a third and its run by several times.
set(ATTRACTOR_SANITIZE OFF CACHE STRING "Host sanitizers: OFF, ON (ASan + UBSan's reduced set, CI) or full (every UBSan check)")
set_property(CACHE ATTRACTOR_SANITIZE PROPERTY STRINGS OFF ON full)
set(ATTRACTOR_UBSAN_SKIPPED alignment null object-size pointer-overflow vptr)
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  list(APPEND ATTRACTOR_UBSAN_SKIPPED function)  # clang only (GCC has no such check)
endif()
string(TOUPPER "${ATTRACTOR_SANITIZE}" _san)
if(_san STREQUAL "FULL")
  set(ATTRACTOR_SANITIZER_FLAGS -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all)
elseif(ATTRACTOR_SANITIZE)
  list(JOIN ATTRACTOR_UBSAN_SKIPPED "," _skip)
  set(ATTRACTOR_SANITIZER_FLAGS -fsanitize=address,undefined,float-cast-overflow -fno-sanitize=${_skip}
                                -fno-sanitize-recover=all)
else()
  set(ATTRACTOR_SANITIZER_FLAGS "")
endif()
if(ATTRACTOR_SANITIZER_FLAGS AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  # Static initializers (GoogleTest's registrations) without ASan: sanitizer-ignorelist.txt.
  list(APPEND ATTRACTOR_SANITIZER_FLAGS -fsanitize-ignorelist=${CMAKE_CURRENT_LIST_DIR}/sanitizer-ignorelist.txt)
endif()
unset(_san)
unset(_skip)
