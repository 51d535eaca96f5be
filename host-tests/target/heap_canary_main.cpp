// SPDX-License-Identifier: Apache-2.0
// Links the heap canary into an image: the link must fail because no _sbrk is provided.
int* heap_canary_allocate();
void* heap_canary_malloc();

int main() { return (heap_canary_allocate() != nullptr && heap_canary_malloc() != nullptr) ? 0 : 1; }
