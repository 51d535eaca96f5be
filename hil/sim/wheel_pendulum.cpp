// SPDX-License-Identifier: Apache-2.0
// attractor-sim wheel-pendulum: the reaction-wheel pendulum held upright by the controlled-
// Lagrangian law or the LQR baseline, with the robustness options the skate and the robot have
// (mismatch, noise, saturation, sampling). Sampled, the law is the firmware's controller
// (plants/wheel_pendulum/controller.hpp); at every stage it is the continuous law. Host tool.
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "attractor/control/reaction_wheel_law.hpp"
#include "attractor/control/saturation.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/plants/wheel_pendulum/controller.hpp"
#include "attractor/systems/reaction_wheel_pendulum.hpp"
#include "closed_loop_options.hpp"
#include "closed_loop_run.hpp"
#include "closed_loop_runs.hpp"
#include "commands.hpp"
#include "run_report.hpp"
#include "run_support.hpp"
#include "sim_run_checks.hpp"
#include "wheel_pendulum_spec.hpp"

// Named, not anonymous: attractor-sim's files share unity units (hil/CMakeLists.txt).
namespace sim_wheel_pendulum {

using cli::InvariantKind;
constexpr cli::InvariantInfo kLawInvariants[3] = {
    {"E~", InvariantKind::energy}, {"pi~", InvariantKind::momentum}, {"G", InvariantKind::constraint}};
constexpr cli::InvariantInfo kLqrInvariants[1] = {{"G", InvariantKind::constraint}};
constexpr const char* kStateNames[4] = {"Omega", "G1", "G2", "theta_dot"};

template <class T, class U>
ReactionWheelParams<T> params_as(const ReactionWheelParams<U>& p) {
  return {T(p.m_p), T(p.l), T(p.I_p), T(p.m_w), T(p.l_w), T(p.I_w), T(p.g)};
}

// The controller of the model p for the control period dt: refused when the parameters are not
// representable (exit 5), sigma is outside the stability range (exit 3) or the Riccati iteration
// fails (exit 5).
template <class S>
WheelPendulumController<S> make_controller(const Inputs& in, S dt) {
  WheelPendulumControllerConfig<S> c;
  c.params = params_as<S>(in.p);
  c.law = in.lqr ? WheelPendulumLaw::lqr : WheelPendulumLaw::controlled_lagrangian;
  c.sigma = S(in.sigma);
  c.lqr_q = Vec<S, 3>(S(in.lqr_q[0]), S(in.lqr_q[1]), S(in.lqr_q[2]));
  c.lqr_r = S(in.lqr_r);
  c.torque_limit = in.umax > 0 ? S(in.umax) : std::numeric_limits<S>::max();
  c.tilt_limit = S(M_PI);  // the envelope is the runtime's; the command reports the fall instead
  auto k = WheelPendulumController<S>::make(c, dt);
  if (k) return *k;
  if (k.error() == Error::outside_stability_range) {
    const auto r = reaction_wheel_stability_range(in.p);
    throw Failure(cli::exit_unstable, "--sigma = " + exact(in.sigma) + " refused: outside_stability_range (" +
                                          exact(r.lower) + " < sigma < 0)");
  }
  throw Failure(cli::exit_invalid, std::string(in.lqr ? "--law lqr" : "--sigma = " + exact(in.sigma)) +
                                       " refused: " + to_string(k.error()));
}

// The plant: the controller's model, or that model with --mismatch applied.
template <class S>
ReactionWheelPendulum<S> plant_for(const Inputs& in) {
  const cli::ClosedLoopOptions& lo = in.loop;
  const ReactionWheelParams<double> pp{lo.plant("m_p", in.p.m_p), lo.plant("l", in.p.l),     lo.plant("I_p", in.p.I_p),
                                       lo.plant("m_w", in.p.m_w), lo.plant("l_w", in.p.l_w), lo.plant("I_w", in.p.I_w),
                                       lo.plant("g", in.p.g)};
  const ReactionWheelParams<S> ps = params_as<S>(pp);
  if (ps.validate() != Error::none)
    throw Failure(cli::exit_invalid,
                  std::string("--mismatch: the plant's parameters are invalid (") + to_string(ps.validate()) + ")");
  return ReactionWheelPendulum<S>{ps};
}

template <class S>
class Run {
 public:
  Run(const cli::Args& a, const Inputs& in)
      : a_(a),
        in_(in),
        sc_(cli::parse_scheme(a.choice("scheme"))),
        h_(cli::step_in_precision<S>(in.h)),
        ctrl_(make_controller<S>(in, S(in.h * double(in.loop.sampled ? in.loop.hold : 1)))),
        plant_(plant_for<S>(in)),
        lawd_(in.lqr ? ReactionWheelLaw<double>{} : *ReactionWheelLaw<double>::make_unchecked(in.p, in.sigma)) {
    x_ << S(in.omega), S(std::sin(in.phi0)), S(std::cos(in.phi0)), S(in.theta_dot);
    if (!all_finite(x_)) throw Failure(cli::exit_invalid, "the initial state is not finite");
  }

