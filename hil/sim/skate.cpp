// attractor-sim skate: the pendulum skate (paper 003), uncontrolled or rotor-controlled, with every
// parameter from the command line or a key=value config file. Host tool (std::string allowed).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "attractor/control/saturation.hpp"
#include "attractor/control/skate_rotor_law.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_pose.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace {

using namespace attractor;

const char* kHelp =
    "usage: attractor-sim skate [options]\n"
    "Pendulum skate (Garcia & Ohsawa, paper 003). Without --sigma: uncontrolled skate, eqs. (35)/(38)\n"
    "(--model reduced) or the full nonholonomic Euler-Poincare eqs. (21) (--model full). With --sigma:\n"
    "rotor about E1 (Example 15) driven by the controlled-Lagrangian law (56, corrected); sigma outside\n"
    "(58) -J1^2/(I1+m l^2) < sigma < 0 is refused unless --unchecked.\n\n"
    "physical parameters (SI):\n"
    "  --m M            total mass [kg] (default 2 uncontrolled, 3 with rotor)\n"
    "  --l L            contact->CM distance [m] (0.8)\n"
    "  --I1 --I2 --I3   body inertia about the CM [kg m^2] (0.35 0.35 0.004)\n"
    "  --g G            gravity [m/s^2] (9.8)\n"
    "  --J1 --J2 --J3   rotor inertia, J1 about E1 (0.005 0.0025 0.0025)\n"
    "control:\n"
    "  --sigma S        controlled-Lagrangian parameter sigma (enables the rotor)\n"
    "  --unchecked      allow sigma outside the stability range (58)\n"
    "  --umax U         torque saturation [N m] (default: none)\n"
    "  --zoh            sample the law once per step (zero-order hold, like firmware); default: law\n"
    "                   evaluated at every Runge-Kutta stage (the paper's continuous closed loop)\n"
    "initial condition (default: eq. (59) with phi0 = 0.1):\n"
    "  --phi0 P         tilt about E1 [rad];  --Omega1 W1 (0.1) --Omega3 W3 (0.1) --Y1 V (1.0) of (59)\n"
    "  --zeta v1,v2,v3,G2,G3   reduced state directly (overrides (59))\n"
    "  --theta-dot R    initial rotor rate relative to the body [rad/s] (0)\n"
    "numerics:\n"
    "  --h H            step [s] (1e-3)       --T T    duration [s] (2 uncontrolled, 10 controlled)\n"
    "  --scheme euler|heun|rk4 (rk4)          --precision float|double (double)\n"
    "  --model reduced|full (reduced; full only without rotor)\n"
    "  --feedback RATE  feedback integrator with balanced gains, pull-back rate RATE [1/s] (0 = off;\n"
    "                   uncontrolled only)\n"
    "  --stop-at-fall   stop when Gamma3 <= 0\n"
    "output:\n"
    "  --csv FILE       time series: t,v1,v2,v3,G2,G3,Omega1,Omega2,Omega3,Y1,u,theta_dot,x1,x2,dE\n"
    "  --every N        CSV every N steps (1)\n"
    "  --json           summary as one JSON object instead of the one-line text\n"
    "  --config FILE    key=value lines with the option names without '--' (command line wins)\n\n"
    "summary: fall time (first Gamma3 = 0, interpolated) or none, min Gamma3, max |u|, max invariant\n"
    "drifts (uncontrolled: E, C1, C2, |Gamma|^2 [, Gamma1, v4, v5, v6 for full]; controlled: the\n"
    "closed-loop invariants of the matched skate (57) and the controlled rotor momentum pi~ (51b)).\n";

using cli::Options;

bool parse(int argc, char** argv, Options& o) {
  return cli::parse_options("skate", argc, argv, {"unchecked", "zoh", "json", "stop-at-fall"},
                            {"m", "l", "I1", "I2", "I3", "g", "J1", "J2", "J3", "sigma", "unchecked",
                             "umax", "zoh", "phi0", "Omega1", "Omega3", "Y1", "zeta", "theta-dot", "h",
                             "T", "scheme", "precision", "model", "feedback", "stop-at-fall", "csv",
                             "every", "json", "config"},
                            o);
}

