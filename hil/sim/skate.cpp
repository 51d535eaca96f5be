// SPDX-License-Identifier: Apache-2.0
// attractor-sim skate: the pendulum skate (paper 003), uncontrolled or rotor-controlled, with every
// parameter from the command line or a key=value config file. Host tool.
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "attractor/control/saturation.hpp"
#include "attractor/control/skate_rotor_law.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_pose.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"
#include "auto_gains.hpp"
#include "closed_loop_options.hpp"
#include "commands.hpp"
#include "run_report.hpp"
#include "run_support.hpp"
#include "skate_spec.hpp"

// Named, not anonymous: attractor-sim is one translation unit (hil/CMakeLists.txt).
namespace sim_skate {

using namespace attractor;
using cli::exact;
using cli::Failure;

struct Summary {
  double fall_time = -1, min_g3 = 1, max_u = 0, t_end = 0;
  double max_tilt = 0, final_tilt = 0, late_max_tilt = 0;  // tilt = atan2(|Gamma2|, Gamma3); late: t >= 3T/4
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

struct Inputs {
  bool controlled = false;
  double m, l, I1, I2, I3, g, J1, J2, J3, sigma = 0, umax = 0, theta_dot = 0, h, T, rate = 0;
  bool feedback = false, auto_rate = false;
  int64_t steps = 0, every = 1;
  Vec<double, 5> q0;
  cli::ClosedLoopOptions loop;  // --control-rate, --noise, --mismatch (controlled only)
};

const std::vector<std::string> kMismatchKeys = {"m", "l", "I1", "I2", "I3", "g", "J1", "J2", "J3"};

template <class S>
int run(const cli::Args& a, const Inputs& in) {
  const bool controlled = in.controlled;
  for (double v : {in.m, in.l, in.I1, in.I2, in.I3, in.g, in.J1, in.J2, in.J3, in.sigma, in.umax, in.theta_dot, in.h,
                   in.rate, in.q0[0], in.q0[1], in.q0[2], in.q0[3], in.q0[4]})
    if (!(std::abs(v) <= double(std::numeric_limits<S>::max())))
      throw Failure(cli::exit_invalid, "an input (" + exact(v) + ") is beyond the range of float");
  const std::string model = a.choice("model"), scheme_s = a.choice("scheme");
  const Scheme sc = scheme_s == "euler" ? Scheme::euler : scheme_s == "heun" ? Scheme::heun : Scheme::rk4;
  const double h = in.h;
  SkateRotorParams<S> rp{S(in.m), S(in.l), S(in.I1), S(in.I2), S(in.I3), S(in.g), S(in.J1), S(in.J2), S(in.J3)};
  const PendulumSkateParams<S> sp{rp.m, rp.l, rp.I1, rp.I2, rp.I3, rp.g};
  const Error pe = controlled ? rp.validate() : sp.validate();
  if (pe != Error::none)
    throw Failure(cli::exit_invalid,
                  std::string("parameters not representable in this precision (") + to_string(pe) + ")");
  const Vec<double, 5> q0 = in.q0;
  cli::Csv csv;
  if (a.given("csv")) {
    csv.open(a.text("csv"));
    csv.print("t,v1,v2,v3,G2,G3,Omega1,Omega2,Omega3,Y1,u,theta_dot,x1,x2,dE\n");
  }
  const int64_t every = in.every, steps = in.steps, late_from = cli::last_quarter_from(steps);
  const bool stop = a.flag("stop-at-fall");
  Summary s;
  cli::Progress progress("skate", steps);
  SkatePose<double> pose = skate_pose_from_gamma(Vec3<double>(0, q0[3], q0[4]));
  auto emit = [&](double t, const Vec<double, 5>& q, double u, double thd, double dE) {
    if (!csv.is_open()) return;
    Vec3<double> W, Y;
    skate_body_rates(q, W, Y);
    csv.print("%.6f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.3e\n", t, q[0], q[1], q[2], q[3],
              q[4], W[0], W[1], W[2], Y[0], u, thd, pose.x[0], pose.x[1], dE);
  };
  auto track = [&](int64_t k, const Vec<double, 5>& prev, const Vec<double, 5>& q) {
    const double t = double(k + 1) * h;
    Vec3<double> W0, Y0, W1, Y1;
    skate_body_rates(prev, W0, Y0);
    skate_body_rates(q, W1, Y1);
    advance_pose(pose, W0, Y0, W1, Y1, h);
    s.min_g3 = std::min(s.min_g3, q[4]);
    s.final_tilt = std::atan2(std::abs(q[3]), q[4]);
    s.max_tilt = std::max(s.max_tilt, s.final_tilt);
    if (k >= late_from) s.late_max_tilt = std::max(s.late_max_tilt, s.final_tilt);
    if (s.fall_time < 0 && q[4] <= 0 && prev[4] > 0) s.fall_time = t - h + h * prev[4] / (prev[4] - q[4]);
    s.t_end = t, s.steps = k + 1;
    s.last.head<5>() = q;
    progress.tick(k + 1);
  };
  // The measuring loop's monitor (invariant_monitor.hpp): drifts, blow-up stops (exit 4).
  std::optional<cli::InvariantMonitor> mon;
  std::vector<double> gains_used;
  // Feedback step check over the region the samples span (exit 3 unless --unchecked).
  double rate_used = 0;
  auto check = [&](const auto& fb, const auto& samples) {
    for (const auto& x : samples)
      if (fb.check_step(sc, S(h), x) != Error::none && !a.flag("unchecked")) {
        char b[400];
        std::snprintf(b, sizeof b,
                      "step refused by check_step: h * stiffness = %.4g at a state of the reachable region, the %s "
                      "stability limit is %.4g; lower --h or --feedback (--unchecked to run anyway)",
                      double(S(h) * fb.stiffness(x)), to_string(sc), double(real_stability_limit<S>(sc)));
        throw Failure(cli::exit_unstable, b);
      }
  };
  auto rate_for = [&](int M) {
    rate_used = in.auto_rate ? cli::kAutoGainSafety * double(real_stability_limit<S>(sc)) / (h * M) : in.rate;
    return S(rate_used > 0 ? rate_used : 1);
  };

  if (!controlled) {
    const bool fbon = in.feedback && (in.auto_rate || in.rate > 0);
    const PendulumSkateParams<double> spd{double(sp.m),  double(sp.l),  double(sp.I1),
                                          double(sp.I2), double(sp.I3), double(sp.g)};
    if (model == "full") {
      PendulumSkateFull<S> sys{sp};
      PendulumSkateFull<double> ref{spd};
      Vec<S, 9> z = skate_full(q0).cast<S>();
      Vec<S, 9> samples[2] = {z, z};
      samples[1].template tail<3>() << S(0), S(1), S(0);
      auto fb = feedback(sys, z, balanced_gains(sys, samples, rate_for(8)));
      if (fbon) check(fb, samples), gains_used.assign(fb.gains().data(), fb.gains().data() + 8);
      const Vec<double, 8> F0 = ref.invariants(z.template cast<double>());
      mon.emplace(kInvariants, 8, F0.data());
      emit(0, q0, 0, 0, 0);
      for (int64_t k = 0; k < steps; ++k) {
        const Vec<double, 5> prev = skate_zeta(Vec<double, 9>(z.template cast<double>()));
        if (fbon)
          step(sc, fb, z, S(h));
        else
          step(sc, sys, z, S(h));
        const Vec<double, 9> zd = z.template cast<double>();
        const Vec<double, 5> q = skate_zeta(zd);
        const Vec<double, 8> F = ref.invariants(zd);
        const bool go = mon->record(F.data(), all_finite(zd));
        track(k, prev, q);
        if ((k + 1) % every == 0) emit(double(k + 1) * h, q, 0, 0, F[0] - F0[0]);
        if (!go || (stop && s.fall_time >= 0)) break;
      }
    } else {
      PendulumSkate<S> sys{sp};
      PendulumSkate<double> ref{spd};
      Vec<S, 5> z = q0.cast<S>();
      Vec<S, 5> samples[2] = {z, z};
      samples[1][3] = S(1);
      samples[1][4] = S(0);
      samples[1][1] *= S(3);
      auto fb = feedback(sys, z, balanced_gains(sys, samples, rate_for(4)));
      if (fbon) check(fb, samples), gains_used.assign(fb.gains().data(), fb.gains().data() + 4);
      const Vec<double, 4> F0 = ref.invariants(q0);
      mon.emplace(kInvariants, 4, F0.data());
      emit(0, q0, 0, 0, 0);
      for (int64_t k = 0; k < steps; ++k) {
        const Vec<double, 5> prev = z.template cast<double>();
        if (fbon)
          step(sc, fb, z, S(h));
        else
          step(sc, sys, z, S(h));
        const Vec<double, 5> q = z.template cast<double>();
        const Vec<double, 4> F = ref.invariants(q);
        const bool go = mon->record(F.data(), all_finite(q));
        track(k, prev, q);
        if ((k + 1) % every == 0) emit(double(k + 1) * h, q, 0, 0, F[0] - F0[0]);
        if (!go || (stop && s.fall_time >= 0)) break;
      }
    }
  } else {
    const S sigma = S(in.sigma);
    auto law = a.flag("unchecked") ? SkateRotorLaw<S>::make_unchecked(rp, sigma) : SkateRotorLaw<S>::make(rp, sigma);
    // sigma = 0 (no law) or the singular sigma: --unchecked would not help, so it is not advised.
    if (!law && (sigma == S(0) || law.error() != Error::outside_stability_range))
      throw Failure(cli::exit_invalid, "--sigma = " + exact(in.sigma) + " refused: " +
                                           (sigma == S(0) ? std::string("sigma = 0 in this precision is no law")
                                                          : to_string(law.error())));
    if (!law) {
      const auto r = skate_rotor_stability_range(rp);
      throw Failure(cli::exit_unstable, "--sigma = " + exact(in.sigma) + " refused: " + to_string(law.error()) +
                                            " (stability range (58): " + exact(double(r.lower)) + " < sigma < " +
                                            exact(double(r.upper)) + "; --unchecked to force)");
    }
    const double umax = in.umax;
    const cli::ClosedLoopOptions& lo = in.loop;
    // The plant: the controller's model rp, or that model with --mismatch applied.
    const SkateRotorParams<S> pp{S(lo.plant("m", in.m)),   S(lo.plant("l", in.l)),   S(lo.plant("I1", in.I1)),
                                 S(lo.plant("I2", in.I2)), S(lo.plant("I3", in.I3)), S(lo.plant("g", in.g)),
                                 S(lo.plant("J1", in.J1)), S(lo.plant("J2", in.J2)), S(lo.plant("J3", in.J3))};
    if (pp.validate() != Error::none)
      throw Failure(cli::exit_invalid,
                    std::string("--mismatch: the plant's parameters are invalid (") + to_string(pp.validate()) + ")");
    PendulumSkateRotor<S> plant{pp, S(0)};
    cli::SensorNoise noise(lo.noise, lo.seed);
    auto ctrl = [&](const Vec<S, 5>& q) {
      const S u = law->torque(q);
      return umax > 0 ? saturate(u, S(umax)) : u;
    };
    auto closed = [&](const Vec<S, 6>& x) { return plant.field(x, ctrl(Vec<S, 5>(x.template head<5>()))); };
    // The closed-loop invariants (57), (51b) of the controller's model, as a monitor on the
    // controller would compute them: conserved only without mismatch, sampling, noise and
    // saturation; their drift measures those.
    const SkateRotorParams<double> rd{double(rp.m), double(rp.l),  double(rp.I1), double(rp.I2), double(rp.I3),
                                      double(rp.g), double(rp.J1), double(rp.J2), double(rp.J3)};
    PendulumSkate<double> matched{rd.matched(double(sigma))};
    const auto lawd = SkateRotorLaw<double>::make_unchecked(rd, double(sigma));
    Vec<S, 6> x;
    x << q0.cast<S>(), S(in.theta_dot);
    const Vec<double, 4> F0 = matched.invariants(q0);
    const double pi0 = lawd->controlled_rotor_momentum(x.template cast<double>());
    const double f0[5] = {F0[0], F0[1], F0[2], F0[3], pi0};
    mon.emplace(kControlledInvariants, 5, f0);
    emit(0, q0, double(ctrl(x.template head<5>())), double(x[5]), 0);
    S u = S(0);
    for (int64_t k = 0; k < steps; ++k) {
      const Vec<double, 5> prev = x.template head<5>().template cast<double>();
      if (lo.sampled) {
        // Zero-order hold: a (noisy) sample every lo.hold plant steps, the torque held in between.
        if (k % lo.hold == 0) u = ctrl(noise.add(Vec<S, 5>(x.template head<5>())));
        plant.torque = u;
        step(sc, plant, x, S(h));
      } else {
        u = ctrl(Vec<S, 5>(x.template head<5>()));
        step(sc, closed, x, S(h));
      }
      s.max_u = std::max(s.max_u, std::abs(double(u)));
      const Vec<double, 6> xd = x.template cast<double>();
      const Vec<double, 5> q = xd.head<5>();
      const Vec<double, 4> F = matched.invariants(q);
      const double Fc[5] = {F[0], F[1], F[2], F[3], lawd->controlled_rotor_momentum(xd)};
      const bool go = mon->record(Fc, all_finite(xd));
      track(k, prev, q);
      s.last[5] = xd[5];
      if ((k + 1) % every == 0) emit(double(k + 1) * h, q, double(u), xd[5], F[0] - F0[0]);
      if (!go || (stop && s.fall_time >= 0)) break;
    }
  }
  csv.close();

  cli::RunReport rep;
  rep.system = "skate", rep.precision = sizeof(S) == 4 ? "float" : "double", rep.h = h;
  rep.method = std::string(in.feedback ? "feedback-" : "") + to_string(sc);
  rep.steps = s.steps, rep.t_end = s.t_end, rep.gains = gains_used, rep.gains_auto = in.auto_rate;
  rep.state_names = kStateNames, rep.final_state.assign(s.last.data(), s.last.data() + (controlled ? 6 : 5));
  const char* stopped = mon->stopped();
  if (a.flag("json")) {
    cli::Json j;
    cli::report_head(j, rep);
    j["controlled"] = controlled, j["scheme"] = to_string(sc);
    j["fall_time"] = s.fall_time >= 0 ? cli::num(s.fall_time) : cli::Json(nullptr);
    j["min_gamma3"] = cli::num(s.min_g3), j["max_abs_u"] = cli::num(s.max_u);
    j["max_tilt"] = cli::num(s.max_tilt), j["final_tilt"] = cli::num(s.final_tilt);
    j["late_max_tilt"] = s.steps > cli::last_quarter_from(in.steps) ? cli::num(s.late_max_tilt) : cli::Json(nullptr);
    if (controlled) {
      j["sigma"] = cli::num(in.sigma), j["umax"] = in.umax > 0 ? cli::num(in.umax) : cli::Json(nullptr);
      cli::loop_json(j, in.loop, in.h);
    }
    if (in.feedback) j["feedback_rate"] = cli::num(rate_used), j["feedback_auto"] = in.auto_rate;
    for (int i = 0; i < mon->size(); ++i) j["drift"][mon->info(i).name] = cli::num(mon->max_abs(i));
    cli::report_tail(j, rep, *mon);
    cli::print_json(j);
  } else {
    std::printf("skate %s %s %s h=%g t=%g: ", controlled ? "controlled" : "uncontrolled", rep.precision, to_string(sc),
                h, s.t_end);
    if (s.fall_time >= 0)
      std::printf("fall t=%.4f", s.fall_time);
    else
      std::printf("no fall");
    std::printf(" min G3=%.5f max|u|=%.4g drift", s.min_g3, s.max_u);
    for (int i = 0; i < mon->size(); ++i) std::printf(" %s=%.2e", mon->info(i).name, mon->max_abs(i));
    if (in.feedback) std::printf(" | feedback rate %.4g%s", rate_used, in.auto_rate ? " (auto)" : "");
    if (stopped) std::printf(" | STOPPED: %s at t=%g", stopped, s.t_end);
    std::printf("\n");
  }
  if (stopped) std::fprintf(stderr, "skate: run stopped at t=%g: %s\n", s.t_end, stopped);
  return stopped ? cli::exit_blowup : cli::exit_ok;
}

int skate_run(const cli::Args& a) {
  Inputs in;
  in.controlled = a.given("sigma");
  if (in.controlled) {
    in.sigma = a.num("sigma", 0);
    a.forbid("model", "with --sigma (the rotor skate has the reduced model only)");
    a.forbid("feedback", "with --sigma (uncontrolled only)");
    a.forbid("gains", "with --sigma (uncontrolled only)");
  } else {
    for (const char* k : {"umax", "zoh", "J1", "J2", "J3", "theta-dot"}) a.forbid(k, "without --sigma");
  }
  in.m = a.num("m", in.controlled ? 3.0 : 2.0);
  in.l = a.num("l"), in.I1 = a.num("I1"), in.I2 = a.num("I2"), in.I3 = a.num("I3"), in.g = a.num("g");
  in.J1 = a.num("J1"), in.J2 = a.num("J2"), in.J3 = a.num("J3");
  if (a.given("umax")) in.umax = a.num("umax", 0);
  in.theta_dot = a.num("theta-dot");
  cli::warn_triangle("skate", "I1, I2, I3", in.I1, in.I2, in.I3);
  if (in.controlled) cli::warn_triangle("skate", "J1, J2, J3", in.J1, in.J2, in.J3);
  in.h = a.num("h");
  in.loop = cli::parse_closed_loop(a, in.controlled, in.h, kMismatchKeys);
  in.T = a.num("T", in.controlled ? 10.0 : 2.0);
  in.steps = cli::step_count(in.T, in.h, a.flag("force"));
  const double every = a.num("every");
  if (every != std::floor(every))
    throw Failure(cli::exit_invalid, "--every = " + exact(every) + " is not a whole number");
  in.every = static_cast<int64_t>(every);
  if (!a.given("csv")) a.forbid("every", "without --csv");
  const cli::FeedbackRate fr = cli::parse_feedback_rate(a, "the skate");
  in.feedback = fr.on, in.auto_rate = fr.automatic, in.rate = fr.rate;
  if (!in.controlled && !in.feedback) a.forbid("unchecked", "without --sigma or --feedback");

  // Initial state (33): zeta = (v1, v2, v3, Gamma2, Gamma3) with Gamma2^2 + Gamma3^2 = 1.
  if (a.given("zeta")) {
    for (const char* k : {"phi0", "Omega1", "Omega3", "Y1"}) a.forbid(k, "with --zeta (it replaces (59))");
    const std::vector<double> z = a.list("zeta", {});
    for (int i = 0; i < 5; ++i) in.q0[i] = z[std::size_t(i)];
    const double r2 = in.q0[3] * in.q0[3] + in.q0[4] * in.q0[4];
    if (!(std::abs(r2 - 1) <= 1e-9)) {
      if (!a.flag("project"))
        throw Failure(cli::exit_invalid, "--zeta: Gamma2^2 + Gamma3^2 = " + exact(r2) +
                                             " is off the constraint |Gamma| = 1 (use --project to normalize)");
      if (!(r2 > 0) || !std::isfinite(r2))
        throw Failure(cli::exit_invalid, "--zeta: (Gamma2, Gamma3) = 0 cannot be projected onto |Gamma| = 1");
      in.q0[3] /= std::sqrt(r2), in.q0[4] /= std::sqrt(r2);
    }
  } else {
    a.forbid("project", "without --zeta (eq. (59) is on the constraint)");
    in.q0 = skate_zeta(skate_initial_condition_59(a.num("phi0"), a.num("Omega1"), a.num("Omega3"), a.num("Y1")));
    if (!all_finite(in.q0)) throw Failure(cli::exit_invalid, "the initial state (59) is not finite");
  }
  if (!(in.q0[4] > 0))
    throw Failure(cli::exit_invalid, "initial Gamma3 = " + exact(in.q0[4]) +
                                         " is outside its range: need Gamma3 > 0 "
                                         "(the skate starts above the ice)");
  if (a.choice("precision") == "float") return run<float>(a, in);
  return run<double>(a, in);
}

}  // namespace sim_skate

ATTRACTOR_REGISTER_COMMAND(
    attractor::cli::SimSystems, "skate",
    "pendulum skate (paper 003): uncontrolled (35)/(21) or rotor-controlled law (56); any parameters",
    sim_skate::skate_spec, sim_skate::skate_run);