  int operator()(cli::Json* summary) {
    const Vec<double, 3> F0 = invariants(x_.template cast<double>());
    cli::InvariantMonitor mon(in_.lqr ? kLqrInvariants : kLawInvariants, in_.lqr ? 1 : 3,
                              in_.lqr ? F0.data() + 2 : F0.data());
    const bool conserved = in_.umax == 0 && !in_.loop.sampled && in_.loop.exact_model();
    if (!in_.lqr) {
      mon.unwatch(1);
      if (!conserved) mon.unwatch(0);
    }
    loop(mon, F0[0]);
    csv_.close();
    return report(mon, summary);
  }

 private:
  // (E~, pi~, |Gamma|^2) of the controller's model; E~ and pi~ are 0 under LQR.
  Vec<double, 3> invariants(const Vec<double, 4>& x) const {
    const double g = x[1] * x[1] + x[2] * x[2];
    if (in_.lqr) return Vec<double, 3>(0, 0, g);
    return Vec<double, 3>(lawd_.controlled_energy(x), lawd_.controlled_rotor_momentum(x), g);
  }
  // The continuous law at a stage: u = k M g Gamma1, or u = -K (phi, Omega, theta_dot).
  S continuous(const Vec<S, 4>& x) const {
    const S u =
        in_.lqr ? -(ctrl_.lqr_gain() * Vec<S, 3>(std::atan2(x[1], x[2]), x[0], x[3]))[0] : ctrl_.law().torque(x);
    return saturated(u);
  }
  S saturated(S u) const { return in_.umax > 0 ? saturate(u, S(in_.umax)) : u; }
  void emit(double t, const Vec<double, 4>& x, double u, double dE) {
    if (csv_.is_open())
      csv_.print("%.6f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.3e\n", t, x[0], x[1], x[2], x[3], u, tilt(x), dE);
  }
  static double tilt(const Vec<double, 4>& x) { return std::atan2(std::abs(x[1]), x[2]); }

  void loop(cli::InvariantMonitor& mon, double E0) {
    if (a_.given("csv")) {
      csv_.open(a_.text("csv"));
      csv_.print("t,Omega,G1,G2,theta_dot,u,tilt,dE\n");
    }
    const cli::ClosedLoopOptions& lo = in_.loop;
    const int64_t late_from = cli::last_quarter_from(in_.steps);
    WheelPendulumController<S> sampler = ctrl_;
    auto sampled = [&](const Vec<S, 4>& y) { return saturated(sampler.update(y)[0]); };
    auto stage = [&](const Vec<S, 4>& x) { return continuous(x); };
    cli::HeldLaw<S> held(lo, S(0));
    auto closed = [&](const Vec<S, 4>& x) { return plant_.field(x, continuous(x)); };
    auto open = [&](const Vec<S, 4>& x) { return plant_.field(x, held.held()); };
    cli::Progress progress("wheel-pendulum", in_.steps);
    emit(0, x_.template cast<double>(), double(lo.sampled ? sampled(x_) : continuous(x_)), 0);
    sampler.reset();
    for (int64_t k = 0; k < in_.steps; ++k) {
      const Vec<double, 4> prev = x_.template cast<double>();
      const S u = lo.sampled ? held.at(k, x_, sampled) : held.at(k, x_, stage);
      if (lo.sampled)
        step(sc_, open, x_, h_);
      else
        step(sc_, closed, x_, h_);
      up_.command(std::abs(double(u)));
      const Vec<double, 4> xd = x_.template cast<double>();
      const Vec<double, 3> F = invariants(xd);
      const int64_t before = mon.records();
      const bool go = mon.record(in_.lqr ? F.data() + 2 : F.data(), all_finite(xd));
      if (mon.records() == before) break;  // non-finite: the last finite state stays the summary
      steps_ = k + 1, t_end_ = double(k + 1) * in_.h, last_ = xd;
      up_.record(k, in_.h, late_from, tilt(xd), prev[2], xd[2]);
      max_wheel_ = std::max(max_wheel_, std::abs(xd[3]));
      if ((k + 1) % in_.every == 0) emit(t_end_, xd, double(u), F[0] - E0);
      progress.tick(k + 1);
      if (!go || (a_.flag("stop-at-fall") && up_.fallen())) break;
    }
  }

