// The pendulum-skate rotor controller as an rt App (lib/include/attractor/rt/tick.hpp).
//
// Each tick:  sample   — SIL: advance the on-target plant one period under the held torque and
//                        read its sensors; HIL: the sensor frame from the host plant
//             estimate — Γ̂ by the gyro + vertical fusion feedback integrator (|Γ|=1, Γ₁=0;
//                        AdvectedGamma in systems/pendulum_skate.hpp, paper 000 §2.4)
//             control  — ζ = (Ω₁, Ω·Γ̂, Y₁, Γ̂₂, Γ̂₃) (paper 003 eq. (33)) → rotor torque, the
//                        controlled-Lagrangian law (56) as corrected in skate_rotor_law.hpp
//             actuate  — hold the saturated torque (SIL: for the plant; HIL: in the actuator frame)
// The runtime validates the sensors (NaN/Inf, range, stale), supervises the tilt envelope,
// saturates the torque and drops to the safe state (zero torque) on any fault.
//
// Sensors y (NY = 8): Ω₁ Ω₂ Ω₃ [rad/s] gyro, Y₁ [m/s] blade speed, a₁ a₂ a₃ measured upward
// vertical (accelerometer direction), θ̇ [rad/s] rotor rate relative to the body.
// Command u (NU = 1): rotor motor torque [N m].
#pragma once

#include <cmath>

#include "attractor/control/saturation.hpp"
#include "attractor/control/skate_rotor_law.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/rt/tick.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"

namespace attractor {

template <class S>
struct SkateRotorAppConfig {
  SkateRotorParams<S> params;          // §7.3 defaults
  S sigma = S(-1e-5);                  // controlled-Lagrangian parameter, inside (58)
  S torque_limit = S(50);              // |u| <= torque_limit [N m] (the §7.3 run peaks near 30)
  S tilt_limit = S(0.6);               // envelope: tilt arccos(Γ̂3) below this [rad]
  S fusion_rate = S(5);                // κ [1/s] of the vertical fusion
  S estimator_gain = S(50);            // feedback gains on |Γ|² and Γ₁
  S plant_gain = S(50);                // SIL plant's feedback gain on Γ2² + Γ3²
  S phi0 = S(0.1);                     // SIL initial tilt, paper 003 (59)
};

template <class S>
class SkateRotorApp : public rt::AppBase<S, 8, 1> {
 public:
  using Base = rt::AppBase<S, 8, 1>;
  using typename Base::Command;
  using typename Base::Sensors;

  // Refuses a σ outside the stability range (58) (Error::outside_stability_range).
  static Result<SkateRotorApp> make(const SkateRotorAppConfig<S>& c, S dt) {
    auto law = SkateRotorLaw<S>::make(c.params, c.sigma);
    if (!law) return law.error();
    if (!(c.torque_limit > S(0)) || !(c.tilt_limit > S(0)) || !(dt > S(0))) return Error::invalid_parameter;
    SkateRotorApp a;
    a.cfg_ = c;
    a.law_ = *law;
    a.dt_ = dt;
    a.cos_tilt_limit_ = std::cos(c.tilt_limit);
    a.reset_plant();
    return a;
  }

  SkateRotorApp() = default;

  // SIL plant at the initial condition (59): Ω(0) = (0.1, 0.1 tan φ0, 0.1), Y(0) = (1,0,0),
  // Γ(0) = (0, sin φ0, cos φ0); rotor at rest relative to the body.
  void reset_plant() {
    const Vec<S, 9> z = skate_initial_condition_59<S>(cfg_.phi0);
    const Vec<S, 5> q = skate_zeta<S>(z);
    x_ << q[0], q[1], q[2], q[3], q[4], S(0);
    plant_ = Feedback<SkateRotorPlant<S>>(SkateRotorPlant<S>{PendulumSkateRotor<S>{cfg_.params}},
                                          Vec<S, 1>(S(1)), Vec<S, 1>(cfg_.plant_gain));
    AdvectedGamma<S> gamma_field;
    gamma_field.kappa = cfg_.fusion_rate;  // configuration: set once, not every tick
    estimator_ = Feedback<AdvectedGamma<S>>(gamma_field, Vec<S, 2>(S(1), S(0)),
                                         Vec<S, 2>(cfg_.estimator_gain, cfg_.estimator_gain));
    started_ = false;
    held_torque_ = S(0);
    outcome_ = Outcome{};
  }

