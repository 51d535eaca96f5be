// SPDX-License-Identifier: Apache-2.0
// What the rt::Tick tests share: a two-sensor, one-actuator app whose control law advances a fake
// cost clock, the typed fixture (float and double), and a fake board for rt::run on which each
// wait_for_interrupt() is one tick period.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "attractor/rt/tick.hpp"

namespace tick_fixture {

using namespace attractor::rt;

// The fake cost clock (counts), advanced by the test and by the app's control law.
inline std::uint32_t g_clock = 0;

template <class S>
struct TestApp : AppBase<S, 2, 1> {
  using Base = AppBase<S, 2, 1>;
  using typename Base::Command;
  using typename Base::Sensors;

  Sensors next = Sensors(S(0.5), S(-0.25));  // what sample() delivers
  bool fresh = true;
  S gain = S(2);
  S limit = S(1);
  S sensor_limit = S(100);
  S envelope = S(10);
  std::uint32_t control_cost = 100;  // counts the control law "takes"
  bool nan_output = false;

  int samples = 0, estimates = 0, controls = 0, actuations = 0;
  Sensors estimate_in = Sensors::Zero();
  Command u_out = Command::Constant(S(-99));

  bool sample(Sensors& y) {
    ++samples;
    y = next;
    return fresh;
  }
  void estimate(const Sensors& y, S dt) {
    ++estimates;
    estimate_in = y;
    EXPECT_GT(dt, S(0));
  }
  Command control() {
    ++controls;
    g_clock += control_cost;
    Command u;
    u[0] = nan_output ? std::numeric_limits<S>::quiet_NaN() : gain * estimate_in[0];
    return u;
  }
  void actuate(const Command& u) {
    ++actuations;
    u_out = u;
  }
  Sensors sensor_limits() const { return Sensors::Constant(sensor_limit); }
  Command actuator_limits() const { return Command::Constant(limit); }
  bool in_envelope() const { return std::fabs(estimate_in[1]) < envelope; }
};

// The same app with the optional reset() hook (Tick::rearm calls it).
template <class S>
struct ResettableApp : TestApp<S> {
  int resets = 0;
  void reset() {
    ++resets;
    this->estimate_in.setZero();
  }
};
static_assert(attractor::rt::has_member<attractor::rt::app_reset_member, ResettableApp<float>>);
static_assert(!attractor::rt::has_member<attractor::rt::app_reset_member, TestApp<float>>);

// One full tick of any engine; `extra` counts are added to the step's end time.
template <class T>
void tick_any(T& t, std::uint32_t now, std::uint32_t extra = 0) {
  g_clock = now;
  if (t.on_sample(now)) t.on_control([extra] { return g_clock + extra; });
}

inline constexpr std::uint32_t kHz = 1000000;  // fake cost clock: 1 MHz -> 1000 counts per 1 kHz tick

template <class S>
class TickTest : public ::testing::Test {
 protected:
  void SetUp() override { g_clock = 5; }
  // One full tick: sample at `now`, then the control step.
  static void tick(Tick<TestApp<S>>& t, std::uint32_t now) {
    g_clock = now;
    if (t.on_sample(now)) t.on_control([] { return g_clock; });
  }
};

using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(TickTest, Scalars);

// A fake board for rt::run: each wait_for_interrupt() is one tick period.
struct FakeBoard {
  static inline bool (*sample)(void*) = nullptr;
  static inline void (*control)(void*) = nullptr;
  static inline void* ctx = nullptr;
  static inline std::uint32_t rate = 0;
  static inline std::uint32_t now = 0;
  static inline bool running = false;
  static inline int stops = 0;
  static bool tick_start(std::uint32_t hz, bool (*s)(void*), void (*c)(void*), void* x) {
    if (hz == 0 || hz > kHz) return false;
    sample = s;
    control = c;
    ctx = x;
    rate = hz;
    running = true;
    return true;
  }
  static void tick_stop() {
    running = false;
    ++stops;
  }
  static std::uint32_t cost_now() { return g_clock; }
  static std::uint32_t cost_mask() { return 0xFFFFFFFFu; }
  static std::uint32_t cost_hz() { return kHz; }
  static void wait_for_interrupt() {
    ASSERT_TRUE(running);
    now += kHz / rate;
    g_clock = now;
    if (sample(ctx)) control(ctx);
  }
  static std::uint32_t stack_used_bytes() { return 640; }
  static std::uint32_t stack_size_bytes() { return 16384; }
};

}  // namespace tick_fixture
