// SPDX-License-Identifier: Apache-2.0
// attractor-sim skate: the pendulum skate (paper 003), uncontrolled or rotor-controlled, with every
// parameter from the command line or a key=value config file. Host tool.
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attractor/control/saturation.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/plants/skate_rotor/law.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_pose.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"
#include "auto_gains.hpp"
#include "closed_loop_options.hpp"
#include "closed_loop_run.hpp"
#include "closed_loop_runs.hpp"
#include "commands.hpp"
#include "run_report.hpp"
#include "run_support.hpp"
#include "sim_run_checks.hpp"
#include "skate_inputs.hpp"
#include "skate_spec.hpp"

// Named, not anonymous: attractor-sim is one translation unit (hil/CMakeLists.txt).
namespace sim_skate {

using namespace attractor;
using cli::exact;
using cli::Failure;

struct Summary {
  cli::UprightTrack up;  // tilt = atan2(|Gamma2|, Gamma3), up = Gamma3
  double t_end = 0;
  int64_t steps = 0;
  Vec<double, 6> last = Vec<double, 6>::Zero();  // zeta, theta_dot
};

using cli::InvariantKind;
constexpr cli::InvariantInfo kInvariants[8] = {{"E", InvariantKind::energy},      {"C1", InvariantKind::momentum},
                                               {"C2", InvariantKind::momentum},   {"G2", InvariantKind::constraint},
                                               {"G1", InvariantKind::constraint}, {"v4", InvariantKind::constraint},
                                               {"v5", InvariantKind::constraint}, {"v6", InvariantKind::constraint}};
// Controlled: the matched skate's E, C1, C2, |Gamma|^2 and the controlled rotor momentum (51b).
constexpr cli::InvariantInfo kControlledInvariants[5] = {
    kInvariants[0], kInvariants[1], kInvariants[2], kInvariants[3], {"pi_tilde", InvariantKind::momentum}};
constexpr const char* kStateNames[6] = {"v1", "v2", "v3", "G2", "G3", "theta_dot"};

// One run: setup and validation (the constructor), one loop per model, the summary.
template <class S>
class Run {
 public:
  Run(const cli::Args& a, const Inputs& in)
      : a_(a),
        in_(in),
        sc_(cli::parse_scheme(a.choice("scheme"))),
        h_(in.h),
        rp_{S(in.m), S(in.l), S(in.I1), S(in.I2), S(in.I3), S(in.g), S(in.J1), S(in.J2), S(in.J3)},
        sp_{rp_.m, rp_.l, rp_.I1, rp_.I2, rp_.I3, rp_.g},
        q0_(in.q0),
        late_from_(cli::last_quarter_from(in.steps)),
        stop_(a.flag("stop-at-fall")) {
    const Error pe = in.controlled ? rp_.validate() : sp_.validate();
    if (pe != Error::none)
      throw Failure(cli::exit_invalid,
                    std::string("parameters not representable in this precision (") + to_string(pe) + ")");
    if (a.given("csv")) {
      csv_.open(a.text("csv"));
      csv_.print("t,v1,v2,v3,G2,G3,Omega1,Omega2,Omega3,Y1,u,theta_dot,x1,x2,dE\n");
    }
    progress_.emplace("skate", in.steps);
    pose_ = skate_pose_from_gamma(Vec3<double>(0, q0_[3], q0_[4]));
  }

  int operator()(cli::Json* summary) {
    if (in_.controlled)
      controlled();
    else if (a_.choice("model") == "full")
      uncontrolled_full();
    else
      uncontrolled_reduced();
    csv_.close();
    return report(summary);
  }

