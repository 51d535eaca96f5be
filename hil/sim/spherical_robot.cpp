// SPDX-License-Identifier: Apache-2.0
// attractor-sim spherical-robot: the top-heavy spherical robot with two internal rotors (paper
// 004 (0.29)–(0.30)), uncontrolled or held upright by the controlled-Lagrangian law (paper 003
// law (53) with Remark 14; lib/include/attractor/control/spherical_robot_law.hpp), with every
// parameter from the command line or a key=value config file. Host tool.
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "attractor/control/saturation.hpp"
#include "attractor/control/spherical_robot_law.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/spherical_robot.hpp"
#include "attractor/systems/spherical_robot_pose.hpp"
#include "auto_gains.hpp"
#include "closed_loop_options.hpp"
#include "commands.hpp"
#include "run_report.hpp"
#include "run_support.hpp"
#include "spherical_robot_spec.hpp"

// Named, not anonymous: attractor-sim is one translation unit (hil/CMakeLists.txt).
namespace sim_spherical_robot {

using namespace attractor;
using cli::exact;
using cli::Failure;

struct Inputs {
  bool controlled = false;
  SphericalRobotParams<double> p;
  Vec<double, 2> sigma = Vec<double, 2>::Zero();
  double umax = 0, phi0 = 0.1, h = 1e-3, rate = 0;
  bool feedback = false, auto_rate = false;
  Vec3<double> omega = Vec3<double>(0.1, 0, 0.1);
  Vec<double, 2> theta_dot = Vec<double, 2>::Zero();
  bool theta_dot_given = false;
  int64_t steps = 0, every = 1;
  cli::ClosedLoopOptions loop;  // --control-rate, --noise, --mismatch (controlled only)
};

const std::vector<std::string> kMismatchKeys = {"a", "m", "l", "g", "I1", "I2", "I3", "J1", "J2"};
// --feedback auto for the robot: the pull-back rate at most this many times the robot's fall
// rate (measured, docs/auto-gains.md: 4 keeps double RK4 within kAutoGainDriftMargin through a fall).
constexpr double kRobotAutoRatePerFallRate = 4;

struct Summary {
  double final_tilt = 0, late_max_tilt = 0;  // late: t >= 3T/4
  double fall_time = -1, max_tilt = 0, min_g3 = 1, max_u = 0, max_rotor = 0, max_excursion = 0, t_end = 0;
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

template <class S>
int run(const cli::Args& a, const Inputs& in) {
  const bool controlled = in.controlled;
  const double vals[] = {in.p.radius, in.p.m,      in.p.l,          in.p.g,          in.p.I1, in.p.I2, in.p.I3,
                         in.p.J1,     in.p.J2,     in.sigma[0],     in.sigma[1],     in.umax, in.h,    in.omega[0],
                         in.omega[1], in.omega[2], in.theta_dot[0], in.theta_dot[1], in.rate};
  for (double v : vals)
    if (!(std::abs(v) <= double(std::numeric_limits<S>::max())))
      throw Failure(cli::exit_invalid, "an input (" + exact(v) + ") is beyond the range of float");
  const std::string scheme_s = a.choice("scheme");
  const Scheme sc = scheme_s == "euler" ? Scheme::euler : scheme_s == "heun" ? Scheme::heun : Scheme::rk4;
  const S h = S(in.h);
  const SphericalRobotParams<S> p{S(in.p.radius), S(in.p.m),  S(in.p.l),  S(in.p.g), S(in.p.I1),
                                  S(in.p.I2),     S(in.p.I3), S(in.p.J1), S(in.p.J2)};
  if (p.validate() != Error::none)
    throw Failure(cli::exit_invalid,
                  std::string("parameters not representable in this precision (") + to_string(p.validate()) + ")");
  // The reference in double for the invariants (cast of the run's parameters).
  const SphericalRobotParams<double> pd{double(p.radius), double(p.m),  double(p.l),  double(p.g), double(p.I1),
                                        double(p.I2),     double(p.I3), double(p.J1), double(p.J2)};
  // The plant: the controller's model p, or that model with --mismatch applied (the law and its
  // stability check use p; the plant and the invariants use pp).
  const cli::ClosedLoopOptions& lo = in.loop;
  const SphericalRobotParams<S> pp{
      S(lo.plant("a", in.p.radius)), S(lo.plant("m", in.p.m)),   S(lo.plant("l", in.p.l)),
      S(lo.plant("g", in.p.g)),      S(lo.plant("I1", in.p.I1)), S(lo.plant("I2", in.p.I2)),
      S(lo.plant("I3", in.p.I3)),    S(lo.plant("J1", in.p.J1)), S(lo.plant("J2", in.p.J2))};
  if (pp.validate() != Error::none)
    throw Failure(cli::exit_invalid, std::string("--mismatch: the plant's parameters are invalid (") +
                                         to_string(pp.validate()) + "; need J1 < I1, J2 < I2, |l| < a)");
  const SphericalRobotParams<double> ppd{double(pp.radius), double(pp.m),  double(pp.l),  double(pp.g), double(pp.I1),
                                         double(pp.I2),     double(pp.I3), double(pp.J1), double(pp.J2)};
  const SphericalRobot<S> plant{pp};
  const SphericalRobot<double> ref{ppd};

  Result<SphericalRobotLaw<S>> law = Error::invalid_parameter;
  if (controlled) {
    const Vec<S, 2> sg = in.sigma.cast<S>();
    law = a.flag("unchecked") ? SphericalRobotLaw<S>::make_unchecked(p, sg) : SphericalRobotLaw<S>::make(p, sg);
    if (!law) {
      const auto r1 = spherical_robot_stability_range(pd, 0), r2 = spherical_robot_stability_range(pd, 1);
      const std::string range = " (stability range: " + exact(r1.lower) + " < sigma < 0 for rotor 1, " +
                                exact(r2.lower) + " < sigma2 < 0 for rotor 2)";
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
  }
  // Closed-loop invariants of the controller's model (what a monitor on the controller computes).
  const SphericalRobotLaw<double> lawd = controlled
                                             ? *SphericalRobotLaw<double>::make_unchecked(
                                                   pd, Vec<double, 2>(double(law->sigma()[0]), double(law->sigma()[1])))
                                             : SphericalRobotLaw<double>{};
  const SphericalRobotClosedLoop<double> cld{ref, lawd};

  // Initial state; default rotor rates: π = 0 (uncontrolled) or π̃ = 0 (controlled).
  Vec<double, 2> th0 = in.theta_dot;
  if (!in.theta_dot_given)
    th0 = controlled ? lawd.zero_momentum_rotor_rates(in.omega) : Vec<double, 2>(-in.omega[0], -in.omega[1]);
  Vec<S, 8> x = spherical_robot_initial_state<S>(S(in.phi0), in.omega.cast<S>(), th0.cast<S>());
  if (!all_finite(x)) throw Failure(cli::exit_invalid, "the initial state is not finite");

  // Invariants (double, of the run's state): open-loop or closed-loop set.
  auto invariants = [&](const Vec<double, 8>& xd) { return controlled ? cld.invariants(xd) : ref.invariants(xd); };
  Summary s;
  const Vec<double, 5> F0 = invariants(x.template cast<double>());
  // The measuring loop's monitor (invariant_monitor.hpp). Which drifts stop a run beyond
  // sanity: |Γ|² always; E / Ẽ where they are invariants.
  cli::InvariantMonitor mon(controlled ? kControlledInvariants : kInvariants, 5, F0.data());
  for (int i : {1, 2, 4}) mon.unwatch(i);
  if (controlled && !(in.umax == 0 && !lo.sampled && lo.exact_model())) mon.unwatch(0);

  // Feedback integrator (uncontrolled): gains balanced at x0; check_step at x0 and at the flipped
  // state with the same rates (the gradients grow as the ball flips).
  Feedback<SphericalRobot<S>> fb;
  double rate_used = in.rate;
  if (in.feedback) {
    // --feedback auto: the rate that keeps h * stiffness within kAutoGainSafety of the scheme's
    // stability interval for the balanced gains (hil/cli/auto_gains.hpp; M = 5 invariants),
    // capped at the robot's own scale: kRobotAutoRatePerFallRate x sqrt(m g |l| / I_P), the
    // fastest rate of the upright dynamics. A faster pull-back only adds the feedback term's own
    // error, which grows as rate^2 through a fall (docs/auto-gains.md).
    if (in.auto_rate) {
      rate_used = cli::kAutoGainSafety * double(real_stability_limit<S>(sc)) / (h * double(SphericalRobot<S>::M));
      double scale = 0;
      for (int axis : {0, 1}) scale = std::max(scale, std::sqrt(std::abs(pd.m * pd.g * pd.l) / pd.pivot_inertia(axis)));
      if (scale > 0) rate_used = std::min(rate_used, kRobotAutoRatePerFallRate * scale);
    }
    fb = spherical_robot_feedback(plant, x, S(rate_used > 0 ? rate_used : 1));
    if (rate_used == 0) fb = Feedback<SphericalRobot<S>>(plant, plant.invariants(x), Vec<S, 5>::Zero());
    Vec<S, 8> flipped = x;
    flipped.template segment<3>(3) << S(0), S(0), S(-1);
    for (const Vec<S, 8>& xs : {x, flipped})
      if (fb.check_step(sc, h, xs) != Error::none && !a.flag("unchecked")) {
        char b[400];
        std::snprintf(b, sizeof b,
                      "step refused by check_step: h * stiffness = %.4g at a state of the reachable region, the %s "
                      "stability limit is %.4g; lower --h or --feedback (--unchecked to run anyway)",
                      double(h * fb.stiffness(xs)), to_string(sc), double(real_stability_limit<S>(sc)));
        throw Failure(cli::exit_unstable, b);
      }
  }

  cli::Csv csv;
  if (a.given("csv")) {
    csv.open(a.text("csv"));
    csv.print("t,Omega1,Omega2,Omega3,G1,G2,G3,theta_dot1,theta_dot2,u1,u2,tilt,x,y,dE\n");
  }
  const bool stop = a.flag("stop-at-fall"), zoh = lo.sampled;
  cli::SensorNoise noise(lo.noise, lo.seed);
  const double umax = in.umax;
  SphericalRobotPose<double> pose =
      spherical_robot_pose_from_gamma(Vec3<double>(x.template segment<3>(3).template cast<double>()));
  auto emit = [&](double t, const Vec<double, 8>& xd, const Vec<double, 2>& u, double dE) {
    if (!csv.is_open()) return;
    csv.print("%.6f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.3e\n", t, xd[0], xd[1], xd[2],
              xd[3], xd[4], xd[5], xd[6], xd[7], u[0], u[1], spherical_robot_tilt(xd), pose.position[0],
              pose.position[1], dE);
  };
  // The law's torque, saturated; ok = false for a singular closed loop.
  auto control = [&](const Vec<S, 8>& xs, bool& ok) {
    const Vec<S, 2> u = law->torque(xs, ok);
    return umax > 0 ? Vec<S, 2>(saturate(u[0], S(umax)), saturate(u[1], S(umax))) : u;
  };
  const S det0 = controlled ? law->closed_loop_determinant(Vec3<S>(x.template segment<3>(3))) : S(0);
  SphericalRobotClosedLoop<S> cl{plant, controlled ? *law : SphericalRobotLaw<S>{},
                                 umax > 0 ? S(umax) : std::numeric_limits<S>::max()};
  SphericalRobot<S> held = plant;

  cli::Progress progress("spherical-robot", in.steps);
  const int64_t late_from = cli::last_quarter_from(in.steps);
  {
    bool ok = true;
    const Vec<S, 2> u0 = controlled ? control(x, ok) : Vec<S, 2>(Vec<S, 2>::Zero());
    emit(0, x.template cast<double>(), u0.template cast<double>(), 0);
  }
  Vec<S, 2> u = Vec<S, 2>::Zero();
  for (int64_t k = 0; k < in.steps; ++k) {
    const Vec<double, 8> prev = x.template cast<double>();
    if (controlled) {
      bool ok = true;
      // Zero-order hold: a (noisy) sample every lo.hold plant steps, the torque held in between.
      if (!zoh || k % lo.hold == 0) u = control(zoh ? noise.add(x) : x, ok);
      if (!ok) {
        mon.stop("singular_closed_loop");
        break;
      }
      s.max_u = std::max(s.max_u, double(u.cwiseAbs().maxCoeff()));
      if (zoh) {
        held.torque = u;
        step(sc, held, x, h);
      } else {
        step(sc, cl, x, h);
      }
    } else if (in.feedback) {
      step(sc, fb, x, h);
    } else {
      step(sc, plant, x, h);
    }
    const double t = double(k + 1) * in.h;
    const Vec<double, 8> xd = x.template cast<double>();
    advance_pose(pose, Vec3<double>(prev.head<3>()), Vec3<double>(xd.head<3>()), pd.radius, in.h);
    const Vec<double, 5> F = invariants(xd);
    s.t_end = t;
    const int64_t before = mon.records();
    const bool go = mon.record(F.data(), all_finite(xd));
    if (mon.records() == before) break;  // non-finite
    s.steps = k + 1;
    const double tilt = spherical_robot_tilt(xd);
    s.max_tilt = std::max(s.max_tilt, tilt);
    s.final_tilt = tilt;
    if (k >= late_from) s.late_max_tilt = std::max(s.late_max_tilt, tilt);
    s.min_g3 = std::min(s.min_g3, xd[5]);
    s.max_rotor = std::max(s.max_rotor, xd.tail<2>().cwiseAbs().maxCoeff());
    s.position = pose.position;
    s.max_excursion = std::max(s.max_excursion, pose.position.norm());
    if (s.fall_time < 0 && xd[5] <= 0 && prev[5] > 0) s.fall_time = t - in.h + in.h * prev[5] / (prev[5] - xd[5]);
    if ((k + 1) % in.every == 0) emit(t, xd, u.template cast<double>(), F[0] - F0[0]);
    progress.tick(k + 1);
    if (!go) break;
    if (controlled && law->closed_loop_determinant(Vec3<S>(x.template segment<3>(3))) * det0 <= S(0)) {
      mon.stop("singular_closed_loop");  // det Ã(Γ) changed sign: the torque is unbounded here
      break;
    }
    if (stop && s.fall_time >= 0) break;
  }
  csv.close();

  cli::RunReport rep;
  rep.system = "spherical-robot", rep.precision = sizeof(S) == 4 ? "float" : "double", rep.h = in.h;
  rep.method = std::string(in.feedback ? "feedback-" : "") + to_string(sc);
  rep.steps = s.steps, rep.t_end = s.t_end, rep.gains_auto = in.auto_rate;
  if (in.feedback) rep.gains.assign(fb.gains().data(), fb.gains().data() + 5);
  const Vec<double, 8> xe = x.template cast<double>();
  rep.state_names = kStateNames, rep.final_state.assign(xe.data(), xe.data() + 8);
  const char* prec = rep.precision;
  const char* stopped = mon.stopped();
  if (a.flag("json")) {
    cli::Json j;
    cli::report_head(j, rep);
    j["controlled"] = controlled, j["scheme"] = to_string(sc);
    if (controlled) {
      j["sigma"] = {cli::num(in.sigma[0]), cli::num(in.sigma[1])};
      j["umax"] = umax > 0 ? cli::num(umax) : cli::Json(nullptr);
      cli::loop_json(j, lo, in.h);
    }
    j["fall_time"] = s.fall_time >= 0 ? cli::num(s.fall_time) : cli::Json(nullptr);
    j["max_tilt"] = cli::num(s.max_tilt), j["min_gamma3"] = cli::num(s.min_g3);
    j["final_tilt"] = cli::num(s.final_tilt),
    j["late_max_tilt"] = s.steps > cli::last_quarter_from(in.steps) ? cli::num(s.late_max_tilt) : cli::Json(nullptr);
    j["max_abs_u"] = cli::num(s.max_u), j["max_abs_theta_dot"] = cli::num(s.max_rotor);
    j["position"] = {cli::num(s.position[0]), cli::num(s.position[1])};
    j["max_excursion"] = cli::num(s.max_excursion);
    if (in.feedback) j["feedback_rate"] = cli::num(rate_used), j["feedback_auto"] = in.auto_rate;
    for (int i = 0; i < 5; ++i) j["drift"][mon.info(i).name] = cli::num(mon.max_abs(i));
    cli::report_tail(j, rep, mon);
    cli::print_json(j);
  } else {
    std::printf("spherical-robot %s %s %s h=%g t=%g: ", controlled ? "controlled" : "uncontrolled", prec, to_string(sc),
                in.h, s.t_end);
    if (s.fall_time >= 0)
      std::printf("fall t=%.4f", s.fall_time);
    else
      std::printf("no fall");
    std::printf(" max tilt=%.5f min G3=%.5f max|u|=%.4g max|theta_dot|=%.4g xy=(%.4g,%.4g) excursion=%.4g drift",
                s.max_tilt, s.min_g3, s.max_u, s.max_rotor, s.position[0], s.position[1], s.max_excursion);
    for (int i = 0; i < 5; ++i) std::printf(" %s=%.2e", mon.info(i).name, mon.max_abs(i));
    if (in.feedback) std::printf(" | feedback rate %.4g%s", rate_used, in.auto_rate ? " (auto)" : "");
    if (stopped) std::printf(" | STOPPED: %s at t=%g", stopped, s.t_end);
    std::printf("\n");
  }
  if (stopped) std::fprintf(stderr, "spherical-robot: run stopped at t=%g: %s\n", s.t_end, stopped);
  return stopped ? cli::exit_blowup : cli::exit_ok;
}

int robot_run(const cli::Args& a) {
  Inputs in;
  in.controlled = a.given("sigma");
  if (in.controlled) {
    in.sigma[0] = a.num("sigma", 0);
    in.sigma[1] = a.num("sigma2", in.sigma[0]);
    a.forbid("feedback", "with --sigma (uncontrolled only)");
    a.forbid("gains", "with --sigma (uncontrolled only)");
  } else {
    for (const char* k : {"sigma2", "umax", "zoh"}) a.forbid(k, "without --sigma");
  }
  in.p = SphericalRobotParams<double>{a.num("a"),  a.num("m"),  a.num("l"),  a.num("g"), a.num("I1"),
                                      a.num("I2"), a.num("I3"), a.num("J1"), a.num("J2")};
  if (in.p.validate() != Error::none) {
    std::string why;
    if (!(in.p.J1 < in.p.I1) || !(in.p.J2 < in.p.I2))
      why = "a rotor inertia must be below the robot's: J1 < I1, J2 < I2";
    if (!(std::abs(in.p.l) < in.p.radius)) why = "the centre of mass must lie inside the ball: |l| < a";
    throw Failure(cli::exit_invalid, "--l = " + exact(in.p.l) + ", --a = " + exact(in.p.radius) +
                                         ", --J1 = " + exact(in.p.J1) + ", --J2 = " + exact(in.p.J2) + ": " + why);
  }
  cli::warn_triangle("spherical-robot", "I1, I2, I3", in.p.I1, in.p.I2, in.p.I3);
  if (a.given("umax")) in.umax = a.num("umax", 0);
  const cli::FeedbackRate fr = cli::parse_feedback_rate(a, "the spherical robot");
  in.feedback = fr.on, in.auto_rate = fr.automatic, in.rate = fr.rate;
  if (!in.controlled && !in.feedback) a.forbid("unchecked", "without --sigma or --feedback");
  in.phi0 = a.num("phi0");
  const std::vector<double> om = a.list("Omega", {0.1, 0.0, 0.1});
  in.omega = Vec3<double>(om[0], om[1], om[2]);
  if (a.given("theta-dot")) {
    const std::vector<double> th = a.list("theta-dot", {});
    in.theta_dot = Vec<double, 2>(th[0], th[1]);
    in.theta_dot_given = true;
  }
  in.h = a.num("h");
  in.loop = cli::parse_closed_loop(a, in.controlled, in.h, kMismatchKeys);
  in.steps = cli::step_count(a.num("T"), in.h, a.flag("force"));
  const double every = a.num("every");
  if (every != std::floor(every))
    throw Failure(cli::exit_invalid, "--every = " + exact(every) + " is not a whole number");
  in.every = static_cast<int64_t>(every);
  if (!a.given("csv")) a.forbid("every", "without --csv");
  if (a.choice("precision") == "float") return run<float>(a, in);
  return run<double>(a, in);
}

}  // namespace sim_spherical_robot

ATTRACTOR_REGISTER_COMMAND(attractor::cli::SimSystems, "spherical-robot",
                           "spherical robot (paper 004): uncontrolled or rotor law (paper 003 (53)); any parameters",
                           sim_spherical_robot::robot_spec, sim_spherical_robot::robot_run);
