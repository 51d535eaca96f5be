// SPDX-License-Identifier: Apache-2.0
// Software-in-the-loop sensor source: the rotor skate (44) simulated on the target itself.
// sample() advances the plant one tick under the torque held since the last actuate() (zero-order
// hold) by one RK4 step of its feedback integrator (SkateRotorPlant keeps Γ2²+Γ3² = 1 in float)
// and reads ideal sensors; actuate() holds the new torque. A HIL link is the other source of the
// same measurements (SkateRotorSignals), with the controller and the app unchanged.
#pragma once

#include "attractor/core/types.hpp"
#include "attractor/plants/held_torque_sim.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"

namespace attractor {

template <class S>
struct SimulatedSkateRotorConfig {
  SkateRotorParams<S> params;  // §7.3 defaults
  S feedback_gain = S(50);     // feedback gain on Γ2² + Γ3² (paper 000 §2.4)
  S phi0 = S(0.1);             // initial tilt of (59) [rad]
};

template <class S>
class SimulatedSkateRotor : public HeldTorqueSim<SimulatedSkateRotor<S>, SkateRotorPlant<S>, SkateRotorSignals<S>,
                                                 SimulatedSkateRotorConfig<S>> {
 public:
  using HeldTorqueSim<SimulatedSkateRotor<S>, SkateRotorPlant<S>, SkateRotorSignals<S>,
                      SimulatedSkateRotorConfig<S>>::HeldTorqueSim;
  using Config = SimulatedSkateRotorConfig<S>;

  static Error config_error(const Config& c, S dt) {
    return sil_config_error(c.params.validate(), is_finite(c.phi0), true, c.feedback_gain, dt);
  }
  static SkateRotorPlant<S> plant(const Config& c) { return SkateRotorPlant<S>{PendulumSkateRotor<S>{c.params}}; }
  // The initial condition (59) (Ω1 = Ω3 = 0.1, Y1 = 1), rotor at rest relative to the body.
  static Vec<S, 6> initial_state(const Config& c) {
    Vec<S, 6> x0;
    x0 << skate_zeta<S>(skate_tilted_sliding_state<S>(c.phi0)), S(0);
    return x0;
  }

  // ---- truth, for reports and tests; state() = (v1, v2, v3, Γ2, Γ3, θ̇) ----
  Vec3<S> vertical() const { return Vec3<S>(S(0), this->state()[3], this->state()[4]); }  // Γ
  S held_torque() const { return this->held_command()[0]; }
};

// What a SIL run did to the plant and the actuator, kept by rt::Loop's monitor hook at every
// actuation. Branch-free (ternaries compile to VSEL/IT on the FPU, not libm fmax/fmin whose NaN
// branches would make the tick's cost depend on the data).
template <class S>
struct SkateRotorOutcome {
  S min_gamma3 = S(1);       // lowest Γ3 of the plant (cos of the largest tilt)
  S max_abs_torque = S(0);   // largest |u| commanded [N m]
  S max_gamma_error = S(0);  // largest |Γ̂ − Γ| of the estimator
  S max_constraint = S(0);   // largest max(||Γ̂|² − 1|, |Γ̂1|) of the estimator

  // Controller: anything whose status() has `vertical` (Γ̂) and `started`.
  template <class Controller>
  void observe(const SimulatedSkateRotor<S>& plant, const Controller& ctrl, const Vec<S, 1>& u) {
    const Vec3<S>& gamma = ctrl.status().vertical;
    const bool started = ctrl.status().started;
    const S g3 = plant.state()[4];
    const S au = u[0] < S(0) ? -u[0] : u[0];
    const S err = (gamma - plant.vertical()).norm();
    const S n = gamma.squaredNorm() - S(1);
    const S an = n < S(0) ? -n : n;
    const S a1 = gamma[0] < S(0) ? -gamma[0] : gamma[0];
    const S c = an > a1 ? an : a1;
    min_gamma3 = g3 < min_gamma3 ? g3 : min_gamma3;
    max_abs_torque = au > max_abs_torque ? au : max_abs_torque;
    const S e = started ? err : S(0);
    const S k = started ? c : S(0);
    max_gamma_error = e > max_gamma_error ? e : max_gamma_error;
    max_constraint = k > max_constraint ? k : max_constraint;
  }
};

}  // namespace attractor