 private:
  void emit(double t, const Vec<double, 5>& q, double u, double thd, double dE) {
    if (!csv_.is_open()) return;
    Vec3<double> W, Y;
    skate_body_rates(q, W, Y);
    csv_.print("%.6f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.3e\n", t, q[0], q[1], q[2],
               q[3], q[4], W[0], W[1], W[2], Y[0], u, thd, pose_.x[0], pose_.x[1], dE);
  }
  void track(int64_t k, const Vec<double, 5>& prev, const Vec<double, 5>& q) {
    const double t = double(k + 1) * h_;
    Vec3<double> W0, Y0, W1, Y1;
    skate_body_rates(prev, W0, Y0);
    skate_body_rates(q, W1, Y1);
    advance_pose(pose_, W0, Y0, W1, Y1, h_);
    s_.up.record(k, h_, late_from_, std::atan2(std::abs(q[3]), q[4]), prev[4], q[4]);
    s_.t_end = t, s_.steps = k + 1;
    s_.last.template head<5>() = q;
    progress_->tick(k + 1);
  }
  bool done(bool go) const { return !go || (stop_ && s_.up.fallen()); }
  bool feedback_on() const { return in_.feedback && (in_.auto_rate || in_.rate > 0); }
  S rate_for(int M) {
    rate_used_ = in_.auto_rate ? cli::kAutoGainSafety * double(real_stability_limit<S>(sc_)) / (h_ * M) : in_.rate;
    return S(rate_used_ > 0 ? rate_used_ : 1);
  }
  template <class Fb, class Samples>
  void use_feedback(const Fb& fb, const Samples& samples, int M) {
    if (!feedback_on()) return;
    cli::check_feedback_steps(fb, sc_, S(h_), samples, a_.flag("unchecked"));
    gains_used_.assign(fb.gains().data(), fb.gains().data() + M);
  }
  PendulumSkateParams<double> params_double() const {
    return {double(sp_.m), double(sp_.l), double(sp_.I1), double(sp_.I2), double(sp_.I3), double(sp_.g)};
  }

  // The full nonholonomic model (21) with its eight invariants.
  void uncontrolled_full() {
    PendulumSkateFull<S> sys{sp_};
    PendulumSkateFull<double> ref{params_double()};
    Vec<S, 9> z = skate_full(q0_).cast<S>();
    Vec<S, 9> samples[2] = {z, z};
    samples[1].template tail<3>() << S(0), S(1), S(0);
    auto fb = feedback(sys, z, balanced_gains(sys, samples, rate_for(8)));
    use_feedback(fb, samples, 8);
    const Vec<double, 8> F0 = ref.invariants(z.template cast<double>());
    mon_.emplace(kInvariants, 8, F0.data());
    emit(0, q0_, 0, 0, 0);
    for (int64_t k = 0; k < in_.steps; ++k) {
      const Vec<double, 5> prev = skate_zeta(Vec<double, 9>(z.template cast<double>()));
      if (feedback_on())
        step(sc_, fb, z, S(h_));
      else
        step(sc_, sys, z, S(h_));
      const Vec<double, 9> zd = z.template cast<double>();
      const Vec<double, 5> q = skate_zeta(zd);
      const Vec<double, 8> F = ref.invariants(zd);
      const bool go = mon_->record(F.data(), all_finite(zd));
      track(k, prev, q);
      if ((k + 1) % in_.every == 0) emit(double(k + 1) * h_, q, 0, 0, F[0] - F0[0]);
      if (done(go)) break;
    }
  }

  // The reduced model (35) with E, C1, C2, |Gamma|^2.
  void uncontrolled_reduced() {
    PendulumSkate<S> sys{sp_};
    PendulumSkate<double> ref{params_double()};
    Vec<S, 5> z = q0_.cast<S>();
    Vec<S, 5> samples[2] = {z, z};
    samples[1][3] = S(1);
    samples[1][4] = S(0);
    samples[1][1] *= S(3);
    auto fb = feedback(sys, z, balanced_gains(sys, samples, rate_for(4)));
    use_feedback(fb, samples, 4);
    const Vec<double, 4> F0 = ref.invariants(q0_);
    mon_.emplace(kInvariants, 4, F0.data());
    emit(0, q0_, 0, 0, 0);
    for (int64_t k = 0; k < in_.steps; ++k) {
      const Vec<double, 5> prev = z.template cast<double>();
      if (feedback_on())
        step(sc_, fb, z, S(h_));
      else
        step(sc_, sys, z, S(h_));
      const Vec<double, 5> q = z.template cast<double>();
      const Vec<double, 4> F = ref.invariants(q);
      const bool go = mon_->record(F.data(), all_finite(q));
      track(k, prev, q);
      if ((k + 1) % in_.every == 0) emit(double(k + 1) * h_, q, 0, 0, F[0] - F0[0]);
      if (done(go)) break;
    }
  }

