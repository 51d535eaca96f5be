// SPDX-License-Identifier: Apache-2.0
// attractor-paper holonomic: reproduces paper 002 (Chang, Perlmutter, Vankerschaver, "Feedback
// integrators for mechanical systems with holonomic constraints") §2.3 and §2.4.
//
//   §2.3  spherical pendulum, m = g = l = 1, q0 = (0,1,0), p0 = (1,0,1), h = 1e-3, t in [0,100],
//         gains k1..k4 = 50: max and final |df1|, |df2|, |dH|, |dJ| for feedback-Euler,
//         feedback-RK4, RATTLE, Lie–Trotter, Strang and plain RK4 on the extended field
//         (no feedback), in double and in float. Figs. 1-5.
//   §2.4  planar pendulum, m = g = l = 1, q0 = (1,0), p0 = (0,0): global error after one period
//         T = 4 K(1/sqrt 2) (exact: the state returns to x0) versus step size and versus force
//         evaluations (feedback field costs 4, Hamiltonian gradient 1). Fig. 6.
//
// Tables go to stdout, CSV to --out DIR (default out/holonomic); the PNG figures are drawn by
// scripts/plots/holonomic.py from that CSV. Deviations are evaluated in double from the
// (possibly float) state, so a float run shows the state's own error, not the rounding of the
// invariant evaluation.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/rattle.hpp"
#include "attractor/integrate/splitting.hpp"
#include "attractor/integrate/stepper.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"
#include "commands.hpp"
#include "invariant_monitor.hpp"
#include "paper_checks.hpp"
#include "run_support.hpp"

