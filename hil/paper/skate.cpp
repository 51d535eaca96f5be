// SPDX-License-Identifier: Apache-2.0
// attractor-paper skate: reproduces paper 003 (Garcia & Ohsawa) §7 and the stability numbers.
//
//   §7.2  uncontrolled skate, m=2, l=0.8, I=(0.35,0.35,0.004), g=9.8, IC (59) with φ0=0.1:
//         fall time (Γ3 = 0; paper t ≈ 1.025), reduced (35) vs full (21), invariant drifts.  Fig. 4.
//   §7.3  rotor skate, m=3, J=(0.005,0.0025,0.0025), σ=−1e-5, law (56) corrected: Γ3 over [0,10],
//         max |u|, closed-loop invariants (57). The printed (56) for comparison.            Fig. 5.
//   (58)  runs just outside the range: σ = 1.2·lower and σ = +1e-5 (loss of stability).
//   Prop. 12 eigenvalue, Prop. 11 / A.1 energy–Casimir numbers, generic (53) vs closed form.
//
// Tables on stdout; CSV in --out DIR (default out/skate): skate_uncontrolled.csv,
// skate_controlled.csv, skate_outside_low.csv, skate_outside_pos.csv; plots by scripts/plots/skate.py.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "attractor/control/controlled_lagrangian.hpp"
#include "attractor/integrate/butcher.hpp"
#include "attractor/plants/skate_rotor/law.hpp"
#include "attractor/systems/pendulum_skate.hpp"
#include "attractor/systems/pendulum_skate_analysis.hpp"
#include "attractor/systems/pendulum_skate_pose.hpp"
#include "attractor/systems/pendulum_skate_rotor.hpp"
#include "commands.hpp"
#include "paper_checks.hpp"
#include "run_support.hpp"

