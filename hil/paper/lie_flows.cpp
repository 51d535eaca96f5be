// SPDX-License-Identifier: Apache-2.0
// attractor-paper lie-flows: the systems of paper 004 (Bloch, "Nonholonomic flows on Lie
// groups"), each run through its attractor-sim entry (hil/cli/feedback_system_driver.hpp,
// feedback_simulate) with feedback RK4 and plain RK4, in double and float: the invariant errors
// (constraints, energy), the exact-solution error where there is one, and the measure results of
// integrate/measure.hpp (∫ div X dt, the log-measure change with a known density). Checks of the
// reproduced properties give exit 1 when one fails. CSV: --out DIR (default out/lie-flows),
// DIR/summary.csv with one row per system × method × precision.
//
// The systems are one table, kSystems: a row names a system and the function that runs it and
// states its checks (run_case below does the runs).
#include <cmath>
#include <cstdio>
#include <string>

#include "../sim/chaplygin_sphere_entry.hpp"
#include "../sim/falling_disk_entry.hpp"
#include "../sim/sleigh_oscillating_mass_entry.hpp"
#include "../sim/sleigh_toda_entry.hpp"
#include "../sim/suslov_entry.hpp"
#include "commands.hpp"
#include "feedback_system_driver.hpp"
#include "paper_checks.hpp"
#include "run_support.hpp"

