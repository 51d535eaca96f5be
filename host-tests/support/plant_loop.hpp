// SPDX-License-Identifier: Apache-2.0
// What every controlled plant's loop test needs: its SIL source and controller composed by
// rt::Loop, run through the same rt::Tick engine the boards drive on a fake cost clock, and a
// source that injects one bad reading. Each plant's test states only its own configuration.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "attractor/core/result.hpp"
#include "attractor/rt/loop.hpp"
#include "no_alloc.hpp"

namespace attractor::test {

// 1 count per microsecond; every control step costs 5 counts, so no tick overruns.
constexpr std::uint32_t kFakeClockHz = 1000000;

// `ticks` ticks at cfg's rate (1 kHz by default), inside a NoAllocGuard: the loop's hot path
// must not allocate.
template <class App>
rt::Report run_ticks(App& app, std::uint32_t ticks, rt::Config cfg = rt::rate_hz(1000)) {
  cfg.max_ticks = ticks;
  rt::Tick<App> engine(app, cfg, kFakeClockHz, 0xFFFFFFFFu);
  std::uint32_t now = 0;
  NoAllocGuard guard;
  for (std::uint32_t k = 0; k <= ticks && !engine.finished(); ++k) {
    if (engine.on_sample(now)) engine.on_control([&] { return now + 5u; });
    now += 1000u;
  }
  return engine.report();
}

// The loop of a made controller and plant; a refused configuration fails the test with its
// reason.
template <class Loop, class Source, class MadeController, class MadePlant>
Loop compose_loop(const MadeController& ctrl, const MadePlant& plant) {
  EXPECT_TRUE(ctrl.ok()) << to_string(ctrl.error());
  EXPECT_TRUE(plant.ok()) << to_string(plant.error());
  return Loop(Source(*plant), *ctrl);
}

// A plant whose `at`-th sample reads NaN at measurement index `Index`: the fault comes from the
// source, the controller is untouched.
template <class Plant, int Index = 1>
struct NanReadingAt : Plant {
  using typename Plant::Measurement;
  NanReadingAt() = default;
  explicit NanReadingAt(const Plant& p) : Plant(p) {}
  std::uint32_t at = 0, n = 0;
  bool sample(Measurement& y) {
    const bool fresh = Plant::sample(y);
    if (++n == at) y[Index] = std::numeric_limits<typename Measurement::Scalar>::quiet_NaN();
    return fresh;
  }
};

// What the runtime promises on a fault: the safe state, its reason latched at its tick, and a
// zero command held by the source.
template <class App>
void expect_safe_state(const App& app, const rt::Report& r, Error reason, std::uint32_t trip_tick) {
  EXPECT_EQ(r.mode, rt::Mode::safe);
  EXPECT_EQ(r.reason, reason);
  EXPECT_EQ(r.trip_tick, trip_tick);
  EXPECT_TRUE(app.source().held_command().isZero(0));
}

}  // namespace attractor::test
