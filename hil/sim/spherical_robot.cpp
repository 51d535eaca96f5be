// SPDX-License-Identifier: Apache-2.0
// attractor-sim spherical-robot: the top-heavy spherical robot with two internal rotors (paper
// 004 (0.29)–(0.30)), uncontrolled or held upright by the controlled-Lagrangian law (paper 003
// law (53) with Remark 14; lib/include/attractor/plants/spherical_robot/law.hpp), with every
// parameter from the command line or a key=value config file. Host tool.
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "attractor/control/saturation.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/plants/spherical_robot/law.hpp"
#include "attractor/systems/spherical_robot.hpp"
#include "attractor/systems/spherical_robot_pose.hpp"
#include "auto_gains.hpp"
#include "closed_loop_options.hpp"
#include "closed_loop_run.hpp"
#include "closed_loop_runs.hpp"
#include "commands.hpp"
#include "run_report.hpp"
#include "run_support.hpp"
#include "sim_run_checks.hpp"
#include "spherical_robot_inputs.hpp"
#include "spherical_robot_spec.hpp"

// Named, not anonymous: attractor-sim is one translation unit (hil/CMakeLists.txt).
namespace sim_spherical_robot {

using namespace attractor;
using cli::exact;
using cli::Failure;

// --feedback auto for the robot: the pull-back rate at most this many times the robot's fall
// rate (measured, docs/auto-gains.md: 4 keeps double RK4 within kAutoGainDriftMargin through a fall).
constexpr double kRobotAutoRatePerFallRate = 4;

struct Summary {
  cli::UprightTrack up;  // tilt = arccos Gamma3, up = Gamma3
  double max_rotor = 0, max_excursion = 0, t_end = 0;
  Vec<double, 2> position = Vec<double, 2>::Zero();
  int64_t steps = 0;
};

using cli::InvariantKind;
constexpr cli::InvariantInfo kInvariants[5] = {{"E", InvariantKind::energy},
                                               {"pi1", InvariantKind::momentum},
                                               {"pi2", InvariantKind::momentum},
                                               {"G", InvariantKind::constraint},
                                               {"J", InvariantKind::momentum}};
// Controlled: the closed-loop invariants of the controller's model.
constexpr cli::InvariantInfo kControlledInvariants[5] = {{"E~", InvariantKind::energy},
                                                         {"pi~1", InvariantKind::momentum},
                                                         {"pi~2", InvariantKind::momentum},
                                                         {"G", InvariantKind::constraint},
                                                         {"J~", InvariantKind::momentum}};
constexpr const char* kStateNames[8] = {"Omega1", "Omega2", "Omega3", "G1", "G2", "G3", "theta_dot1", "theta_dot2"};

// The parameters in another precision.
template <class T, class U>
SphericalRobotParams<T> robot_params(const SphericalRobotParams<U>& p) {
  return {T(p.radius), T(p.m), T(p.l), T(p.g), T(p.I1), T(p.I2), T(p.I3), T(p.J1), T(p.J2)};
}

// The run's parameters in precision S, refused when not representable (exit 5).
template <class S>
SphericalRobotParams<S> model_params(const Inputs& in) {
  const SphericalRobotParams<S> p = robot_params<S>(in.p);
  if (p.validate() != Error::none)
    throw Failure(cli::exit_invalid,
                  std::string("parameters not representable in this precision (") + to_string(p.validate()) + ")");
  return p;
}

// The plant: the controller's model p, or that model with --mismatch applied (the law and its
// stability check use p; the plant and the invariants use pp).
template <class S>
SphericalRobotParams<S> plant_params(const Inputs& in) {
  const cli::ClosedLoopOptions& lo = in.loop;
  const SphericalRobotParams<S> pp{
      S(lo.plant("a", in.p.radius)), S(lo.plant("m", in.p.m)),   S(lo.plant("l", in.p.l)),
      S(lo.plant("g", in.p.g)),      S(lo.plant("I1", in.p.I1)), S(lo.plant("I2", in.p.I2)),
      S(lo.plant("I3", in.p.I3)),    S(lo.plant("J1", in.p.J1)), S(lo.plant("J2", in.p.J2))};
  if (pp.validate() != Error::none)
    throw Failure(cli::exit_invalid, std::string("--mismatch: the plant's parameters are invalid (") +
                                         to_string(pp.validate()) + "; need J1 < I1, J2 < I2, |l| < a)");
  return pp;
}

// The law (53) for --sigma, --sigma2: refused (exit 5, or 3 outside the stability range unless
// --unchecked).
template <class S>
Result<SphericalRobotLaw<S>> make_law(const cli::Args& a, const Inputs& in, const SphericalRobotParams<S>& p,
                                      const SphericalRobotParams<double>& pd) {
  const Vec<S, 2> sg = in.sigma.cast<S>();
  Result<SphericalRobotLaw<S>> law =
      a.flag("unchecked") ? SphericalRobotLaw<S>::make_unchecked(p, sg) : SphericalRobotLaw<S>::make(p, sg);
  if (!law) {
    const auto r1 = spherical_robot_stability_range(pd, 0), r2 = spherical_robot_stability_range(pd, 1);
    const std::string range = " (stability range: " + exact(r1.lower) + " < sigma < 0 for rotor 1, " + exact(r2.lower) +
                              " < sigma2 < 0 for rotor 2)";
    const bool zero = sg[0] == S(0) || sg[1] == S(0);  // no law: --unchecked would not help
    if (law.error() == Error::outside_stability_range && !zero)
      throw Failure(cli::exit_unstable, "--sigma = " + exact(in.sigma[0]) + ", --sigma2 = " + exact(in.sigma[1]) +
                                            " refused: outside_stability_range" + range + "; --unchecked to force");
    throw Failure(
        cli::exit_invalid,
        "--sigma = " + exact(in.sigma[0]) + ", --sigma2 = " + exact(in.sigma[1]) + " refused: " +
            (zero ? std::string("sigma = 0 in this precision is no law") : std::string(to_string(law.error()))) +
            (pd.l > 0 ? "" : " (the law needs a top-heavy robot, l > 0)"));
  }
  return law;
}

// One run: setup and validation (the constructor), the loop, the summary.
template <class S>
class Run {
 public:
  Run(const cli::Args& a, const Inputs& in)
      : a_(a),
        in_(in),
        lo_(in.loop),
        sc_(cli::parse_scheme(a.choice("scheme"))),
        h_(S(in.h)),  // a normal number of S: parse_inputs checked it (check_step_precision)
        p_(model_params<S>(in)),
        pd_(robot_params<double>(p_)),
        plant_{plant_params<S>(in)},
        ref_{robot_params<double>(plant_.p)},
        law_(in.controlled ? make_law<S>(a, in, p_, pd_) : Result<SphericalRobotLaw<S>>(Error::invalid_parameter)),
        // Closed-loop invariants of the controller's model (what a monitor on the controller computes).
        lawd_(in.controlled ? *SphericalRobotLaw<double>::make_unchecked(
                                  pd_, Vec<double, 2>(double(law_->sigma()[0]), double(law_->sigma()[1])))
                            : SphericalRobotLaw<double>{}),
        cld_{ref_, lawd_},
        x_(initial_state()),
        F0_(invariants(x_.template cast<double>())),
        // The measuring loop's monitor (invariant_monitor.hpp).
        mon_(in.controlled ? kControlledInvariants : kInvariants, 5, F0_.data()),
        rate_used_(in.rate) {
    // Which drifts stop a run beyond sanity: |Γ|² always; E / Ẽ where they are invariants.
    for (int i : {1, 2, 4}) mon_.unwatch(i);
    if (in.controlled && !(in.umax == 0 && !lo_.sampled && lo_.exact_model())) mon_.unwatch(0);
    if (in.feedback) setup_feedback();
  }

