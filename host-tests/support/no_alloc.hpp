// SPDX-License-Identifier: Apache-2.0
// Host-test guard: while a NoAllocGuard is alive, any operator new and any Eigen heap
// allocation aborts the test with a message. Tests wrap every integration step in one to
// prove the library's hot paths do not allocate (EIGEN_RUNTIME_NO_MALLOC is defined).
#pragma once

namespace attractor::test {

class NoAllocGuard {
 public:
  NoAllocGuard();
  ~NoAllocGuard();
  NoAllocGuard(const NoAllocGuard&) = delete;
  NoAllocGuard& operator=(const NoAllocGuard&) = delete;
};

// operator new calls since the program started (to assert a count did not change).
long allocation_count();

}  // namespace attractor::test