  int report(const cli::InvariantMonitor& mon, cli::Json* summary) const {
    cli::RunReport rep;
    rep.system = "wheel-pendulum", rep.precision = sizeof(S) == 4 ? "float" : "double", rep.h = in_.h;
    rep.method = to_string(sc_), rep.steps = steps_, rep.t_end = t_end_;
    rep.state_names = kStateNames, rep.final_state.assign(last_.data(), last_.data() + 4);
    const int64_t late_from = cli::last_quarter_from(in_.steps);
    const char* law = in_.lqr ? "lqr" : "lagrangian";
    cli::Json j;
    cli::report_head(j, rep);
    j["law"] = law, j["scheme"] = to_string(sc_);
    j["sigma"] = in_.lqr ? cli::Json(nullptr) : cli::num(in_.sigma);
    j["lqr_gain"] = cli::Json(nullptr);
    if (in_.lqr)
      for (int i = 0; i < 3; ++i) j["lqr_gain"].push_back(cli::num(double(ctrl_.lqr_gain()(0, i))));
    j["umax"] = in_.umax > 0 ? cli::num(in_.umax) : cli::Json(nullptr);
    cli::loop_json(j, in_.loop, in_.h);
    j["fall_time"] = up_.fall_json();
    j["max_tilt"] = cli::num(up_.max_tilt), j["min_gamma2"] = cli::num(up_.min_up);
    j["final_tilt"] = cli::num(up_.final_tilt), j["late_max_tilt"] = up_.late_json(steps_, late_from);
    j["max_abs_u"] = cli::num(up_.max_u), j["max_abs_theta_dot"] = cli::num(max_wheel_);
    for (int i = 0; i < mon.size(); ++i) j["drift"][mon.info(i).name] = cli::num(mon.max_abs(i));
    cli::report_tail(j, rep, mon);
    return cli::finish_closed_loop(a_, "wheel-pendulum", mon.stopped(), t_end_, std::move(j), summary, [&] {
      std::printf("wheel-pendulum %s %s %s h=%g t=%g: ", law, rep.precision, to_string(sc_), in_.h, t_end_);
      cli::print_fall(up_.fall_time);
      std::printf(" max tilt=%.5f min G2=%.5f max|u|=%.4g max|theta_dot|=%.4g drift", up_.max_tilt, up_.min_up,
                  up_.max_u, max_wheel_);
      for (int i = 0; i < mon.size(); ++i) std::printf(" %s=%.2e", mon.info(i).name, mon.max_abs(i));
      cli::print_text_tail(false, 0, false, mon.stopped(), t_end_);
    });
  }

  const cli::Args& a_;
  const Inputs& in_;
  const Scheme sc_;
  const S h_;
  const WheelPendulumController<S> ctrl_;
  const ReactionWheelPendulum<S> plant_;
  const ReactionWheelLaw<double> lawd_;  // the controller's model in double, for the invariants
  Vec<S, 4> x_;
  cli::Csv csv_;
  cli::UprightTrack up_;
  double max_wheel_ = 0, t_end_ = 0;
  int64_t steps_ = 0;
  Vec<double, 4> last_ = Vec<double, 4>::Zero();
};

int wheel_run(const cli::Args& a, cli::Json* summary) {
  const Inputs in = parse_inputs(a);
  return cli::run_in_precision<Run>(a, in,
                                    {in.p.m_p, in.p.l, in.p.I_p, in.p.m_w, in.p.l_w, in.p.I_w, in.p.g, in.sigma,
                                     in.lqr_r, in.umax, in.h, in.phi0, in.omega, in.theta_dot},
                                    summary);
}

}  // namespace sim_wheel_pendulum

ATTRACTOR_REGISTER_CLOSED_LOOP("wheel-pendulum",
                               "reaction-wheel pendulum: controlled-Lagrangian law or LQR; mismatch, noise, saturation",
                               sim_wheel_pendulum::wheel_spec, sim_wheel_pendulum::wheel_run);