  int operator()(cli::Json* summary) {
    loop();
    csv_.close();
    return report(summary);
  }

 private:
  // Initial state; default rotor rates: π = 0 (uncontrolled) or π̃ = 0 (controlled).
  Vec<S, 8> initial_state() const {
    Vec<double, 2> th0 = in_.theta_dot;
    if (!in_.theta_dot_given)
      th0 = in_.controlled ? lawd_.zero_momentum_rotor_rates(in_.omega) : Vec<double, 2>(-in_.omega[0], -in_.omega[1]);
    Vec<S, 8> x = spherical_robot_initial_state<S>(S(in_.phi0), in_.omega.cast<S>(), th0.cast<S>());
    if (!all_finite(x)) throw Failure(cli::exit_invalid, "the initial state is not finite");
    return x;
  }
  // Invariants (double, of the run's state): open-loop or closed-loop set.
  Vec<double, 5> invariants(const Vec<double, 8>& xd) const {
    return in_.controlled ? cld_.invariants(xd) : ref_.invariants(xd);
  }

  // Feedback integrator (uncontrolled): gains balanced at x0; check_step at x0 and at the flipped
  // state with the same rates (the gradients grow as the ball flips).
  void setup_feedback() {
    // --feedback auto: the rate that keeps h * stiffness within kAutoGainSafety of the scheme's
    // stability interval for the balanced gains (hil/cli/auto_gains.hpp; M = 5 invariants),
    // capped at the robot's own scale: kRobotAutoRatePerFallRate x sqrt(m g |l| / I_P), the
    // fastest rate of the upright dynamics. A faster pull-back only adds the feedback term's own
    // error, which grows as rate^2 through a fall (docs/auto-gains.md).
    if (in_.auto_rate) {
      rate_used_ = cli::kAutoGainSafety * double(real_stability_limit<S>(sc_)) / (h_ * double(SphericalRobot<S>::M));
      double scale = 0;
      for (int axis : {0, 1})
        scale = std::max(scale, std::sqrt(std::abs(pd_.m * pd_.g * pd_.l) / pd_.pivot_inertia(axis)));
      if (scale > 0) rate_used_ = std::min(rate_used_, kRobotAutoRatePerFallRate * scale);
    }
    fb_ = spherical_robot_feedback(plant_, x_, S(rate_used_ > 0 ? rate_used_ : 1));
    if (rate_used_ == 0) fb_ = Feedback<SphericalRobot<S>>(plant_, plant_.invariants(x_), Vec<S, 5>::Zero());
    Vec<S, 8> flipped = x_;
    flipped.template segment<3>(3) << S(0), S(0), S(-1);
    const Vec<S, 8> samples[2] = {x_, flipped};
    cli::check_feedback_steps(fb_, sc_, h_, samples, a_.flag("unchecked"));
  }

