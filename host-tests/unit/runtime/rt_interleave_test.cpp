// SPDX-License-Identifier: Apache-2.0
// rt::Tick under the two interrupt priorities: the sampling ISR injected at every preemption point
// of a control step, and a trip stamped with the tick of the step that found it. Float and double.
#include <gtest/gtest.h>

#include "tick_fixture.hpp"

using attractor::Error;
using namespace attractor::rt;
using namespace tick_fixture;

namespace {

// ---- Interleavings of the two interrupt priorities ----
// The sampling ISR (on_sample) is injected once at the k-th preemption point of a control
// step, for every k. The step's law returns NaN (trip non_finite) and the injected ISR finds
// the step running with overrun_streak_limit 1 (trip overrun). Whichever trips first must be
// the latched reason with its own tick, and each fault is counted exactly once.
template <class S>
struct Injector {
  Tick<TestApp<S>>* t = nullptr;
  int at = 0, seen = 0;
  bool isr_tripped = false;
  static void hook(void* p) {
    auto* x = static_cast<Injector*>(p);
    if (x->seen++ != x->at) return;
    const bool before = x->t->supervisor().safe();
    x->t->on_sample(5000);
    x->isr_tripped = !before && x->t->supervisor().safe();
  }
};

TYPED_TEST(TickTest, InterleavedSamplingIsrNeverLosesTheFirstReasonOrACount) {
  using S = TypeParam;
  namespace host = attractor::rt::host;
  int points = -1;
  for (int at = -1; at < 64; ++at) {  // at = -1: no injection, count the points
    TestApp<S> app;
    app.nan_output = true;
    Config c = rate_hz(1000);
    c.supervisor.overrun_streak_limit = 1;
    Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
    Injector<S> inj;
    inj.t = &t;
    inj.at = at;
    g_clock = 4000;
    ASSERT_TRUE(t.on_sample(4000));
    host::preempt_ctx = &inj;
    host::preempt_hook = &Injector<S>::hook;
    t.on_control([] { return g_clock + 1500; });  // over budget: the step counts an overrun
    host::preempt_hook = nullptr;
    if (at < 0) {
      points = inj.seen;
      continue;
    }
    if (at >= points) break;
    const auto& sup = t.supervisor();
    EXPECT_TRUE(sup.safe()) << "point " << at;
    if (inj.isr_tripped) {
      EXPECT_EQ(sup.reason(), Error::overrun) << "point " << at;
      EXPECT_EQ(sup.trip_tick(), 2u) << "point " << at;
    } else {
      EXPECT_EQ(sup.reason(), Error::non_finite) << "point " << at;
      EXPECT_EQ(sup.trip_tick(), 1u) << "point " << at;
    }
    EXPECT_EQ(t.report().missed_ticks, 1u) << "point " << at;
    // The ISR's stuck-step fault and the step's own over-budget count: neither lost.
    EXPECT_EQ(sup.faults().overrun, 2u) << "point " << at;
    EXPECT_EQ(app.u_out[0], S(0)) << "point " << at;
  }
  EXPECT_GE(points, 4);  // the hook ran at several points of the step
}

// The same with the step tripping through Supervisor::trip (a stale sample over its limit)
// instead of fault(): trip()'s check-then-act is one critical section, so an ISR that
// pre-empts the step either trips first (its reason and tick stay latched) or finds the state
// already safe. Without the section the step would overwrite the ISR's reason.
TYPED_TEST(TickTest, InterleavedSamplingIsrCannotSplitAStepTrip) {
  using S = TypeParam;
  namespace host = attractor::rt::host;
  int points = -1;
  for (int at = -1; at < 64; ++at) {
    TestApp<S> app;
    app.fresh = false;
    Config c = rate_hz(1000);
    c.supervisor.overrun_streak_limit = 1;
    c.supervisor.stale_limit = 0;  // the first stale sample trips
    Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
    Injector<S> inj;
    inj.t = &t;
    inj.at = at;
    g_clock = 4000;
    ASSERT_TRUE(t.on_sample(4000));
    host::preempt_ctx = &inj;
    host::preempt_hook = &Injector<S>::hook;
    t.on_control([] { return g_clock; });
    host::preempt_hook = nullptr;
    if (at < 0) {
      points = inj.seen;
      continue;
    }
    if (at >= points) break;
    const auto& sup = t.supervisor();
    EXPECT_TRUE(sup.safe()) << "point " << at;
    if (inj.isr_tripped) {
      EXPECT_EQ(sup.reason(), Error::overrun) << "point " << at;
      EXPECT_EQ(sup.trip_tick(), 2u) << "point " << at;
    } else {
      EXPECT_EQ(sup.reason(), Error::stale) << "point " << at;
      EXPECT_EQ(sup.trip_tick(), 1u) << "point " << at;
    }
    EXPECT_EQ(app.u_out[0], S(0)) << "point " << at;
  }
  EXPECT_GE(points, 2);  // after the trip: the ISR finds the state safe
}

// A trip is stamped with the tick of the step that found the fault, not the latest tick: a
// sampling ISR that fires again before the (lower-priority) step runs advances the tick count
// and misses its tick, but the step still belongs to the tick that sampled it.
TYPED_TEST(TickTest, TripCarriesTheStepsTickNotTheLatest) {
  using S = TypeParam;
  TestApp<S> app;
  app.nan_output = true;
  Config c = rate_hz(1000);
  c.supervisor.overrun_streak_limit = 100;  // the missed tick alone does not trip
  Tick<TestApp<S>> t(app, c, kHz, 0xFFFFFFFFu);
  g_clock = 1000;
  ASSERT_TRUE(t.on_sample(1000));   // tick 1 samples and pends its step
  EXPECT_FALSE(t.on_sample(2000));  // tick 2 fires before the step ran: missed
  t.on_control([] { return g_clock; });
  EXPECT_EQ(t.supervisor().reason(), Error::non_finite);
  EXPECT_EQ(t.supervisor().trip_tick(), 1u);
  EXPECT_EQ(t.report().missed_ticks, 1u);
}

}  // namespace
