// SPDX-License-Identifier: Apache-2.0
// The HIL link's fast byte path under QEMU (attractor-hil --link semihost, scripts/soak): the
// same frames over two host FIFOs through semihosting SYS_READ/SYS_WRITE instead of UART0.
// Why: QEMU 7.2's CMSDK UART takes one byte per main-loop round trip (~4 host context switches
// per byte, ~100 frames/s); a SYS_READ of one byte is one trap in the vCPU thread that blocks in
// the host's read() until the byte is there, so the instructions executed do not depend on host
// timing either (measured: two runs give identical CSVs; 1100-4000 frames/s; docs/hil.md "Link
// rate"). Chosen by the host at start: the semihosting command line holds "hil-fifo=PREFIX"
// (QEMU -semihosting-config arg=...), and the FIFOs are PREFIX.in (host -> firmware) and
// PREFIX.out. Without it (UART runs, a board on a serial port) nothing changes. Any Cortex-M
// board under QEMU: the HIL apps pass it to link::run_hil_firmware as the alternative byte port.
// Semihosting: Arm "Semihosting for AArch32 and AArch64" v2, SYS_OPEN 0x01, SYS_WRITE 0x05,
// SYS_READ 0x06, SYS_GET_CMDLINE 0x15. The image already needs semihosting (console, exit).
#pragma once

#include <cstdint>

namespace attractor::board {

struct SemihostLink {
  static int call(int op, const void* arg) {
    register int r0 __asm__("r0") = op;
    register const void* r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
  }
  static std::uint32_t word(const void* p) { return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p)); }

  static inline int in = -1, out = -1;

  static bool active() { return in >= 0 && out >= 0; }

  // Once at start: opens the FIFOs when the command line names them; false (UART) otherwise.
  static bool open() {
    static char cmd[256], path[200];
    std::uint32_t get[2] = {word(cmd), sizeof cmd - 1};
    if (call(0x15, get) != 0) return false;
    cmd[sizeof cmd - 1] = '\0';
    static const char key[] = "hil-fifo=";
    const char* p = nullptr;
    for (const char* c = cmd; *c != '\0' && p == nullptr; ++c) {
      std::uint32_t k = 0;
      while (key[k] != '\0' && c[k] == key[k]) ++k;
      if (key[k] == '\0') p = c + k;
    }
    if (p == nullptr) return false;
    std::uint32_t n = 0;
    while (p[n] != '\0' && p[n] != ' ' && n + 5 < sizeof path) {
      path[n] = p[n];
      ++n;
    }
    // .out first: the host unlinks both names once it could open .in, and "w" on a missing name
    // would create a plain file.
    out = open_fifo(path, n, ".out", 4u);  // mode 4: "w"
    in = open_fifo(path, n, ".in", 0u);    // mode 0: "r"
    return active();
  }

  // One byte from the host (blocks in the host until it is there): true with a byte.
  static bool read(std::uint8_t& b) {
    const std::uint32_t blk[3] = {static_cast<std::uint32_t>(in), word(&b), 1u};
    return call(0x06, blk) == 0;  // SYS_READ answers the count not read
  }

  static void write(const std::uint8_t* d, std::uint32_t n) {
    const std::uint32_t blk[3] = {static_cast<std::uint32_t>(out), word(d), n};
    (void)call(0x05, blk);  // a lost host is seen by the host (no answer), not here
  }

 private:
  static int open_fifo(char* path, std::uint32_t n, const char* suffix, std::uint32_t mode) {
    std::uint32_t k = 0;
    for (; suffix[k] != '\0'; ++k) path[n + k] = suffix[k];
    path[n + k] = '\0';
    const std::uint32_t blk[3] = {word(path), mode, n + k};
    return call(0x01, blk);
  }
};

}  // namespace attractor::board