  // The law's torque, saturated; ok = false for a singular closed loop.
  Vec<S, 2> control(const Vec<S, 8>& xs, bool& ok) const {
    const Vec<S, 2> u = law_->torque(xs, ok);
    const double umax = in_.umax;
    return umax > 0 ? Vec<S, 2>(saturate(u[0], S(umax)), saturate(u[1], S(umax))) : u;
  }
  void emit(double t, const Vec<double, 8>& xd, const Vec<double, 2>& u, double dE) {
    if (!csv_.is_open()) return;
    csv_.print("%.6f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.3e\n", t, xd[0], xd[1], xd[2],
               xd[3], xd[4], xd[5], xd[6], xd[7], u[0], u[1], spherical_robot_tilt(xd), pose_.position[0],
               pose_.position[1], dE);
  }
  // The summary's extremes after a recorded step.
  void track(int64_t k, const Vec<double, 8>& prev, const Vec<double, 8>& xd) {
    s_.up.record(k, in_.h, late_from_, spherical_robot_tilt(xd), prev[5], xd[5]);
    s_.max_rotor = std::max(s_.max_rotor, xd.tail<2>().cwiseAbs().maxCoeff());
    s_.position = pose_.position;
    s_.max_excursion = std::max(s_.max_excursion, pose_.position.norm());
  }

