// SPDX-License-Identifier: Apache-2.0
// The App contract: what the runtime calls on an application, and the base that supplies the
// types and the optional members' defaults.
//
// ============================== The App interface ==============================
// An App is a plain type; the runtime calls these members and nothing else. Derive from
// rt::AppBase<Scalar, NY, NU> to get the types and the optional members' defaults:
//
//   struct MyApp : rt::AppBase<float, 4, 1> {      // Scalar, sensor count NY, actuator count NU
//     // [sampling ISR, high priority] Read the sensors (drivers, HIL frame) into y.
//     // Return false when no fresh data arrived this tick (the supervisor counts it stale).
//     bool sample(Sensors& y);
//     // [control ISR, low priority] Propagate / fuse the state estimate with a validated,
//     // finite, in-range sample; dt is the tick period in seconds.
//     void estimate(const Sensors& y, Scalar dt);
//     // [control ISR] The control law on the current estimate, before saturation.
//     Command control();
//     // [either ISR] Write the actuators. Called with the zero command in the safe state, also
//     // from the sampling ISR: keep it a short register/buffer write.
//     void actuate(const Command& u);
//
//     // Optional (AppBase defaults in brackets):
//     Sensors sensor_limits() const;     // |y_i| <= limit_i, else out_of_range   [+inf]
//     Command actuator_limits() const;   // u_i clipped to [-limit_i, limit_i]    [+inf]
//     bool in_envelope() const;          // plant estimate inside the envelope    [true]
//     void reset();                      // restart estimator/controller state; called by
//                                        // Tick::rearm() when present (rt/optional_member.hpp)
//   };
// Limits must be numbers >= 0 (+inf: none); NaN or negative limits are refused at
// configuration (the engine starts safe, reason invalid_parameter).
//
// All members must be allocation-free and have no data-dependent loops.
//
// One tick (sample ISR, then the control ISR it pends, as ODrive splits its loop) is the
// engine's (rt/engine.hpp); running it on a board is rt/run.hpp's.
#pragma once

#include <limits>
#include <utility>

#include "attractor/core/types.hpp"
#include "attractor/rt/optional_member.hpp"

namespace attractor::rt {

// Types and defaults for an App (see the interface above).
template <class S, int NY, int NU>
struct AppBase {
  using Scalar = S;
  static constexpr int sensor_dim = NY;
  static constexpr int actuator_dim = NU;
  using Sensors = Vec<S, NY>;
  using Command = Vec<S, NU>;

  Sensors sensor_limits() const { return Sensors::Constant(std::numeric_limits<S>::infinity()); }
  Command actuator_limits() const { return Command::Constant(std::numeric_limits<S>::infinity()); }
  bool in_envelope() const { return true; }
};

// The optional App::reset(), detected with rt::has_member (Tick::rearm calls it when present).
template <class A>
using app_reset_member = decltype(std::declval<A&>().reset());

}  // namespace attractor::rt