struct Summary {
  double fall_time = -1, min_g3 = 1, max_u = 0, t_end = 0;
  double drift[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int n_drift = 0;
  const char* drift_names[8] = {"E", "C1", "C2", "G2", "G1", "v4", "v5", "v6"};
  std::string error;
};

template <class S>
int run(const Options& o) {
  const bool controlled = o.has("sigma");
  const double h = o.num("h", 1e-3), T = o.num("T", controlled ? 10.0 : 2.0);
  const std::string scheme_s = o.str("scheme", "rk4"), model = o.str("model", "reduced");
  Scheme sc = Scheme::rk4;
  if (scheme_s == "euler") sc = Scheme::euler;
  else if (scheme_s == "heun") sc = Scheme::heun;
  else if (scheme_s != "rk4") {
    std::fprintf(stderr, "skate: unknown scheme '%s'\n", scheme_s.c_str());
    return 2;
  }
  if (!(h > 0) || !(T > 0)) {
    std::fprintf(stderr, "skate: --h and --T must be > 0\n");
    return 2;
  }
  SkateRotorParams<S> rp;
  rp.m = S(o.num("m", controlled ? 3.0 : 2.0));
  rp.l = S(o.num("l", 0.8));
  rp.I1 = S(o.num("I1", 0.35));
  rp.I2 = S(o.num("I2", 0.35));
  rp.I3 = S(o.num("I3", 0.004));
  rp.g = S(o.num("g", 9.8));
  rp.J1 = S(o.num("J1", 0.005));
  rp.J2 = S(o.num("J2", 0.0025));
  rp.J3 = S(o.num("J3", 0.0025));
  const PendulumSkateParams<S> sp{rp.m, rp.l, rp.I1, rp.I2, rp.I3, rp.g};
  const Error pe = controlled ? rp.validate() : sp.validate();
  if (pe != Error::none) {
    std::fprintf(stderr, "skate: invalid parameters (%s)\n", to_string(pe));
    return 2;
  }
  // initial state
  Vec<double, 5> q0;
  if (o.has("zeta")) {
    const std::string z = o.str("zeta", "");
    const char* c = z.c_str();
    for (int i = 0; i < 5; ++i) {
      char* end;
      q0[i] = std::strtod(c, &end);
      if (end == c) {
        std::fprintf(stderr, "skate: --zeta needs 5 comma-separated numbers\n");
        return 2;
      }
      c = *end == ',' ? end + 1 : end;
    }
  } else {
    q0 = skate_zeta(skate_initial_condition_59(o.num("phi0", 0.1), o.num("Omega1", 0.1), o.num("Omega3", 0.1),
                                               o.num("Y1", 1.0)));
  }
  std::FILE* csv = nullptr;
  if (o.has("csv")) {
    csv = std::fopen(o.str("csv", "").c_str(), "w");
    if (!csv) {
      std::fprintf(stderr, "skate: cannot write '%s'\n", o.str("csv", "").c_str());
      return 2;
    }
    std::fprintf(csv, "t,v1,v2,v3,G2,G3,Omega1,Omega2,Omega3,Y1,u,theta_dot,x1,x2,dE\n");
  }
  const int every = std::max(1, int(o.num("every", 1)));
  const bool stop = o.has("stop-at-fall");
  const int steps = int(std::lround(T / h));
  Summary s;
  SkatePose<double> pose = skate_pose_from_gamma(Vec3<double>(0, q0[3], q0[4]));
  auto emit = [&](double t, const Vec<double, 5>& q, double u, double thd, double dE) {
    if (!csv) return;
    Vec3<double> W, Y;
    skate_body_rates(q, W, Y);
    std::fprintf(csv, "%.6f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.3e\n", t, q[0], q[1],
                 q[2], q[3], q[4], W[0], W[1], W[2], Y[0], u, thd, pose.x[0], pose.x[1], dE);
  };
  auto track = [&](int k, const Vec<double, 5>& prev, const Vec<double, 5>& q) {
    const double t = (k + 1) * h;
    Vec3<double> W0, Y0, W1, Y1;
    skate_body_rates(prev, W0, Y0);
    skate_body_rates(q, W1, Y1);
    advance_pose(pose, W0, Y0, W1, Y1, h);
    s.min_g3 = std::min(s.min_g3, q[4]);
    if (s.fall_time < 0 && q[4] <= 0 && prev[4] > 0) s.fall_time = t - h + h * prev[4] / (prev[4] - q[4]);
    s.t_end = t;
  };

  if (!controlled) {
    const double rate = o.num("feedback", 0.0);
    if (model == "full") {
      PendulumSkateFull<S> sys{sp};
      PendulumSkateFull<double> ref{PendulumSkateParams<double>{double(sp.m), double(sp.l), double(sp.I1),
                                                                double(sp.I2), double(sp.I3), double(sp.g)}};
      Vec<S, 9> z = skate_full(q0).cast<S>();
      Vec<S, 9> samples[2] = {z, z};
      samples[1].template tail<3>() << S(0), S(1), S(0);
      auto fb = feedback(sys, z, balanced_gains(sys, samples, S(rate > 0 ? rate : 1)));
      const Vec<double, 8> F0 = ref.invariants(z.template cast<double>());
      s.n_drift = 8;
      emit(0, q0, 0, 0, 0);
      for (int k = 0; k < steps; ++k) {
        const Vec<double, 5> prev = skate_zeta(Vec<double, 9>(z.template cast<double>()));
        if (rate > 0) step(sc, fb, z, S(h));
        else step(sc, sys, z, S(h));
        const Vec<double, 9> zd = z.template cast<double>();
        const Vec<double, 5> q = skate_zeta(zd);
        const Vec<double, 8> d = ref.invariants(zd) - F0;
        for (int i = 0; i < 8; ++i) s.drift[i] = std::max(s.drift[i], std::abs(d[i]));
        track(k, prev, q);
        if ((k + 1) % every == 0) emit((k + 1) * h, q, 0, 0, d[0]);
        if (!all_finite(zd) || (stop && s.fall_time >= 0)) break;
      }
    } else if (model == "reduced") {
      PendulumSkate<S> sys{sp};
      PendulumSkate<double> ref{PendulumSkateParams<double>{double(sp.m), double(sp.l), double(sp.I1),
                                                            double(sp.I2), double(sp.I3), double(sp.g)}};
      Vec<S, 5> z = q0.cast<S>();
      Vec<S, 5> samples[2] = {z, z};
      samples[1][3] = S(1);
      samples[1][4] = S(0);
      samples[1][1] *= S(3);
      auto fb = feedback(sys, z, balanced_gains(sys, samples, S(rate > 0 ? rate : 1)));
      const Vec<double, 4> F0 = ref.invariants(q0);
      s.n_drift = 4;
      emit(0, q0, 0, 0, 0);
      for (int k = 0; k < steps; ++k) {
        const Vec<double, 5> prev = z.template cast<double>();
        if (rate > 0) step(sc, fb, z, S(h));
        else step(sc, sys, z, S(h));
        const Vec<double, 5> q = z.template cast<double>();
        const Vec<double, 4> d = ref.invariants(q) - F0;
        for (int i = 0; i < 4; ++i) s.drift[i] = std::max(s.drift[i], std::abs(d[i]));
        track(k, prev, q);
        if ((k + 1) % every == 0) emit((k + 1) * h, q, 0, 0, d[0]);
        if (!all_finite(q) || (stop && s.fall_time >= 0)) break;
      }
    } else {
      std::fprintf(stderr, "skate: unknown model '%s'\n", model.c_str());
      return 2;
    }
  } else {
    const S sigma = S(o.num("sigma", -1e-5));
    auto law = o.has("unchecked") ? SkateRotorLaw<S>::make_unchecked(rp, sigma) : SkateRotorLaw<S>::make(rp, sigma);
    if (!law) {
      const auto r = skate_rotor_stability_range(rp);
      std::fprintf(stderr, "skate: sigma = %g refused: %s (stability range (58): %g < sigma < %g; --unchecked to force)\n",
                   double(sigma), to_string(law.error()), double(r.lower), double(r.upper));
      return 3;
    }
    const double umax = o.num("umax", 0.0);
    const bool zoh = o.has("zoh");
    PendulumSkateRotor<S> plant{rp, S(0)};
    auto ctrl = [&](const Vec<S, 5>& q) {
      const S u = law->torque(q);
      return umax > 0 ? saturate(u, S(umax)) : u;
    };
    auto closed = [&](const Vec<S, 6>& x) { return plant.field(x, ctrl(Vec<S, 5>(x.template head<5>()))); };
    const SkateRotorParams<double> rd{double(rp.m), double(rp.l), double(rp.I1), double(rp.I2), double(rp.I3),
                                      double(rp.g), double(rp.J1), double(rp.J2), double(rp.J3)};
    PendulumSkate<double> matched{rd.matched(double(sigma))};
    const auto lawd = SkateRotorLaw<double>::make_unchecked(rd, double(sigma));
    Vec<S, 6> x;
    x << q0.cast<S>(), S(o.num("theta-dot", 0.0));
    const Vec<double, 4> F0 = matched.invariants(q0);
    const double pi0 = lawd->controlled_rotor_momentum(x.template cast<double>());
    s.n_drift = 5;
    s.drift_names[4] = "pi_tilde";
    emit(0, q0, double(ctrl(x.template head<5>())), double(x[5]), 0);
    for (int k = 0; k < steps; ++k) {
      const Vec<double, 5> prev = x.template head<5>().template cast<double>();
      const S u = ctrl(Vec<S, 5>(x.template head<5>()));
      s.max_u = std::max(s.max_u, std::abs(double(u)));
      if (zoh) {
        plant.torque = u;
        step(sc, plant, x, S(h));
      } else {
        step(sc, closed, x, S(h));
      }
      const Vec<double, 6> xd = x.template cast<double>();
      const Vec<double, 5> q = xd.head<5>();
      const Vec<double, 4> d = matched.invariants(q) - F0;
      for (int i = 0; i < 4; ++i) s.drift[i] = std::max(s.drift[i], std::abs(d[i]));
      s.drift[4] = std::max(s.drift[4], std::abs(lawd->controlled_rotor_momentum(xd) - pi0));
      track(k, prev, q);
      if ((k + 1) % every == 0) emit((k + 1) * h, q, double(u), xd[5], d[0]);
      if (!all_finite(xd) || (stop && s.fall_time >= 0)) break;
    }
  }
  if (csv) std::fclose(csv);

  const char* prec = sizeof(S) == 4 ? "float" : "double";
  if (o.has("json")) {
    std::printf("{\"system\":\"skate\",\"controlled\":%s,\"precision\":\"%s\",\"scheme\":\"%s\",\"h\":%g,\"t_end\":%g,",
                controlled ? "true" : "false", prec, to_string(sc), h, s.t_end);
    if (s.fall_time >= 0) std::printf("\"fall_time\":%.6f,", s.fall_time);
    else std::printf("\"fall_time\":null,");
    std::printf("\"min_gamma3\":%.6g,\"max_abs_u\":%.6g,\"drift\":{", s.min_g3, s.max_u);
    for (int i = 0; i < s.n_drift; ++i) std::printf("%s\"%s\":%.3e", i ? "," : "", s.drift_names[i], s.drift[i]);
    std::printf("}}\n");
  } else {
    std::printf("skate %s %s %s h=%g t=%g: ", controlled ? "controlled" : "uncontrolled", prec, to_string(sc), h, s.t_end);
    if (s.fall_time >= 0) std::printf("fall t=%.4f", s.fall_time);
    else std::printf("no fall");
    std::printf(" min G3=%.5f max|u|=%.4g drift", s.min_g3, s.max_u);
    for (int i = 0; i < s.n_drift; ++i) std::printf(" %s=%.2e", s.drift_names[i], s.drift[i]);
    std::printf("\n");
  }
  return 0;
}

int skate_main(int argc, char** argv) {
  if (cli::wants_help(argc, argv)) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  Options o;
  if (!parse(argc, argv, o)) return 2;
  const std::string prec = o.str("precision", "double");
  if (prec == "float") return run<float>(o);
  if (prec == "double") return run<double>(o);
  std::fprintf(stderr, "skate: --precision must be float or double\n");
  return 2;
}

}  // namespace

ATTRACTOR_REGISTER(attractor::cli::SimSystems, "skate",
                   "pendulum skate (paper 003): uncontrolled (35)/(21) or rotor-controlled law (56); any parameters",
                   skate_main);
