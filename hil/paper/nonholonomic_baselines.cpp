// SPDX-License-Identifier: Apache-2.0
// attractor-paper nonholonomic-baselines: the feedback integrator against paper 001's discrete
// nonholonomic integrators on the same problems, by running the attractor-sim entries: paper 001
// Example 1 (particle), Example 2 (snakeboard), Example 3 (Chaplygin sleigh), paper 000 §3.2 (knife
// edge) and §3.7 (nonholonomic oscillator), each with feedback Euler and RK4 (gains auto, from
// the scheme's stability interval at each h), plain RK4, nh-verlet and dla, in float and double,
// at a ladder of steps h. DIR/summary.csv has one row per example × method × precision × h with
// the errors (max constraint and energy deviation, |x - exact| where the example has a closed
// form, and the configuration error against a fine RK4 run in double) and the step count;
// scripts/benchmarks_nonholonomic.py joins it with the bench image's instructions per step into
// docs/BENCHMARKS.md's "who wins at which budget" table. Exit 1 when a reproduction check fails.
#include <cmath>
#include <cstdio>
#include <string>

#include "../sim/chaplygin_sleigh_entry.hpp"
#include "../sim/knife_edge_entry.hpp"
#include "../sim/nonholonomic_oscillator_entry.hpp"
#include "../sim/nonholonomic_particle_entry.hpp"
#include "../sim/snakeboard_entry.hpp"
#include "commands.hpp"
#include "paper_checks.hpp"