  // The law (56) for --sigma: refused (exit 5, or 3 outside (58) unless --unchecked).
  Result<SkateRotorLaw<S>> make_law() const {
    const S sigma = S(in_.sigma);
    auto law = a_.flag("unchecked") ? SkateRotorLaw<S>::make_unchecked(rp_, sigma) : SkateRotorLaw<S>::make(rp_, sigma);
    // sigma = 0 (no law) or the singular sigma: --unchecked would not help, so it is not advised.
    if (!law && (sigma == S(0) || law.error() != Error::outside_stability_range))
      throw Failure(cli::exit_invalid, "--sigma = " + exact(in_.sigma) + " refused: " +
                                           (sigma == S(0) ? std::string("sigma = 0 in this precision is no law")
                                                          : to_string(law.error())));
    if (!law) {
      const auto r = skate_rotor_stability_range(rp_);
      throw Failure(cli::exit_unstable, "--sigma = " + exact(in_.sigma) + " refused: " + to_string(law.error()) +
                                            " (stability range (58): " + exact(double(r.lower)) + " < sigma < " +
                                            exact(double(r.upper)) + "; --unchecked to force)");
    }
    return law;
  }

  // The plant: the controller's model rp, or that model with --mismatch applied.
  SkateRotorParams<S> plant_params() const {
    const cli::ClosedLoopOptions& lo = in_.loop;
    const SkateRotorParams<S> pp{S(lo.plant("m", in_.m)),   S(lo.plant("l", in_.l)),   S(lo.plant("I1", in_.I1)),
                                 S(lo.plant("I2", in_.I2)), S(lo.plant("I3", in_.I3)), S(lo.plant("g", in_.g)),
                                 S(lo.plant("J1", in_.J1)), S(lo.plant("J2", in_.J2)), S(lo.plant("J3", in_.J3))};
    if (pp.validate() != Error::none)
      throw Failure(cli::exit_invalid,
                    std::string("--mismatch: the plant's parameters are invalid (") + to_string(pp.validate()) + ")");
    return pp;
  }

  // The rotor skate under the law (56), sampled (ZOH, noise) or at every stage.
  void controlled() {
    const auto law = make_law();
    const S sigma = S(in_.sigma);
    const double umax = in_.umax;
    const cli::ClosedLoopOptions& lo = in_.loop;
    PendulumSkateRotor<S> plant{plant_params(), S(0)};
    auto ctrl = [&](const Vec<S, 5>& q) {
      const S u = law->torque(q);
      return umax > 0 ? saturate(u, S(umax)) : u;
    };
    auto closed = [&](const Vec<S, 6>& x) { return plant.field(x, ctrl(Vec<S, 5>(x.template head<5>()))); };
    // The closed-loop invariants (57), (51b) of the controller's model, as a monitor on the
    // controller would compute them: conserved only without mismatch, sampling, noise and
    // saturation; their drift measures those.
    const SkateRotorParams<double> rd{double(rp_.m), double(rp_.l),  double(rp_.I1), double(rp_.I2), double(rp_.I3),
                                      double(rp_.g), double(rp_.J1), double(rp_.J2), double(rp_.J3)};
    PendulumSkate<double> matched{rd.matched(double(sigma))};
    const auto lawd = SkateRotorLaw<double>::make_unchecked(rd, double(sigma));
    Vec<S, 6> x;
    x << q0_.cast<S>(), S(in_.theta_dot);
    const Vec<double, 4> F0 = matched.invariants(q0_);
    const double pi0 = lawd->controlled_rotor_momentum(x.template cast<double>());
    const double f0[5] = {F0[0], F0[1], F0[2], F0[3], pi0};
    mon_.emplace(kControlledInvariants, 5, f0);
    emit(0, q0_, double(ctrl(x.template head<5>())), double(x[5]), 0);
    cli::HeldLaw<S> held(lo, S(0));
    for (int64_t k = 0; k < in_.steps; ++k) {
      const Vec<double, 5> prev = x.template head<5>().template cast<double>();
      const S u = held.at(k, Vec<S, 5>(x.template head<5>()), ctrl);
      if (lo.sampled) {
        plant.torque = u;
        step(sc_, plant, x, S(h_));
      } else {
        step(sc_, closed, x, S(h_));
      }
      s_.up.command(std::abs(double(u)));
      const Vec<double, 6> xd = x.template cast<double>();
      const Vec<double, 5> q = xd.head<5>();
      const Vec<double, 4> F = matched.invariants(q);
      const double Fc[5] = {F[0], F[1], F[2], F[3], lawd->controlled_rotor_momentum(xd)};
      const bool go = mon_->record(Fc, all_finite(xd));
      track(k, prev, q);
      s_.last[5] = xd[5];
      if ((k + 1) % in_.every == 0) emit(double(k + 1) * h_, q, double(u), xd[5], F[0] - F0[0]);
      if (done(go)) break;
    }
  }