// Named, not anonymous: attractor-paper is one translation unit (hil/CMakeLists.txt).
namespace paper_holonomic {

using namespace attractor;

// ---------------------------------------------------------------------------------- §2.3 ---
constexpr int kSphericalSteps = 100000;  // t in [0, 100] at h = 1e-3
constexpr int kSample = 100;             // time series: every 100 steps (t = 0.1)
const char* const kMethods[] = {"feedback-euler", "feedback-rk4", "rattle", "lie-trotter", "strang", "rk4"};
constexpr int kMethodCount = 6;

struct Stats {
  double max[4] = {0, 0, 0, 0};         // max over t in [0, 100]
  double final_[4] = {0, 0, 0, 0};      // at t = 100
  double max_first[4] = {0, 0, 0, 0};   // max over t in [0, 50]
  double max_second[4] = {0, 0, 0, 0};  // max over t in (50, 100]
  long force_cost = 0;                  // paper 002 §2.4 units: feedback field 4, grad H 1
};

Vec<double, 4> spherical_invariants_double(const Vec<double, 6>& x) {
  return SphericalPendulum<double>{}.invariants(x);
}

// Paper 002 §2.3's invariants: the constraint f1 = |q|^2, its hidden constraint f2 = q.p,
// the energy H and the vertical angular momentum J.
const attractor::cli::InvariantInfo kSphericalInvariants[] = {{"f1", attractor::cli::InvariantKind::constraint},
                                                              {"f2", attractor::cli::InvariantKind::constraint},
                                                              {"H", attractor::cli::InvariantKind::energy},
                                                              {"J", attractor::cli::InvariantKind::momentum}};

template <class S, class Step>
Stats run_spherical(const char* precision, const char* method, Step&& step_fn, long cost_per_step, std::FILE* series) {
  using State = Vec<S, 6>;
  const State x0 = SphericalPendulum<S>::state(Vec3<S>(S(0), S(1), S(0)), Vec3<S>(S(1), S(0), S(1)));
  const Vec<double, 4> F0 = spherical_invariants_double(x0.template cast<double>());
  State x = x0;
  Stats st;
  // The table reports every step, so the monitor's stop rule is ignored: a method that blows
  // up shows it in its numbers.
  attractor::cli::InvariantMonitor monitor(kSphericalInvariants, 4, F0.data());
  auto record = [&](int k) {
    const Vec<double, 6> xd = x.template cast<double>();
    const Vec<double, 4> F = spherical_invariants_double(xd);
    // The monitor does not record a non-finite state; the table then shows final deviations NaN.
    const bool finite = F.allFinite();
    monitor.record(F.data());
    Vec<double, 4> dF;
    for (int i = 0; i < 4; ++i) dF[i] = finite ? monitor.final_abs(i) : double(NAN);
    if (k == kSphericalSteps / 2) {  // t = 50: the first half is [0, 50], the second (50, 100]
      for (int i = 0; i < 4; ++i) st.max_first[i] = monitor.max_abs(i);
      monitor.mark();
    }
    for (int i = 0; i < 4; ++i) {
      st.max[i] = monitor.max_abs(i);
      st.max_second[i] = monitor.max_since_mark(i);
      st.final_[i] = dF[i];
    }
    if (series != nullptr && k % kSample == 0)
      std::fprintf(series, "%s,%s,%.4f,%.17g,%.17g,%.17g,%.6e,%.6e,%.6e,%.6e\n", precision, method, k * 1e-3, xd[0],
                   xd[1], xd[2], dF[0], dF[1], dF[2], dF[3]);
  };
  record(0);
  for (int k = 1; k <= kSphericalSteps; ++k) {
    step_fn(x);
    record(k);
  }
  st.force_cost = cost_per_step * kSphericalSteps;
  return st;
}

template <class S>
Stats spherical_method(int method, const char* precision, std::FILE* series) {
  using Sys = SphericalPendulum<S>;
  using State = typename Sys::State;
  const Sys sys{};
  const S h = S(1e-3);
  const State x0 = Sys::state(Vec3<S>(S(0), S(1), S(0)), Vec3<S>(S(1), S(0), S(1)));
  const Vec<S, 4> gains = Vec<S, 4>::Constant(S(50));  // k1 = k2 = k3 = k4 = 50 (paper 002 §2.3)
  const auto fb = feedback(sys, x0, gains);
  const char* name = kMethods[method];
  switch (method) {
    case 0:
      return run_spherical<S>(
          precision, name, [&](State& x) { euler_step(fb, x, h); }, 4, series);
    case 1:
      return run_spherical<S>(
          precision, name, [&](State& x) { rk4_step(fb, x, h); }, 16, series);
    case 2: {
      Rattle<Sys> r(sys, x0);
      return run_spherical<S>(
          precision, name,
          [&](State& x) {
            // No solution of the constraint (h far too large): NaN in the
            // table rather than a silently frozen state.
            if (step(r, x, h) != Error::none) x.setConstant(S(NAN));
          },
          1, series);
    }
    case 3:
      return run_spherical<S>(
          precision, name, [&](State& x) { lie_trotter_step(sys, x, h); }, 1, series);
    case 4:
      return run_spherical<S>(
          precision, name, [&](State& x) { strang_step(sys, x, h); }, 1, series);
    default: {
      // Plain RK4 on the Dirac-extended field X, no feedback term (one evaluation of X costs 1).
      auto X = [&](const State& x) { return sys.field(x); };
      return run_spherical<S>(
          precision, name, [&](State& x) { rk4_step(X, x, h); }, 4, series);
    }
  }
}

void print_spherical_table(std::FILE* text, const char* precision, const Stats* st) {
  std::fprintf(text, "\n§2.3 spherical pendulum, %s: h = 1e-3, t in [0,100], gains 50\n", precision);
  std::fprintf(text, "%-15s %10s %10s  %10s %10s  %10s %10s  %10s %10s  %s\n", "method", "max|df1|", "fin|df1|",
               "max|df2|", "fin|df2|", "max|dH|", "fin|dH|", "max|dJ|", "fin|dJ|",
               "growth(2nd/1st half max, f1 f2 H J)");
  for (int m = 0; m < kMethodCount; ++m) {
    std::fprintf(text, "%-15s", kMethods[m]);
    for (int i = 0; i < 4; ++i) std::fprintf(text, " %10.3e %10.3e ", st[m].max[i], st[m].final_[i]);
    std::fprintf(text, " ");
    for (int i = 0; i < 4; ++i)
      std::fprintf(text, " %6.2f", st[m].max_first[i] > 0 ? st[m].max_second[i] / st[m].max_first[i] : 0.0);
    std::fprintf(text, "\n");
  }
}

void write_summary(std::FILE* f, const char* precision, const Stats* st) {
  for (int m = 0; m < kMethodCount; ++m) {
    std::fprintf(f, "%s,%s", precision, kMethods[m]);
    for (int i = 0; i < 4; ++i)
      std::fprintf(f, ",%.6e,%.6e,%.6e,%.6e", st[m].max[i], st[m].final_[i], st[m].max_first[i], st[m].max_second[i]);
    std::fprintf(f, ",%ld\n", st[m].force_cost);
  }
}

// ---------------------------------------------------------------------------------- §2.4 ---
using Planar = PlanarPendulum<double>;
using PState = Planar::State;

// Gains for §2.4 (the paper does not give them): 1 keeps h * stiffness inside the stability
// interval of Euler and RK4 down to 16 steps per period (stiffness <= 4k1 + 3k2 + 3k3 = 10 on
// this orbit, |p|^2 <= 2).
constexpr double kPlanarGain = 1.0;
const char* const kPlanarMethods[] = {"feedback-euler", "feedback-rk4", "rattle"};
constexpr long kPlanarCost[] = {4, 16, 1};  // per step: 1 or 4 feedback fields x 4; RATTLE 1 grad

PState planar_x0() { return PState(1, 0, 0, 0); }

// Global error |x_n - x(T)| after one period with n steps (x(T) = x0 exactly); NaN if the
// step is refused as unstable for the feedback term.
double planar_error(int method, long n) {
  const Planar sys{};
  const PState x0 = planar_x0();
  const double T = *sys.period(x0);
  const double h = T / double(n);
  PState x = x0;
  if (method == 2) {
    Rattle<Planar> r(sys, x0);
    for (long k = 0; k < n; ++k)
      if (r.step(h) != Error::none) return NAN;
    x = r.state();
  } else {
    const auto fb = feedback(sys, x0, Vec<double, 3>::Constant(kPlanarGain));
    const Scheme s = method == 0 ? Scheme::euler : Scheme::rk4;
    // Worst stiffness on the orbit is at the bottom, q = (0,-1), |p|^2 = 2.
    if (fb.check_step(s, h, PState(0, -1, std::sqrt(2.0), 0)) != Error::none) return NAN;
    for (long k = 0; k < n; ++k) step(s, fb, x, h);
  }
  return (x - x0).norm();
}

double observed_order(double e_coarse, double e_fine) { return std::log2(e_coarse / e_fine); }

attractor::cli::Spec holonomic_spec() {
  attractor::cli::Spec s("holonomic", "usage: attractor-paper holonomic [--out DIR] [--double-only]",
                         "paper 002 §2.3 (spherical pendulum, six methods, double and float) and §2.4 (planar\n"
                         "pendulum convergence, Fig. 6); plots: /usr/bin/python3 scripts/plots/holonomic.py DIR");
  s.output("out", "DIR", "CSV directory (default out/holonomic; created if missing)")
      .flag("double-only", "skip the float runs")
      .flag("json", "the checks as one JSON object on stdout (the tables go to stderr)");
  return s;
}

int run(const attractor::cli::Args& a) {
  const std::string out = a.given("out") ? a.text("out") : std::string("out/holonomic");
  const bool with_float = !a.flag("double-only");
  std::FILE* const text = a.flag("json") ? stderr : stdout;
  attractor::cli::PaperChecks checks;
  attractor::cli::prepare_out_dir(out);
  attractor::cli::Csv series_f, summary_f, conv_f;
  series_f.open(out + "/spherical_timeseries.csv", "--out");
  summary_f.open(out + "/spherical_summary.csv", "--out");
  conv_f.open(out + "/planar_convergence.csv", "--out");
  std::FILE* series = series_f.file();
  std::FILE* summary = summary_f.file();
  std::FILE* conv = conv_f.file();

  {
    const SphericalPendulum<double> sys{};
    const Vec<double, 6> x0(0, 1, 0, 1, 0, 1);
    const Vec<double, 4> F0 = sys.invariants(x0);
    std::fprintf(text,
                 "paper 002 §2.3 initial invariants (computed): f1 = %g, f2 = %g, H = %g, J = %g\n"
                 "  (the paper prints H0 = 2, J0 = 1: misprints; H0 = |p0|^2/2 + q0_3 = 1, "
                 "J0 = q1 p2 - q2 p1 = -1)\n",
                 F0[0], F0[1], F0[2], F0[3]);
    checks.check("§2.3 H0 (paper prints 2: misprint)", F0[2], 1, 1, "H0 = |p0|^2/2 + q0_3 = 1");
    checks.check("§2.3 J0 (paper prints 1: misprint)", F0[3], -1, -1, "J0 = q1 p2 - q2 p1 = -1");
  }

  std::fprintf(series, "precision,method,t,q1,q2,q3,df1,df2,dH,dJ\n");
  std::fprintf(summary, "precision,method");
  for (const char* n : {"df1", "df2", "dH", "dJ"})
    std::fprintf(summary, ",max_%s,final_%s,max_first_half_%s,max_second_half_%s", n, n, n, n);
  std::fprintf(summary, ",force_cost\n");

  Stats st[kMethodCount];
  for (int m = 0; m < kMethodCount; ++m) st[m] = spherical_method<double>(m, "double", series);
  print_spherical_table(text, "double", st);
  const char* const inv[4] = {"f1", "f2", "H", "J"};
  for (int i = 0; i < 4; ++i) {
    checks.check(std::string("§2.3 double feedback-rk4 max |d") + inv[i] + "|", st[1].max[i], 0, 1e-7,
                 "Figs. 1-5: feedback RK4 keeps every invariant near rounding");
    checks.check(std::string("§2.3 double feedback-euler max |d") + inv[i] + "|", st[0].max[i], 0, 1e-3,
                 "Figs. 1-5: feedback Euler bounded at O(h)");
    for (int m : {0, 1})
      checks.check(std::string("§2.3 double ") + kMethods[m] + " growth 2nd/1st half, " + inv[i],
                   st[m].max_first[i] > 0 ? st[m].max_second[i] / st[m].max_first[i] : 0, 0, 1.2,
                   "§2.3: no secular drift with feedback");
  }
  checks.check("§2.3 double rattle max |df1|", st[2].max[0], 0, 1e-12, "RATTLE keeps the constraint exactly");
  write_summary(summary, "double", st);
  if (with_float) {
    for (int m = 0; m < kMethodCount; ++m) st[m] = spherical_method<float>(m, "float", series);
    print_spherical_table(text, "float", st);
    write_summary(summary, "float", st);
  }

  // §2.4: step counts are powers of two so that budgets line up exactly: feedback-RK4 with n
  // steps, feedback-Euler with 4n and RATTLE with 16n all cost 16n force evaluations.
  const Planar sys{};
  std::fprintf(text,
               "\n§2.4 planar pendulum: global error |x_n - x0| after one period T = %.15f "
               "(gains %g)\n",
               *sys.period(planar_x0()), kPlanarGain);
  std::fprintf(conv, "method,steps,h,force_cost,error\n");
  const int lo[] = {6, 4, 4}, hi[] = {18, 13, 17};  // log2 of step counts
  for (int m = 0; m < 3; ++m) {
    std::fprintf(text, "%-15s %8s %11s %11s %11s %6s\n", kPlanarMethods[m], "steps", "h", "cost", "error", "order");
    double prev = NAN;
    for (int k = lo[m]; k <= hi[m]; ++k) {
      const long n = 1L << k;
      const double e = planar_error(m, n);
      const double h = *sys.period(planar_x0()) / double(n);
      if (std::isnan(e))
        std::fprintf(text,
                     "%-15s %8ld %11.4e %11ld %11s   (h * stiffness outside the scheme's stability "
                     "interval: refused by check_step)\n",
                     "", n, h, n * kPlanarCost[m], "refused");
      else
        std::fprintf(text, "%-15s %8ld %11.4e %11ld %11.4e %6.2f\n", "", n, h, n * kPlanarCost[m], e,
                     observed_order(prev, e));
      std::fprintf(conv, "%s,%ld,%.10e,%ld,%.10e\n", kPlanarMethods[m], n, h, n * kPlanarCost[m], e);
      prev = e;
    }
  }
  std::fprintf(text, "\n§2.4 equal force-evaluation budget (feedback-RK4 n, feedback-Euler 4n, RATTLE 16n)\n");
  std::fprintf(text, "%11s %14s %14s %14s\n", "budget", "feedback-rk4", "feedback-euler", "rattle");
  for (int k = 4; k <= 13; ++k) {
    const long n = 1L << k;
    std::fprintf(text, "%11ld %14.4e %14.4e %14.4e\n", 16 * n, planar_error(1, n), planar_error(0, 4 * n),
                 planar_error(2, 16 * n));
  }
  checks.check("§2.4 feedback-euler observed order at 4096 steps",
               observed_order(planar_error(0, 2048), planar_error(0, 4096)), 0.9, 1.1, "Fig. 6: order 1");
  checks.check("§2.4 feedback-rk4 observed order at 512 steps",
               observed_order(planar_error(1, 256), planar_error(1, 512)), 3.9, 4.1, "Fig. 6: order 4");
  checks.check("§2.4 rattle observed order at 1024 steps", observed_order(planar_error(2, 512), planar_error(2, 1024)),
               1.9, 2.1, "Fig. 6: order 2");
  series_f.close();
  summary_f.close();
  conv_f.close();
  std::fprintf(text, "\nCSV written to %s/ (plots: /usr/bin/python3 scripts/plots/holonomic.py %s)\n", out.c_str(),
               out.c_str());
  return checks.finish("holonomic", a.flag("json"), text);
}

}  // namespace paper_holonomic

ATTRACTOR_REGISTER_COMMAND(attractor::cli::PaperReports, "holonomic",
                           "paper 002 §2.3-2.4: spherical/planar pendulum, feedback vs RATTLE/splittings",
                           paper_holonomic::holonomic_spec, paper_holonomic::run);