  void loop() {
    const bool controlled = in_.controlled, stop = a_.flag("stop-at-fall"), zoh = lo_.sampled;
    if (a_.given("csv")) {
      csv_.open(a_.text("csv"));
      csv_.print("t,Omega1,Omega2,Omega3,G1,G2,G3,theta_dot1,theta_dot2,u1,u2,tilt,x,y,dE\n");
    }
    pose_ = spherical_robot_pose_from_gamma(Vec3<double>(x_.template segment<3>(3).template cast<double>()));
    const S det0 = controlled ? law_->closed_loop_determinant(Vec3<S>(x_.template segment<3>(3))) : S(0);
    SphericalRobotClosedLoop<S> cl{plant_, controlled ? *law_ : SphericalRobotLaw<S>{},
                                   in_.umax > 0 ? S(in_.umax) : std::numeric_limits<S>::max()};
    SphericalRobot<S> held = plant_;
    cli::Progress progress("spherical-robot", in_.steps);
    {
      bool ok = true;
      const Vec<S, 2> u0 = controlled ? control(x_, ok) : Vec<S, 2>(Vec<S, 2>::Zero());
      emit(0, x_.template cast<double>(), u0.template cast<double>(), 0);
    }
    cli::HeldLaw<Vec<S, 2>> sampler(lo_, Vec<S, 2>::Zero());
    for (int64_t k = 0; k < in_.steps; ++k) {
      const Vec<double, 8> prev = x_.template cast<double>();
      const Vec<S, 2>& u = sampler.held();
      if (controlled) {
        bool ok = true;
        sampler.at(k, x_, [&](const Vec<S, 8>& x) { return control(x, ok); });
        if (!ok) {
          mon_.stop("singular_closed_loop");
          break;
        }
        s_.up.command(double(u.cwiseAbs().maxCoeff()));
        if (zoh) {
          held.torque = u;
          step(sc_, held, x_, h_);
        } else {
          step(sc_, cl, x_, h_);
        }
      } else if (in_.feedback) {
        step(sc_, fb_, x_, h_);
      } else {
        step(sc_, plant_, x_, h_);
      }
      const double t = double(k + 1) * in_.h;
      const Vec<double, 8> xd = x_.template cast<double>();
      advance_pose(pose_, Vec3<double>(prev.head<3>()), Vec3<double>(xd.head<3>()), pd_.radius, in_.h);
      const Vec<double, 5> F = invariants(xd);
      s_.t_end = t;
      const int64_t before = mon_.records();
      const bool go = mon_.record(F.data(), all_finite(xd));
      if (mon_.records() == before) break;  // non-finite
      s_.steps = k + 1;
      track(k, prev, xd);
      if ((k + 1) % in_.every == 0) emit(t, xd, u.template cast<double>(), F[0] - F0_[0]);
      progress.tick(k + 1);
      if (!go) break;
      if (controlled && law_->closed_loop_determinant(Vec3<S>(x_.template segment<3>(3))) * det0 <= S(0)) {
        mon_.stop("singular_closed_loop");  // det Ã(Γ) changed sign: the torque is unbounded here
        break;
      }
      if (stop && s_.up.fallen()) break;
    }
  }