  int report(cli::Json* summary) const {
    const bool controlled = in_.controlled;
    const cli::InvariantMonitor& mon = *mon_;
    cli::RunReport rep;
    rep.system = "skate", rep.precision = sizeof(S) == 4 ? "float" : "double", rep.h = h_;
    rep.method = std::string(in_.feedback ? "feedback-" : "") + to_string(sc_);
    rep.steps = s_.steps, rep.t_end = s_.t_end, rep.gains = gains_used_, rep.gains_auto = in_.auto_rate;
    rep.state_names = kStateNames, rep.final_state.assign(s_.last.data(), s_.last.data() + (controlled ? 6 : 5));
    const char* stopped = mon.stopped();
    cli::Json j;
    cli::report_head(j, rep);
    j["controlled"] = controlled, j["scheme"] = to_string(sc_);
    j["fall_time"] = s_.up.fall_json();
    j["min_gamma3"] = cli::num(s_.up.min_up), j["max_abs_u"] = cli::num(s_.up.max_u);
    j["max_tilt"] = cli::num(s_.up.max_tilt), j["final_tilt"] = cli::num(s_.up.final_tilt);
    j["late_max_tilt"] = s_.up.late_json(s_.steps, late_from_);
    if (controlled) {
      j["sigma"] = cli::num(in_.sigma), j["umax"] = in_.umax > 0 ? cli::num(in_.umax) : cli::Json(nullptr);
      cli::loop_json(j, in_.loop, in_.h);
    }
    if (in_.feedback) j["feedback_rate"] = cli::num(rate_used_), j["feedback_auto"] = in_.auto_rate;
    for (int i = 0; i < mon.size(); ++i) j["drift"][mon.info(i).name] = cli::num(mon.max_abs(i));
    cli::report_tail(j, rep, mon);
    return cli::finish_closed_loop(a_, "skate", stopped, s_.t_end, std::move(j), summary, [&] {
      std::printf("skate %s %s %s h=%g t=%g: ", controlled ? "controlled" : "uncontrolled", rep.precision,
                  to_string(sc_), h_, s_.t_end);
      cli::print_fall(s_.up.fall_time);
      std::printf(" min G3=%.5f max|u|=%.4g drift", s_.up.min_up, s_.up.max_u);
      for (int i = 0; i < mon.size(); ++i) std::printf(" %s=%.2e", mon.info(i).name, mon.max_abs(i));
      cli::print_text_tail(in_.feedback, rate_used_, in_.auto_rate, stopped, s_.t_end);
    });
  }

  const cli::Args& a_;
  const Inputs& in_;
  const Scheme sc_;
  const double h_;
  const SkateRotorParams<S> rp_;
  const PendulumSkateParams<S> sp_;
  const Vec<double, 5> q0_;
  const int64_t late_from_;
  const bool stop_;
  cli::Csv csv_;
  std::optional<cli::Progress> progress_;
  SkatePose<double> pose_;
  Summary s_;
  // The measuring loop's monitor (invariant_monitor.hpp): drifts, blow-up stops (exit 4).
  std::optional<cli::InvariantMonitor> mon_;
  std::vector<double> gains_used_;
  double rate_used_ = 0;
};

int skate_run(const cli::Args& a, cli::Json* summary) {
  const Inputs in = parse_inputs(a);
  return cli::run_in_precision<Run>(a, in,
                                    {in.m, in.l, in.I1, in.I2, in.I3, in.g, in.J1, in.J2, in.J3, in.sigma, in.umax,
                                     in.theta_dot, in.h, in.rate, in.q0[0], in.q0[1], in.q0[2], in.q0[3], in.q0[4]},
                                    summary);
}

}  // namespace sim_skate

ATTRACTOR_REGISTER_CLOSED_LOOP(
    "skate", "pendulum skate (paper 003): uncontrolled (35)/(21) or rotor-controlled law (56); any parameters",
    sim_skate::skate_spec, sim_skate::skate_run);
