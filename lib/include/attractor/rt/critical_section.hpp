// SPDX-License-Identifier: Apache-2.0
// The runtime's one synchronisation primitive: a short critical section that masks the
// sampling interrupt while the supervisor's shared state is changed (docs/runtime.md,
// "Concurrency rule").
//
// On Cortex-M: PRIMASK saved, `cpsid i`, restored on exit (ARMv7-M ARM B1.4.3; also valid on
// ARMv6-M). It masks every configurable interrupt for a few instructions; HardFault and NMI
// still run, so fault containment is never delayed.
//
// On the host there are no interrupts; the section only counts its nesting depth, and
// preemption_point() marks the places where the sampling interrupt could pre-empt the control
// step. A host test installs a hook there to inject the sampling ISR at every such point
// (host-tests/unit/rt_interleaving_test.cpp); inside a critical section the hook is not
// called, exactly as the masked interrupt would not be taken. On the target both compile away.
#pragma once

#include <cstdint>

namespace attractor::rt {

#if defined(__arm__)

class CriticalSection {
 public:
  CriticalSection() { __asm__ volatile("mrs %0, primask \n cpsid i" : "=r"(primask_)::"memory"); }
  ~CriticalSection() { __asm__ volatile("msr primask, %0" ::"r"(primask_) : "memory"); }
  CriticalSection(const CriticalSection&) = delete;
  CriticalSection& operator=(const CriticalSection&) = delete;

 private:
  std::uint32_t primask_;
};

inline void preemption_point() {}

#else

namespace host {
// Nesting depth of CriticalSection (0: "interrupts enabled").
inline int critical_depth = 0;
// Called at each preemption point outside a critical section (test hook; null: nothing).
inline void (*preempt_hook)(void*) = nullptr;
inline void* preempt_ctx = nullptr;
}  // namespace host

class CriticalSection {
 public:
  CriticalSection() { ++host::critical_depth; }
  ~CriticalSection() { --host::critical_depth; }
  CriticalSection(const CriticalSection&) = delete;
  CriticalSection& operator=(const CriticalSection&) = delete;
};

inline void preemption_point() {
  if (host::critical_depth == 0 && host::preempt_hook != nullptr) host::preempt_hook(host::preempt_ctx);
}

#endif

// A counter increment written as the load / store pair it is on the core, with the window
// between them visible to the host interleaving test. Call it inside a CriticalSection.
template <class T>
inline void bump(T& counter) {
  const T v = counter;
  preemption_point();
  counter = static_cast<T>(v + 1u);
}

}  // namespace attractor::rt
