// SPDX-License-Identifier: Apache-2.0
#include "no_alloc.hpp"

#include <Eigen/Core>
#include <cstdio>
#include <cstdlib>
#include <new>

namespace {
thread_local int g_forbidden = 0;
long g_count = 0;

void* allocate(std::size_t n) {
  ++g_count;
  if (g_forbidden > 0) {
    std::fputs("NoAllocGuard: operator new called inside a no-allocation region\n", stderr);
    std::abort();
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace attractor::test {

NoAllocGuard::NoAllocGuard() {
  ++g_forbidden;
  Eigen::internal::set_is_malloc_allowed(false);
}

NoAllocGuard::~NoAllocGuard() {
  if (--g_forbidden == 0) Eigen::internal::set_is_malloc_allowed(true);
}

long allocation_count() { return g_count; }

}  // namespace attractor::test