  int report(cli::Json* summary) const {
    const bool controlled = in_.controlled;
    cli::RunReport rep;
    rep.system = "spherical-robot", rep.precision = sizeof(S) == 4 ? "float" : "double", rep.h = in_.h;
    rep.method = std::string(in_.feedback ? "feedback-" : "") + to_string(sc_);
    rep.steps = s_.steps, rep.t_end = s_.t_end, rep.gains_auto = in_.auto_rate;
    if (in_.feedback) rep.gains.assign(fb_.gains().data(), fb_.gains().data() + 5);
    const Vec<double, 8> xe = x_.template cast<double>();
    rep.state_names = kStateNames, rep.final_state.assign(xe.data(), xe.data() + 8);
    const char* stopped = mon_.stopped();
    cli::Json j;
    cli::report_head(j, rep);
    j["controlled"] = controlled, j["scheme"] = to_string(sc_);
    if (controlled) {
      j["sigma"] = {cli::num(in_.sigma[0]), cli::num(in_.sigma[1])};
      j["umax"] = in_.umax > 0 ? cli::num(in_.umax) : cli::Json(nullptr);
      cli::loop_json(j, lo_, in_.h);
    }
    j["fall_time"] = s_.up.fall_json();
    j["max_tilt"] = cli::num(s_.up.max_tilt), j["min_gamma3"] = cli::num(s_.up.min_up);
    j["final_tilt"] = cli::num(s_.up.final_tilt);
    j["late_max_tilt"] = s_.up.late_json(s_.steps, late_from_);
    j["max_abs_u"] = cli::num(s_.up.max_u), j["max_abs_theta_dot"] = cli::num(s_.max_rotor);
    j["position"] = {cli::num(s_.position[0]), cli::num(s_.position[1])};
    j["max_excursion"] = cli::num(s_.max_excursion);
    if (in_.feedback) j["feedback_rate"] = cli::num(rate_used_), j["feedback_auto"] = in_.auto_rate;
    for (int i = 0; i < 5; ++i) j["drift"][mon_.info(i).name] = cli::num(mon_.max_abs(i));
    cli::report_tail(j, rep, mon_);
    return cli::finish_closed_loop(a_, "spherical-robot", stopped, s_.t_end, std::move(j), summary, [&] {
      std::printf("spherical-robot %s %s %s h=%g t=%g: ", controlled ? "controlled" : "uncontrolled", rep.precision,
                  to_string(sc_), in_.h, s_.t_end);
      cli::print_fall(s_.up.fall_time);
      std::printf(" max tilt=%.5f min G3=%.5f max|u|=%.4g max|theta_dot|=%.4g xy=(%.4g,%.4g) excursion=%.4g drift",
                  s_.up.max_tilt, s_.up.min_up, s_.up.max_u, s_.max_rotor, s_.position[0], s_.position[1],
                  s_.max_excursion);
      for (int i = 0; i < 5; ++i) std::printf(" %s=%.2e", mon_.info(i).name, mon_.max_abs(i));
      cli::print_text_tail(in_.feedback, rate_used_, in_.auto_rate, stopped, s_.t_end);
    });
  }

  const cli::Args& a_;
  const Inputs& in_;
  const cli::ClosedLoopOptions& lo_;
  const Scheme sc_;
  const S h_;
  const SphericalRobotParams<S> p_;
  // The reference in double for the invariants (cast of the run's parameters).
  const SphericalRobotParams<double> pd_;
  const SphericalRobot<S> plant_;
  const SphericalRobot<double> ref_;
  const Result<SphericalRobotLaw<S>> law_;
  const SphericalRobotLaw<double> lawd_;
  const SphericalRobotClosedLoop<double> cld_;
  Vec<S, 8> x_;
  const Vec<double, 5> F0_;
  cli::InvariantMonitor mon_;
  double rate_used_;
  Feedback<SphericalRobot<S>> fb_;
  cli::Csv csv_;
  SphericalRobotPose<double> pose_;
  Summary s_;
  const int64_t late_from_ = cli::last_quarter_from(in_.steps);
};

int robot_run(const cli::Args& a, cli::Json* summary) {
  const Inputs in = parse_inputs(a);
  return cli::run_in_precision<Run>(
      a, in,
      {in.p.radius, in.p.m, in.p.l, in.p.g, in.p.I1, in.p.I2, in.p.I3, in.p.J1, in.p.J2, in.sigma[0], in.sigma[1],
       in.umax, in.h, in.omega[0], in.omega[1], in.omega[2], in.theta_dot[0], in.theta_dot[1], in.rate},
      summary);
}

}  // namespace sim_spherical_robot

ATTRACTOR_REGISTER_CLOSED_LOOP(
    "spherical-robot", "spherical robot (paper 004): uncontrolled or rotor law (paper 003 (53)); any parameters",
    sim_spherical_robot::robot_spec, sim_spherical_robot::robot_run);
