// SPDX-License-Identifier: Apache-2.0
// The sanitizer self-test's program (host-tests/CMakeLists.txt, tests sanitizers.*): each case
// commits one error that a sanitized build must report and abort on. A build that lost its
// sanitizers runs the case to the end and exits 0, and the test fails.
//   sanitizer_probe none              exits 0 (the program itself works)
//   sanitizer_probe heap-overflow     AddressSanitizer: heap-buffer-overflow
//   sanitizer_probe signed-overflow   UBSan signed-integer-overflow
//   sanitizer_probe float-cast        UBSan float-cast-overflow (1e10 to int)
//   sanitizer_probe bounds            UBSan bounds (a C array indexed past its end)
//   sanitizer_probe shift             UBSan shift (1 << 40 on a 32-bit int)
//   sanitizer_probe misaligned        UBSan alignment (ATTRACTOR_SANITIZE=full only)
// The operands come from the command line, so that no compiler folds the error away.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

int heap_overflow(int n) {
  std::unique_ptr<int[]> a(new int[4]);
  std::memset(a.get(), 0, 4 * sizeof(int));
  return a[n];  // n = 4: one past the end
}

int signed_overflow(int n) { return 2147483600 + n; }  // n = 100

int float_cast(double x) { return static_cast<int>(x); }  // x = 1e10

int bounds(int n) {
  int a[4] = {1, 2, 3, 4};
  return a[n];  // n = 4
}

int shift(int n) { return 1 << n; }  // n = 40

int misaligned(int n) {
  alignas(int) char buf[2 * sizeof(int)] = {};
  const int* p = reinterpret_cast<const int*>(buf + n);  // n = 1
  return *p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: sanitizer_probe none|heap-overflow|signed-overflow|float-cast|bounds|shift|misaligned\n");
    return 2;
  }
  const char* c = argv[1];
  const int four = 3 + argc / 2;  // 4, unknown to the compiler
  int r = 0;
  if (std::strcmp(c, "none") == 0) {
    r = heap_overflow(four - 1) + signed_overflow(four) + float_cast(four) + bounds(four - 1) + shift(four);
  } else if (std::strcmp(c, "heap-overflow") == 0) {
    r = heap_overflow(four);
  } else if (std::strcmp(c, "signed-overflow") == 0) {
    r = signed_overflow(25 * four);
  } else if (std::strcmp(c, "float-cast") == 0) {
    r = float_cast(2.5e9 * four);
  } else if (std::strcmp(c, "bounds") == 0) {
    r = bounds(four);
  } else if (std::strcmp(c, "shift") == 0) {
    r = shift(10 * four);
  } else if (std::strcmp(c, "misaligned") == 0) {
    r = misaligned(four - 3);
  } else {
    std::fprintf(stderr, "unknown case %s\n", c);
    return 2;
  }
  std::printf("case %s ran to the end: %d\n", c, r);
  return 0;
}
