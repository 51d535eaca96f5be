// SPDX-License-Identifier: Apache-2.0
// On-target fault containment (boards/common/fault.cpp, docs/runtime.md "Faults"): the
// runtime drives a control law that provokes one CPU fault at its 10th step; the image must
//   1. write the safe (zero) command first, from the fault handler through the safe-output
//      hook rt::run registered — the app's actuate() prints "safe hook: u=0 in exception N"
//      when it runs in a fault exception —
//   2. then print the report "FAULT <kind> CFSR=..." (plus "stack overflow" for the guard),
//   3. then exit (code 3 under QEMU).
// CTest matches hook, then report, in that order (host-tests/target/CMakeLists.txt). One image
// per board; the fault class is the semihosting command line's "fault=<kind>" (QEMU
// -semihosting-config arg=...): stack (stack overflow: recursion into the MPU guard), bus (load
// from an unmapped address), div0 (integer divide by zero, CCR.DIV_0_TRP), undef (undefined
// instruction), nocp (FPU off; FPU cores only), watchdog (a control step that hangs:
// rt::Config::watchdog_ms, the hardware watchdog's path; mps2 boards, board/watchdog.hpp),
// result (the value of a Result holding an error read in the step: core/result.hpp traps, and the
// report names the error).
// No or an unknown fault class: the image says so and exits 1.
#include <cstdint>

#include "attractor/board/board.hpp"
#include "attractor/board/cortex_m.hpp"
#include "attractor/board/semihost_link.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/text.hpp"
#include "attractor/rt/tick.hpp"

using namespace attractor;
using board::Board;

namespace {

volatile std::uint32_t g_depth_limit = 0xFFFFFFFFu;  // never reached: the guard stops it first
volatile std::uint32_t g_zero = 0;

std::uint32_t ipsr() {
  std::uint32_t v;
  __asm__ volatile("mrs %0, ipsr" : "=r"(v));
  return v & 0x1FFu;
}

// Each frame keeps a live buffer so the recursion really consumes stack.
__attribute__((noinline)) std::uint32_t recurse(std::uint32_t n) {
  volatile std::uint32_t buf[16];
  buf[n & 15u] = n;
  if (n >= g_depth_limit) return buf[0];
  return recurse(n + 1u) + buf[n & 7u];
}

enum class Fault { none, stack, bus, div0, undef, nocp, watchdog, result };
Fault g_fault = Fault::none;

// The fault class named on the semihosting command line ("fault=<kind>").
Fault requested_fault() {
  static char cmd[128];
  std::uint32_t get[2] = {board::SemihostLink::word(cmd), sizeof cmd - 1};
  if (board::SemihostLink::call(0x15, get) != 0) return Fault::none;  // SYS_GET_CMDLINE
  cmd[sizeof cmd - 1] = '\0';
  static const struct {
    const char* word;
    Fault fault;
  } kinds[] = {{"fault=stack", Fault::stack},  {"fault=bus", Fault::bus},   {"fault=div0", Fault::div0},
               {"fault=undef", Fault::undef},  {"fault=nocp", Fault::nocp}, {"fault=watchdog", Fault::watchdog},
               {"fault=result", Fault::result}};
  for (const char* c = cmd; *c != '\0'; ++c) {
    if (c != cmd && c[-1] != ' ') continue;  // words only
    for (const auto& k : kinds) {
      std::uint32_t n = 0;
      while (k.word[n] != '\0' && c[n] == k.word[n]) ++n;
      if (k.word[n] == '\0' && (c[n] == '\0' || c[n] == ' ')) return k.fault;
    }
  }
  return Fault::none;
}

void provoke() {
  switch (g_fault) {
    case Fault::stack:
      board::write("provoking: stack overflow by recursion\n");
      g_zero = recurse(0);
      break;
    case Fault::bus:
      board::write("provoking: bus fault\n");
      g_zero = *reinterpret_cast<volatile std::uint32_t*>(ATTRACTOR_BUS_FAULT_ADDRESS);
      break;
    case Fault::div0: {
      board::write("provoking: integer divide by zero\n");
      volatile std::int32_t num = 7;
      g_zero = static_cast<std::uint32_t>(num / static_cast<std::int32_t>(g_zero));
      break;
    }
    case Fault::undef:
      board::write("provoking: undefined instruction\n");
      __asm__ volatile("udf #0");
      break;
    case Fault::watchdog:
      board::write("provoking: control step hangs (watchdog)\n");
      for (;;) __asm__ volatile("");
      break;
    case Fault::nocp: {
      board::write("provoking: FPU access with the FPU off (NOCP)\n");
      volatile float x = 1.5f;
      attractor::cortex_m::reg(0xE000ED88u) &= ~(0xFu << 20);  // CPACR: CP10/CP11 no access
      attractor::cortex_m::dsb();
      attractor::cortex_m::isb();
      x = x * 3.0f;
      break;
    }
    case Fault::result: {
      board::write("provoking: the value of an error Result read\n");
      const Result<float> refused(g_zero == 0u ? Result<float>(Error::outside_stability_range) : Result<float>(1.f));
      g_zero = static_cast<std::uint32_t>(refused.value());
      break;
    }
    case Fault::none: break;
  }
}

struct FaultApp : rt::AppBase<float, 1, 1> {
  int steps = 0;
  bool sample(Sensors& y) {
    y[0] = 0.25f;
    return true;
  }
  void estimate(const Sensors&, float) {}
  Command control() {
    if (++steps == 10) provoke();
    Command u;
    u[0] = 0.5f;
    return u;
  }
  void actuate(const Command& u) {
#if defined(ATTRACTOR_BOARD_HAS_ACTUATORS)
    board::actuator_write(0, u[0]);  // boards with actuators: the real output path too
#endif
    const std::uint32_t e = ipsr();
    if (e >= 2u && e <= 6u) {  // NMI, HardFault, MemManage, BusFault, UsageFault
      Text<64> t;
      t << "safe hook: u=" << (u[0] == 0.0f ? "0" : "NOT ZERO") << " in exception " << e << "\n";
      board::write(t.c_str());
    }
  }
};

}  // namespace

int main() {
  board::initialize();
  g_fault = requested_fault();
  if (g_fault == Fault::none) {
    board::write("rt fault: no fault class on the command line (fault=stack|bus|div0|undef|nocp|watchdog)\n");
    return 1;
  }
  FaultApp app;
  rt::Config cfg = rt::rate_hz(1000);
  cfg.max_ticks = 50;
  if (g_fault == Fault::watchdog) cfg.watchdog_ms = 5;  // fed every 1 ms step; the hung step lets it expire
  rt::run<Board>(app, cfg);
  board::write("rt fault: NO FAULT TAKEN\n");
  return 1;
}