// Named, not anonymous: attractor-paper compiles in unity batches (hil/CMakeLists.txt).
namespace paper_nonholonomic_baselines {

using namespace attractor;
using attractor::cli::InvariantKind;

struct Outcome {
  double constraint = NAN, energy = NAN, exact = NAN, reference = NAN, t_end = 0;
  long long steps = 0;
  std::string stopped;
};

// The reference: plain RK4 in double at a tenth of the ladder's smallest step.
double reference_step(bool quick) { return quick ? 1e-3 : 1e-4; }

template <class Entry, class S>
cli::FeedbackOutcome<Entry::template System<S>::N> simulate(const std::string& method, double h, double T) {
  cli::FeedbackInputs in = cli::feedback_defaults<Entry>(method);
  in.measure_volume = false;
  in.T_given = true, in.T = T, in.h = h;
  in.gains.automatic = true;  // a feedback gain fit for each h (auto_gains.hpp)
  in.trust_default_gains = false;
  return cli::feedback_simulate<Entry, S>(in);
}

// |x - x_ref| over the first `config` states (the configuration).
template <int N>
double config_distance(const Vec<double, N>& x, const Vec<double, N>& ref, int config) {
  return (x - ref).head(config).norm();
}

template <class Entry>
Outcome run_case(const std::string& method, bool is_float, double h, double T, int config, double h_ref) {
  constexpr int N = Entry::template System<double>::N;
  static Vec<double, N> ref;  // per example: the reference of the last (T, h_ref) asked for
  static double ref_T = -1, ref_h = -1;
  if (ref_T != T || ref_h != h_ref) ref = simulate<Entry, double>("rk4", h_ref, T).r.last, ref_T = T, ref_h = h_ref;
  Outcome r;
  try {
    const auto o = is_float ? simulate<Entry, float>(method, h, T) : simulate<Entry, double>(method, h, T);
    const auto worst = [&](InvariantKind k) { return o.mon.has(k) ? o.mon.worst(k) : double(NAN); };
    r.constraint = worst(InvariantKind::constraint), r.energy = worst(InvariantKind::energy);
    r.exact = o.rep.exact_error, r.steps = o.r.done, r.t_end = double(o.r.done) * h;
    r.stopped = o.mon.stopped() ? o.mon.stopped() : "";
    if (r.stopped.empty()) r.reference = config_distance(o.r.last, ref, config);
  } catch (const cli::Failure& f) {  // e.g. check_step refuses the step: reported, not run
    r.stopped = f.code == cli::exit_unstable ? "step_refused" : "refused";
  }
  return r;
}

// One line per example. `bench` is its name in the bench rows (apps/bench/
// rows_nonholonomic_methods.cpp), `config` the number of leading states that are the
// configuration. The bound: the double nh-verlet and dla configuration errors at h = 1e-2 (about
// 4x the measured value at the full horizon; the --quick one is smaller).
struct Row {
  const char* example;
  const char* source;
  const char* bench;
  int config;
  double T;
  double bound;
  Outcome (*run)(const std::string& method, bool is_float, double h, double T, int config, double h_ref);
};
const Row kRows[] = {
    {"particle", "001 Ex. 1", "nh_particle", 3, 10, 4e-4, run_case<sim::NonholonomicParticleEntry>},
    {"snakeboard", "001 Ex. 2", "snakeboard", 5, 10, 4e-3, run_case<sim::SnakeboardEntry>},
    {"sleigh", "001 Ex. 3", "chaplygin_sleigh", 6, 10, 4e-3, run_case<sim::SleighEntry>},
    {"oscillator", "000 §3.7", "nonholonomic_oscillator", 3, 10, 4e-3, run_case<sim::NonholonomicOscillatorEntry>},
    {"knife-edge", "000 §3.2", "knife_edge", 3, 10, 4e-3, run_case<sim::KnifeEdgeEntry>},
};
const char* const kMethods[] = {"feedback-euler", "feedback-rk4", "rk4", "nh-verlet", "dla"};
const double kSteps[] = {1e-1, 1e-2, 1e-3};  // --quick: the first two

cli::Spec spec() {
  cli::Spec s("nonholonomic-baselines", "usage: attractor-paper nonholonomic-baselines [--out DIR] [--quick] [--json]",
              "paper 001's discrete nonholonomic integrators (nh-verlet, dla) against the feedback\n"
              "integrator (Euler, RK4, gains auto) and plain RK4 on the particle, the snakeboard, the\n"
              "sleigh (paper 001 Examples 1-3), the oscillator and the knife edge (paper 000 §3.7, §3.2),\n"
              "in float and double at h = 0.1, 0.01, 0.001 over t in [0, 10]; DIR/summary.csv, one\n"
              "row per example x method x precision x h; docs/nonholonomic-baselines.md");
  s.text("out", "DIR", "CSV directory (default out/nonholonomic-baselines; created if missing)")
      .flag("quick", "t in [0, 1], h = 0.1 and 0.01, reference at h = 1e-3 (the test run)")
      .flag("json", "the checks as one JSON object on stdout (the tables go to stderr)");
  return s;
}

int run(const cli::Args& a) {
  const std::string out = a.given("out") ? a.text("out") : std::string("out/nonholonomic-baselines");
  const bool quick = a.flag("quick");
  std::FILE* const text = a.flag("json") ? stderr : stdout;
  cli::PaperChecks checks;
  cli::prepare_out_dir(out);
  cli::Csv summary;
  summary.open(out + "/summary.csv", "--out");
  std::fprintf(summary.file(),
               "example,source,bench,method,precision,h,T,steps,constraint_error,energy_error,exact_error,"
               "reference_error,stopped\n");
  std::fprintf(text,
               "feedback vs paper 001's discrete methods, %s; constraint/energy: max |F_i(x) - F_i(x0)|, exact: |x - "
               "exact| at t_end, reference: configuration error against RK4 at h = %g\n",
               quick ? "--quick (t in [0, 1])" : "t in [0, 10]", reference_step(quick));
  std::fprintf(text, "%-11s %-15s %-6s %6s %8s %10s %10s %10s %10s\n", "example", "method", "prec", "h", "steps",
               "constraint", "energy", "exact", "reference");
  for (const Row& row : kRows) {
    const double T = quick ? 1 : row.T;
    for (const char* method : kMethods)
      for (bool is_float : {false, true})
        for (double h : kSteps) {
          if (quick && h < 1e-2) continue;
          const char* prec = is_float ? "float" : "double";
          const Outcome o = row.run(method, is_float, h, T, row.config, reference_step(quick));
          std::fprintf(text, "%-11s %-15s %-6s %6g %8lld", row.example, method, prec, h, o.steps);
          for (double v : {o.constraint, o.energy, o.exact, o.reference}) cli::print_value(text, " %10.3e", v);
          std::fprintf(text, "%s\n", o.stopped.empty() ? "" : (" STOPPED: " + o.stopped).c_str());
          std::fprintf(summary.file(), "%s,%s,%s,%s,%s,%g,%g,%lld", row.example, row.source, row.bench, method, prec, h,
                       T, o.steps);
          for (double v : {o.constraint, o.energy, o.exact, o.reference}) cli::print_value(summary.file(), ",%.6e", v);
          std::fprintf(summary.file(), ",%s\n", o.stopped.c_str());
          const std::string m(method);
          if (is_float || h != 1e-2 || (m != "nh-verlet" && m != "dla")) continue;
          const std::string name = std::string(row.example) + " double " + m + " h=0.01";
          checks.check(name + " configuration error", o.stopped.empty() ? o.reference : double(NAN), 0, row.bound,
                       std::string("paper ") + row.source + ": second order, runs to the end");
          if (m == "nh-verlet")  // (11c)/(11e): p~ on the constraint set to rounding
            checks.check(name + " constraint error", o.constraint, 0, 1e-12, "paper 001 eq. (11e)");
        }
  }
  summary.close();
  std::fprintf(text, "\nCSV written to %s/summary.csv (table: scripts/benchmarks_nonholonomic.py)\n", out.c_str());
  return checks.finish("nonholonomic-baselines", a.flag("json"), text);
}

}  // namespace paper_nonholonomic_baselines

ATTRACTOR_REGISTER_COMMAND(attractor::cli::PaperReports, "nonholonomic-baselines",
                           "paper 001: nh-verlet and dla against the feedback integrator, float/double, h ladder",
                           paper_nonholonomic_baselines::spec, paper_nonholonomic_baselines::run);