// Named, not anonymous: attractor-paper is one translation unit (hil/CMakeLists.txt).
namespace paper_skate {

using namespace attractor;

struct CtrlRun {
  double fall = -1, min_g3 = 1, max_u = 0, drift = 0;
};

// Closed loop with the law at every RK4 stage; CSV t,v1,v2,v3,G2,G3,u,theta_dot.
template <class LawFn>
CtrlRun controlled(const SkateRotorParams<double>& p, const LawFn& law, double sigma, double T, double h,
                   const std::string& csv_path) {
  attractor::cli::Csv csv;
  csv.open(csv_path, "--out");
  PendulumSkateRotor<double> plant{p, 0.0};
  auto f = [&](const Vec<double, 6>& x) { return plant.field(x, law(Vec<double, 5>(x.head<5>()))); };
  Vec<double, 6> x;
  x << skate_zeta(skate_initial_condition_59(0.1)), 0.0;
  PendulumSkate<double> matched{p.matched(sigma)};
  const Vec<double, 4> F0 = matched.invariants(x.head<5>());
  std::FILE* out = csv.file();
  std::fprintf(out, "t,v1,v2,v3,G2,G3,u,theta_dot\n");
  CtrlRun r;
  const int steps = int(std::lround(T / h));
  for (int k = 0; k <= steps; ++k) {
    const double u = law(Vec<double, 5>(x.head<5>()));
    r.max_u = std::max(r.max_u, std::abs(u));
    if (out && k % 10 == 0)
      std::fprintf(out, "%.4f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", k * h, x[0], x[1], x[2], x[3], x[4], u, x[5]);
    if (k == steps) break;
    const double before = x[4];
    rk4_step(f, x, h);
    r.min_g3 = std::min(r.min_g3, x[4]);
    if (x[4] <= 0) {
      r.fall = k * h + h * before / (before - x[4]);
      break;
    }
    r.drift = std::max(r.drift, (matched.invariants(x.head<5>()) - F0).cwiseAbs().maxCoeff());
  }
  csv.close();
  return r;
}

// §7.2 uncontrolled: the fall of (59) with phi0 = 0.1, reduced (35) against full (21); the fall time.
double uncontrolled_report(const PendulumSkateParams<double>& p, double h, const std::string& dir, std::FILE* text) {
  const Vec<double, 9> z0 = skate_initial_condition_59(0.1);
  PendulumSkate<double> red{p};
  PendulumSkateFull<double> full{p};
  Vec<double, 5> q = skate_zeta(z0);
  Vec<double, 9> z = z0;
  const Vec<double, 4> F0 = red.invariants(q);
  const Vec<double, 8> G0 = full.invariants(z);
  double fall = -1, dmax = 0, drift_red = 0, drift_full = 0;
  SkatePose<double> pose = skate_pose_from_gamma(Vec3<double>(0, q[3], q[4]));
  attractor::cli::Csv unc;
  unc.open(dir + "/skate_uncontrolled.csv", "--out");
  std::FILE* out = unc.file();
  std::fprintf(out, "t,Omega1,Omega2,Omega3,Y1,G1,G2,G3,x1,x2\n");
  for (int k = 0; k < 1100 && fall < 0; ++k) {
    Vec3<double> W0, Y0, W1, Y1;
    skate_body_rates(q, W0, Y0);
    if (out && k % 5 == 0)
      std::fprintf(out, "%.4f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", k * h, z[0], z[1], z[2], z[3], z[6],
                   z[7], z[8], pose.x[0], pose.x[1]);
    const double before = q[4];
    rk4_step(red, q, h);
    rk4_step(full, z, h);
    skate_body_rates(q, W1, Y1);
    advance_pose(pose, W0, Y0, W1, Y1, h);
    dmax = std::max(dmax, (skate_zeta(z) - q).cwiseAbs().maxCoeff());
    if (q[4] <= 0)
      fall = k * h + h * before / (before - q[4]);
    else {
      drift_red = std::max(drift_red, (red.invariants(q) - F0).cwiseAbs().maxCoeff());
      drift_full = std::max(drift_full, (full.invariants(z) - G0).cwiseAbs().maxCoeff());
    }
  }
  unc.close();
  std::fprintf(text, "paper 003 §7.2 uncontrolled (m=2, l=0.8, I=(0.35,0.35,0.004), phi0=0.1, RK4 h=1e-3)\n");
  std::fprintf(text, "  fall time (Gamma3 = 0): %.5f  (paper 1.025, rel. diff %.2e)\n", fall,
               std::abs(fall - 1.025) / 1.025);
  std::fprintf(text, "  reduced (35) vs full (21) max |dzeta|: %.2e\n", dmax);
  std::fprintf(text, "  max invariant drift before the fall: reduced (E,C1,C2,|G|^2) %.2e, full (+G1,v4,v5,v6) %.2e\n",
               drift_red, drift_full);
  std::fprintf(text, "  Prop. 12 unstable eigenvalue sqrt(mgl/(I1+ml^2)) = %.6f 1/s\n", sliding_unstable_rate(p));
  return fall;
}

// Prop. 11: the spinning equilibrium's stability bound and energy–Casimir test.
void prop11_report(const PendulumSkateParams<double>& p, std::FILE* text) {
  std::fprintf(text, "\nProp. 11 spinning equilibrium (m=2, l=0.8, I=(0.35,0.35,0.004)): I3+ml^2-I2 = %.4f\n",
               p.I3 + p.m * p.l * p.l - p.I2);
  for (double W : {2.0, 4.0, 5.0, 10.0}) {
    const auto a = spinning_stability(p, W);
    const auto ec = spinning_energy_casimir(p, W);
    std::fprintf(text, "  Omega0=%5.2f: bound %.4f, lambda^2 %+.4f, c=(%.3f, %.0f, %.4f), q=(%.4f, %+.4f) -> %s\n", W,
                 a.omega_min, a.lambda2, ec.c[0], ec.c[1], ec.c[2], ec.q1, ec.q2,
                 a.verdict == SpinningStability::stable     ? "stable"
                 : a.verdict == SpinningStability::unstable ? "unstable"
                                                            : "inconclusive");
  }
}

attractor::cli::Spec skate_report_spec() {
  attractor::cli::Spec s("skate", "usage: attractor-paper skate [--out DIR]",
                         "Reproduces paper 003 §7 (Figs. 4-5), the stability range (58), Props. 11-12.");
  s.output("out", "DIR", "CSV directory (default out/skate; created if missing)")
      .flag("json", "the checks as one JSON object on stdout (the tables go to stderr)");
  return s;
}

int skate_report(const attractor::cli::Args& a) {
  const std::string dir = a.given("out") ? a.text("out") : std::string("out/skate");
  attractor::cli::prepare_out_dir(dir);
  std::FILE* const text = a.flag("json") ? stderr : stdout;
  attractor::cli::PaperChecks checks;

  const PendulumSkateParams<double> p{};
  const double h = 1e-3;
  const double fall = uncontrolled_report(p, h, dir, text);

  // ---- §7.3 controlled
  const SkateRotorParams<double> rp{};
  const double sigma = -1e-5;
  const auto range = skate_rotor_stability_range(rp);
  const auto law = SkateRotorLaw<double>::make(rp, sigma);
  const auto gen = ControlledLagrangian<SkateRotorHamel<double>>::make(SkateRotorHamel<double>::from(rp),
                                                                       Mat<double, 1, 1>::Constant(sigma));
  if (!law || !gen) {
    std::fprintf(stderr, "skate: law refused\n");
    return 1;
  }
  auto closed_form = [&](const Vec<double, 5>& zz) { return law->torque(zz); };
  double gen_diff = 0;
  auto generic = [&](const Vec<double, 5>& zz) {
    const double ug =
        gen->control(Vec<double, 3>(zz[0], zz[1], zz[2]), Vec3<double>(0, zz[3], zz[4]), Vec<double, 1>::Zero())[0];
    gen_diff = std::max(gen_diff, std::abs(ug - law->torque(zz)));
    return ug;
  };
  auto printed = [&](const Vec<double, 5>& zz) {
    const double ml = rp.m * rp.l;
    const double X =
        zz[3] * (ml * rp.g + (ml * rp.l + rp.I2 - rp.I3) * zz[4] * zz[1] * zz[1]) + ml * zz[4] * zz[1] * zz[2];
    return rp.J1 / sigma * X / (rp.Ibar1() / rp.J1);
  };
  const CtrlRun c = controlled(rp, closed_form, sigma, 10.0, h, dir + "/skate_controlled.csv");
  const CtrlRun g = controlled(rp, generic, sigma, 10.0, h, dir + "/skate_controlled_generic.csv");
  const CtrlRun pr = controlled(rp, printed, sigma, 10.0, h, dir + "/skate_printed56.csv");
  std::fprintf(text,
               "\npaper 003 §7.3 controlled (m=3, J=(0.005,0.0025,0.0025), sigma=%g, range (58): %.6e < sigma < 0)\n",
               sigma, range.lower);
  std::fprintf(
      text, "  corrected (56): min Gamma3 on [0,10] = %.5f, max |u| = %.3f N m, %s, closed-loop invariant drift %.2e\n",
      c.min_g3, c.max_u, c.fall < 0 ? "no fall" : "FELL", c.drift);
  std::fprintf(text,
               "  generic (52)/(53)+Remark 14 in the loop: min Gamma3 %.5f; max |u_generic - u_closed| = %.2e N m\n",
               g.min_g3, gen_diff);
  std::fprintf(text, "  printed (56) (misprint): %s%.3f\n", pr.fall >= 0 ? "falls at t = " : "min Gamma3 ",
               pr.fall >= 0 ? pr.fall : pr.min_g3);
  std::fprintf(text, "  closed-loop inertia I1+ml^2+J1^2/sigma = %.4f (negative: the matched skate of (57))\n",
               law->closed_loop_inertia());

  // ---- just outside (58)
  const double s_low = 1.2 * range.lower, s_pos = 1e-5;
  const auto law_low = SkateRotorLaw<double>::make_unchecked(rp, s_low);
  const auto law_pos = SkateRotorLaw<double>::make_unchecked(rp, s_pos);
  const CtrlRun lo = controlled(
      rp, [&](const Vec<double, 5>& zz) { return law_low->torque(zz); }, s_low, 10.0, h,
      dir + "/skate_outside_low.csv");
  const CtrlRun po = controlled(
      rp, [&](const Vec<double, 5>& zz) { return law_pos->torque(zz); }, s_pos, 10.0, h,
      dir + "/skate_outside_pos.csv");
  std::fprintf(text, "\nstability range (58): make(sigma=%.3e) -> %s, make(sigma=%.0e) -> %s\n", s_low,
               to_string(SkateRotorLaw<double>::make(rp, s_low).error()), s_pos,
               to_string(SkateRotorLaw<double>::make(rp, s_pos).error()));
  std::fprintf(text, "  unchecked sigma = 1.2*lower: %s%.4f (max |u| %.3g)\n",
               lo.fall >= 0 ? "falls at t = " : "min Gamma3 ", lo.fall >= 0 ? lo.fall : lo.min_g3, lo.max_u);
  std::fprintf(text, "  unchecked sigma = +1e-5:     %s%.4f (max |u| %.3g)\n",
               po.fall >= 0 ? "falls at t = " : "min Gamma3 ", po.fall >= 0 ? po.fall : po.min_g3, po.max_u);

  prop11_report(p, text);
  std::fprintf(text, "\nCSV in %s; plots: /usr/bin/python3 scripts/plots/skate.py %s\n", dir.c_str(), dir.c_str());
  checks.check("§7.2 uncontrolled fall time", fall, 1.025 * 0.99, 1.025 * 1.01, "paper t = 1.025, within 1%");
  checks.check("§7.3 corrected (56): min Gamma3 on [0, 10] (no fall)", c.fall < 0 ? c.min_g3 : -1, 0.99, 1,
               "Fig. 5: stays upright");
  checks.check("§7.3 generic (52)/(53) law minus closed form, max |du|", gen_diff, 0, 1e-9, "the same law");
  checks.check("(58) sigma = 1.2 x lower bound falls (fall time)", lo.fall, 0, 10, "outside (58): unstable");
  checks.check("(58) sigma = +1e-5 falls (fall time)", po.fall, 0, 10, "outside (58): unstable");
  return checks.finish("skate", a.flag("json"), text);
}

}  // namespace paper_skate

ATTRACTOR_REGISTER_COMMAND(
    attractor::cli::PaperReports, "skate",
    "paper 003 §7: pendulum skate fall (Fig. 4), rotor stabilization (Fig. 5), range (58), Prop. 11",
    paper_skate::skate_report_spec, paper_skate::skate_report);