  // What the run did to the plant (SIL truth) and the actuator; updated every actuation.
  struct Outcome {
    S min_gamma3 = S(1);       // lowest Γ3 of the plant (cos of the largest tilt)
    S max_abs_torque = S(0);   // largest |u| commanded [N m]
    S max_gamma_error = S(0);  // largest |Γ̂ − Γ| of the estimator
    S max_constraint = S(0);   // largest max(||Γ̂|² − 1|, |Γ̂1|) of the estimator
  };
  const Outcome& outcome() const { return outcome_; }

  // ---- rt App interface ----
  bool sample(Sensors& y) {
    // SIL: the plant advances one period under the torque held since the last tick.
    plant_.system().skate.torque = held_torque_;
    rk4_step(plant_, x_, dt_);
    Vec3<S> Om, Y;
    skate_body_rates<S>(x_.template head<5>(), Om, Y);
    y << Om, Y[0], S(0), x_[3], x_[4], x_[5];
    return true;
  }

  void estimate(const Sensors& y, S dt) {
    AdvectedGamma<S>& g = estimator_.system();
    g.omega = y.template head<3>();
    g.measured = y.template segment<3>(4);
    if (!started_) {  // first valid sample: start from the measured vertical
      gamma_ = g.measured;
      started_ = true;
    }
    rk4_step(estimator_, gamma_, dt);
    zeta_ = skate_zeta<S>(g.omega, Vec3<S>(y[3], S(0), S(0)), gamma_);  // (33)
  }

  Command control() const { return Command(law_.torque(zeta_)); }

  void actuate(const Command& u) {
    held_torque_ = u[0];
    // Outcome bookkeeping: a fixed handful of flops; ternaries (VSEL/IT on the FPU), not the
    // libm fmax/fmin whose NaN branches would make the tick's cost depend on the data.
    const Vec3<S> truth(S(0), x_[3], x_[4]);
    const S au = u[0] < S(0) ? -u[0] : u[0];
    const S err = (gamma_ - truth).norm();
    const S n = gamma_.squaredNorm() - S(1);
    const S an = n < S(0) ? -n : n;
    const S a1 = gamma_[0] < S(0) ? -gamma_[0] : gamma_[0];
    const S c = an > a1 ? an : a1;
    Outcome& o = outcome_;
    o.min_gamma3 = x_[4] < o.min_gamma3 ? x_[4] : o.min_gamma3;
    o.max_abs_torque = au > o.max_abs_torque ? au : o.max_abs_torque;
    const S e = started_ ? err : S(0);
    const S k = started_ ? c : S(0);
    o.max_gamma_error = e > o.max_gamma_error ? e : o.max_gamma_error;
    o.max_constraint = k > o.max_constraint ? k : o.max_constraint;
  }

  Sensors sensor_limits() const {
    Sensors l;
    l << S(50), S(50), S(50), S(20), S(1.5), S(1.5), S(1.5), S(5000);
    return l;
  }
  Command actuator_limits() const { return Command(cfg_.torque_limit); }
  bool in_envelope() const { return gamma_[2] > cos_tilt_limit_; }

  // ---- observation for reports and tests ----
  const Vec<S, 6>& plant_state() const { return x_; }
  const Vec3<S>& gamma_estimate() const { return gamma_; }
  const Vec<S, 5>& zeta() const { return zeta_; }
  S held_torque() const { return held_torque_; }
  const SkateRotorLaw<S>& law() const { return law_; }

 private:
  SkateRotorAppConfig<S> cfg_{};
  SkateRotorLaw<S> law_{};
  S dt_ = S(1e-3);
  S cos_tilt_limit_ = S(0);
  Outcome outcome_{};
  Feedback<SkateRotorPlant<S>> plant_{};
  Vec<S, 6> x_ = Vec<S, 6>::Zero();
  Feedback<AdvectedGamma<S>> estimator_{};
  Vec3<S> gamma_ = Vec3<S>(S(0), S(0), S(1));
  Vec<S, 5> zeta_ = Vec<S, 5>::Zero();
  S held_torque_ = S(0);
  bool started_ = false;
};

}  // namespace attractor