// Named, not anonymous: attractor-paper is one translation unit (hil/CMakeLists.txt).
namespace paper_lie_flows {

using namespace attractor;
using attractor::cli::FeedbackInputs;

// One run's numbers, as summary.csv has them.
struct RowResult {
  double constraint = NAN, energy = NAN, exact = NAN, divergence = NAN, log_measure = NAN, t_end = 0;
  double final_state_1 = NAN;  // the second state component at t_end (sleigh-toda: ω)
  long long steps = 0;
  bool stopped = false;
};

struct Report {
  attractor::cli::PaperChecks checks;
  attractor::cli::Csv csv;
  std::FILE* text = stdout;
};

// Runs Entry's defaults (then `tweak`) with `method` in precision S over T at step h.
template <class Entry, class S>
RowResult run_one(Report& rep, const char* system, const char* method, double T, double h,
                  void (*tweak)(FeedbackInputs&)) {
  FeedbackInputs in = attractor::cli::feedback_defaults<Entry>(method);
  in.T = T, in.T_given = true, in.h = h;
  in.measure_volume = true;  // the report's divergence and measure columns
  if (tweak) tweak(in);
  const auto o = attractor::cli::feedback_simulate<Entry, S>(in);
  RowResult r;
  const auto& mon = o.mon;
  using attractor::cli::InvariantKind;
  if (mon.has(InvariantKind::constraint)) r.constraint = mon.worst(InvariantKind::constraint);
  if (mon.has(InvariantKind::energy)) r.energy = mon.worst(InvariantKind::energy);
  r.exact = o.rep.exact_error, r.divergence = o.r.divergence_integral, r.log_measure = o.r.log_measure_change;
  r.steps = o.r.done, r.t_end = double(o.r.done) * in.h, r.stopped = mon.stopped() != nullptr;
  r.final_state_1 = o.r.last[1];
  const char* precision = sizeof(S) == 4 ? "float" : "double";
  rep.csv.print("%s,%s,%s,%lld,%.6g,%.6e,%.6e,%.6e,%.6e,%.6e,%d\n", system, method, precision, r.steps, r.t_end,
                r.constraint, r.energy, r.exact, r.divergence, r.log_measure, r.stopped ? 1 : 0);
  std::fprintf(rep.text, "  %-20s %-13s %-6s %11.3e %11.3e %11.3e %12.4e %12.4e%s\n", system, method, precision,
               r.constraint, r.energy, r.exact, r.divergence, r.log_measure, r.stopped ? "  STOPPED" : "");
  return r;
}

// The four runs of one system: [feedback-rk4, rk4] × [double, float].
struct CaseResult {
  RowResult fb_double, rk4_double, fb_float, rk4_float;
};
template <class Entry>
CaseResult run_case(Report& rep, const char* system, double T, double h, void (*tweak)(FeedbackInputs&) = nullptr) {
  CaseResult c;
  c.fb_double = run_one<Entry, double>(rep, system, "feedback-rk4", T, h, tweak);
  c.rk4_double = run_one<Entry, double>(rep, system, "rk4", T, h, tweak);
  c.fb_float = run_one<Entry, float>(rep, system, "feedback-rk4", T, h, tweak);
  c.rk4_float = run_one<Entry, float>(rep, system, "rk4", T, h, tweak);
  const std::string s(system);
  rep.checks.check(s + ": no run stopped",
                   double(c.fb_double.stopped + c.rk4_double.stopped + c.fb_float.stopped + c.rk4_float.stopped), 0, 0,
                   "accurate runs stay finite");
  return c;
}

// --- The systems -------------------------------------------------------------------------------

// Sleigh in (v, ω) = 2D Toda: the exact flow, the energy, ∫ div X dt = log(ω(T)/ω(0)) < 0.
void sleigh_toda(Report& rep) {
  const CaseResult c = run_case<attractor::sim::SleighTodaEntry>(rep, "sleigh-toda", 10, 1e-3);
  rep.checks.check("sleigh-toda double feedback-rk4 exact error", c.fb_double.exact, 0, 1e-9,
                   "Toda closed form b1 = c tanh 2ct at half the time");
  rep.checks.check("sleigh-toda double feedback-rk4 energy error", c.fb_double.energy, 0, 1e-9, "energy conserved");
  rep.checks.check("sleigh-toda float feedback-rk4 energy error", c.fb_float.energy, 0, 1e-5, "energy conserved");
  rep.checks.check("sleigh-toda ∫div X dt - log(w(T)/w0)",
                   c.rk4_double.divergence - std::log(c.rk4_double.final_state_1), -1e-6, 1e-6,
                   "div X = -k v = d/dt log w (defaults w0 = 1)");
  rep.checks.check("sleigh-toda ∫div X dt (area contracts)", c.rk4_double.divergence, -HUGE_VAL, -1,
                   "orbits approach the positive v axis");
}

// Falling disk: rolling constraints and energy kept, reduced volume preserved.
void falling_disk(Report& rep) {
  const CaseResult c = run_case<attractor::sim::FallingDiskEntry>(rep, "falling-disk", 4, 1e-3);
  rep.checks.check("falling-disk double feedback-rk4 constraint error", c.fb_double.constraint, 0, 1e-7,
                   "rolling constraints kept");
  rep.checks.check("falling-disk double feedback-rk4 energy error", c.fb_double.energy, 0, 1e-7, "energy conserved");
  rep.checks.check("falling-disk |∫div X dt|", std::abs(c.fb_double.divergence), 0, 1e-8,
                   "reduced volume preserved (density: constant shape metric)");
  rep.checks.check("falling-disk |log measure change|", std::abs(c.fb_double.log_measure), 0, 1e-8,
                   "density mR^2 + A invariant");
}

// Euler–Poincaré–Suslov on SO(3), Theorem 0.6: a an eigenvector of 𝕀 keeps the volume, a
// generic a does not (threshold |∫div X dt| > 0.1).
void suslov_eigenvector_a(FeedbackInputs& in) {
  const double p[9] = {2, 0.5, 0, 1, 0, 3, 0, 0, 1};  // inertia with eigenvector e3; a = e3
  in.params.assign(p, p + 9);
  attractor::sim::SuslovEntry::default_x0(
      attractor::cli::Params(attractor::cli::params_of<attractor::sim::SuslovEntry>(), in.params.data()), in.x0.data());
  in.gains.gains.assign(8, 10);
}
void suslov_generic_a(FeedbackInputs& in) {
  const double p[9] = {2, 0.5, 0, 1, 0, 3, 1, 1, 1};
  in.params.assign(p, p + 9);
  attractor::sim::SuslovEntry::default_x0(
      attractor::cli::Params(attractor::cli::params_of<attractor::sim::SuslovEntry>(), in.params.data()), in.x0.data());
  in.gains.gains.assign(8, 10);
}
void suslov(Report& rep) {
  const CaseResult e = run_case<attractor::sim::SuslovEntry>(rep, "suslov-eigen-a", 10, 2e-3, suslov_eigenvector_a);
  const CaseResult g = run_case<attractor::sim::SuslovEntry>(rep, "suslov-generic-a", 10, 2e-3, suslov_generic_a);
  rep.checks.check("suslov a eigenvector |∫div X dt|", std::abs(e.fb_double.divergence), 0, 1e-8,
                   "Theorem 0.6: volume preserved");
  rep.checks.check("suslov a generic |∫div X dt|", std::abs(g.fb_double.divergence), 0.1, HUGE_VAL,
                   "Theorem 0.6: necessary for SO(3)");
  rep.checks.check("suslov a generic double feedback-rk4 energy error", g.fb_double.energy, 0, 1e-9,
                   "energy kept by the feedback integrator");
}

// Chaplygin sphere: |Γ|², energy, K = M·Γ and |M|² kept; Chaplygin's density makes the measure
// invariant (log_measure_change ~ 0) while the plain volume is not (∫div X dt ≠ 0).
void chaplygin_sphere(Report& rep) {
  const CaseResult c = run_case<attractor::sim::ChaplyginSphereEntry>(rep, "chaplygin-sphere", 2, 1e-3);
  rep.checks.check("chaplygin-sphere double feedback-rk4 energy error", c.fb_double.energy, 0, 1e-8,
                   "energy conserved");
  rep.checks.check("chaplygin-sphere |log measure change|", std::abs(c.fb_double.log_measure), 0, 1e-6,
                   "Chaplygin's invariant density");
  rep.checks.check("chaplygin-sphere |∫div X dt|", std::abs(c.fb_double.divergence), 1e-4, HUGE_VAL,
                   "the plain volume is not invariant");
}

// 3D sleigh with an oscillating mass: energy kept, volume dr dṙ d⁵p preserved.
void sleigh_oscillating_mass(Report& rep) {
  const CaseResult c = run_case<attractor::sim::SleighOscillatingMassEntry>(rep, "sleigh-oscillating-mass", 2, 1e-3);
  rep.checks.check("sleigh-oscillating-mass double feedback-rk4 energy error", c.fb_double.energy, 0, 1e-9,
                   "energy conserved");
  rep.checks.check("sleigh-oscillating-mass |∫div X dt|", std::abs(c.fb_double.divergence), 0, 1e-9,
                   "volume preserved");
}

struct SystemCase {
  const char* name;
  void (*run)(Report&);
};
// One line per system.
const SystemCase kSystems[] = {
    {"sleigh-toda", sleigh_toda},
    {"falling-disk", falling_disk},
    {"suslov", suslov},
    {"chaplygin-sphere", chaplygin_sphere},
    {"sleigh-oscillating-mass", sleigh_oscillating_mass},
};

attractor::cli::Spec lie_flows_spec() {
  attractor::cli::Spec s("lie-flows", "usage: attractor-paper lie-flows [--out DIR] [--json]",
                         "paper 004 (Bloch, nonholonomic flows on Lie groups): each system's invariant errors\n"
                         "(feedback RK4 vs plain RK4, double vs float), exact-solution errors and measure checks\n"
                         "(integral of div X, log-measure change); exit 1 when a reproduced property fails");
  s.output("out", "DIR", "CSV directory (default out/lie-flows; created if missing): summary.csv")
      .flag("json", "the checks as one JSON object on stdout (the table goes to stderr)");
  return s;
}

int run(const attractor::cli::Args& a) {
  const std::string out = a.given("out") ? a.text("out") : std::string("out/lie-flows");
  Report rep;
  rep.text = a.flag("json") ? stderr : stdout;
  attractor::cli::prepare_out_dir(out);
  rep.csv.open(out + "/summary.csv", "--out");
  rep.csv.print(
      "system,method,precision,steps,t_end,constraint_error,energy_error,exact_error,"
      "divergence_integral,log_measure_change,stopped\n");
  std::fprintf(rep.text, "  %-20s %-13s %-6s %11s %11s %11s %12s %12s\n", "system", "method", "prec", "constraint",
               "energy", "exact", "int div X", "log measure");
  for (const SystemCase& c : kSystems) c.run(rep);
  rep.csv.close();
  std::fprintf(rep.text, "\nCSV written to %s/summary.csv\n", out.c_str());
  return rep.checks.finish("lie-flows", a.flag("json"), rep.text);
}

}  // namespace paper_lie_flows

ATTRACTOR_REGISTER_COMMAND(attractor::cli::PaperReports, "lie-flows",
                           "paper 004: nonholonomic flows on Lie groups, invariants and measure checks",
                           paper_lie_flows::lie_flows_spec, paper_lie_flows::run);
