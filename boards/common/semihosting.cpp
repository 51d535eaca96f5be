// SPDX-License-Identifier: Apache-2.0
#include "attractor/board/semihosting.hpp"

namespace attractor::semihosting {
namespace {

// r0 = operation, r1 = argument block; the host answers in r0.
int call(int op, const void* arg) {
  register int r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

}  // namespace

void write0(const char* s) { call(0x04, s); }

bool present() { return call(0x31, nullptr) > 0; }  // SYS_TICKFREQ; -1 when nobody took the call

namespace {

// Host ticks since the start (SYS_ELAPSED: a 64-bit count in two words), or -1 when unsupported.
long long elapsed_ticks() {
  unsigned block[2] = {0u, 0u};
  return call(0x30, block) == 0 ? static_cast<long long>((static_cast<unsigned long long>(block[1]) << 32) | block[0])
                                : -1;
}

}  // namespace

void wait_host_ms(unsigned ms) {
  const int hz = call(0x31, nullptr);  // SYS_TICKFREQ
  const long long t0 = elapsed_ticks();
  if (hz <= 0 || t0 < 0) return;
  const long long end = t0 + static_cast<long long>(hz) / 1000 * ms;
  for (long long t = t0; t >= 0 && t < end; t = elapsed_ticks()) {
  }
}

void exit(int code) {
  const unsigned block[2] = {0x20026u, static_cast<unsigned>(code)};
  call(0x20, block);
  for (;;) __asm__ volatile("wfi");  // not reached under QEMU
}

}  // namespace attractor::semihosting
