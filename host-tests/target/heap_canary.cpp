// SPDX-License-Identifier: Apache-2.0
// Deliberately allocates: proves the no-heap checks can fail (never part of a real image).
#include <cstdlib>

int* heap_canary_allocate() { return new int(42); }
void* heap_canary_malloc() { return std::malloc(16); }
