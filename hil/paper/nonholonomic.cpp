// SPDX-License-Identifier: Apache-2.0
// attractor-paper nonholonomic: reproduces paper 000 §3 (the nonholonomic systems) by running
// the attractor-sim entries (hil/sim/*_entry.hpp) at their default case: the paper's experiment
// for §3.1 (Suslov), §3.2 (knife edge) and §3.7 (nonholonomic oscillator), the documented case of
// the entry for the others (§3 gives none). Every system with feedback Euler and RK4 and plain
// Euler and RK4, in double and float; the errors go to DIR/summary.csv (system × method ×
// precision), time series to DIR/<system>_<method>_<precision>.csv, figures by
// scripts/plots/nonholonomic.py. Exit 1 when a reproduced number is outside its bound.
// --quick runs each case to a shorter horizon (the CTest run; the bounds hold for both).
#include <cmath>
#include <cstdio>
#include <string>

#include "../sim/chaplygin_sleigh_entry.hpp"
#include "../sim/heisenberg_entry.hpp"
#include "../sim/knife_edge_entry.hpp"
#include "../sim/nonholonomic_oscillator_entry.hpp"
#include "../sim/roller_racer_entry.hpp"
#include "../sim/rolling_disk_entry.hpp"
#include "../sim/suslov_entry.hpp"
#include "commands.hpp"
#include "paper_checks.hpp"

// Named, not anonymous: attractor-paper is one translation unit (hil/CMakeLists.txt).
namespace paper_nonholonomic {

using namespace attractor;
using attractor::cli::InvariantKind;

// What the summary keeps of one run.
struct Outcome {
  double constraint = NAN, energy = NAN, momentum = NAN, group = NAN, worst = 0, exact = NAN, t_end = 0;
  long long steps = 0;
  std::string stopped;
};

template <class Entry, class S>
Outcome run_as(const std::string& method, double T, const std::string& series) {
  cli::FeedbackInputs in = cli::feedback_defaults<Entry>(method);
  in.measure_volume = false;  // not reported here (attractor-paper lie-flows reports the measures)
  if (T > 0) in.T_given = true, in.T = T;
  in.csv = series;
  in.every = 100;
  const auto o = cli::feedback_simulate<Entry, S>(in);
  Outcome r;
  const auto worst = [&](InvariantKind k) { return o.mon.has(k) ? o.mon.worst(k) : double(NAN); };
  r.constraint = worst(InvariantKind::constraint), r.energy = worst(InvariantKind::energy);
  r.momentum = worst(InvariantKind::momentum), r.group = worst(InvariantKind::group);
  for (int i = 0; i < o.mon.size(); ++i) r.worst = std::max(r.worst, o.mon.max_abs(i));
  r.exact = o.rep.exact_error, r.steps = o.r.done, r.t_end = double(o.r.done) * in.h;
  r.stopped = o.mon.stopped() ? o.mon.stopped() : "";
  return r;
}
template <class Entry>
Outcome run_case(const std::string& method, bool is_float, double T, const std::string& series) {
  return is_float ? run_as<Entry, float>(method, T, series) : run_as<Entry, double>(method, T, series);
}

// Bounds on the feedback runs (about 4x the largest measured value of the --quick run and of the
// full one as the unit tests in host-tests/unit/nonholonomic measure it; float positions after
// t = 200 lose digits to the rounding of φ ≈ 100, hence the knife edge's float bounds), in the order feedback Euler
// double, Euler float, RK4 double, RK4 float: the largest deviation of any invariant, and |x(t_end) - exact(t_end)|
// where the system has an exact solution (NaN: none).
struct Bounds {
  double worst[4];
  double exact[4];
};

// One line per system.
struct Row {
  const char* system;
  const char* section;
  double T_quick;  // --quick horizon (the full one is the entry's default)
  Bounds bounds;
  Outcome (*run)(const std::string& method, bool is_float, double T, const std::string& series);
};
constexpr double kNone = NAN;
const Row kRows[] = {
    {"suslov", "§3.1", 0.5, {{4e-5, 4e-5, 3e-9, 4e-6}, {8e-4, 8e-4, 4e-9, 2e-5}}, run_case<sim::SuslovEntry>},
    {"knife-edge", "§3.2", 1, {{2e-6, 1.6e-5, 4e-7, 4e-6}, {5e-3, 0.25, 4e-7, 0.3}}, run_case<sim::KnifeEdgeEntry>},
    {"chaplygin-sleigh",
     "§3.3",
     1,
     {{2e-5, 2e-5, 4e-10, 2e-5}, {kNone, kNone, kNone, kNone}},
     run_case<sim::SleighEntry>},
    {"chaplygin-sleigh-reduced",
     "§3.3",
     1,
     {{2e-5, 2e-5, 4e-10, 2e-5}, {kNone, kNone, kNone, kNone}},
     run_case<sim::SleighReducedEntry>},
    {"rolling-disk", "§3.4", 1, {{2e-5, 2e-5, 1e-9, 2e-6}, {3e-3, 5e-3, 1e-9, 6e-2}}, run_case<sim::RollingDiskEntry>},
    {"roller-racer",
     "§3.5",
     1,
     {{6e-5, 6e-5, 2e-9, 2e-5}, {kNone, kNone, kNone, kNone}},
     run_case<sim::RollerRacerEntry>},
    {"heisenberg", "§3.6", 1, {{1e-12, 1e-5, 1e-12, 1e-5}, {1e-11, 4e-4, 1e-11, 1e-3}}, run_case<sim::HeisenbergEntry>},
    {"nonholonomic-oscillator",
     "§3.7",
     1,
     {{3e-5, 3e-5, 1e-6, 3e-6}, {2e-3, 2e-3, 4e-6, 8e-5}},
     run_case<sim::NonholonomicOscillatorEntry>},
};
const char* const kMethods[] = {"feedback-euler", "feedback-rk4", "euler", "rk4"};

cli::Spec spec() {
  cli::Spec s("nonholonomic", "usage: attractor-paper nonholonomic [--out DIR] [--quick] [--json]",
              "paper 000 §3: Suslov, knife edge, Chaplygin sleigh (with pose and reduced), the vertical\n"
              "rolling disk, the roller racer, Heisenberg and the nonholonomic oscillator, feedback and\n"
              "plain Euler/RK4 in double and float, at the paper's (or the documented) case of each\n"
              "attractor-sim command; plots:\n"
              "/usr/bin/python3 scripts/plots/nonholonomic.py DIR");
  s.output("out", "DIR", "CSV directory (default out/nonholonomic; created if missing)")
      .flag("quick", "short horizons (the test run): Suslov 0.5, the others 1")
      .flag("json", "the checks as one JSON object on stdout (the tables go to stderr)");
  return s;
}

int run(const cli::Args& a) {
  const std::string out = a.given("out") ? a.text("out") : std::string("out/nonholonomic");
  const bool quick = a.flag("quick");
  std::FILE* const text = a.flag("json") ? stderr : stdout;
  cli::PaperChecks checks;
  cli::prepare_out_dir(out);
  cli::Csv summary;
  summary.open(out + "/summary.csv", "--out");
  std::fprintf(summary.file(),
               "system,section,method,precision,T,steps,constraint_error,energy_error,momentum_error,group_error,"
               "max_invariant_error,exact_error,stopped\n");
  std::fprintf(text,
               "paper 000 §3, %s horizons; errors are max |F_i(x) - F_i(x0)| by kind, exact = |x - exact| at t_end\n",
               quick ? "--quick" : "full");
  std::fprintf(text, "%-25s %-5s %-15s %-6s %8s %10s %10s %10s %10s %10s %10s\n", "system", "", "method", "prec", "t",
               "constraint", "energy", "momentum", "group", "worst", "exact");
  for (const Row& row : kRows) {
    for (const char* method : kMethods)
      for (bool is_float : {false, true}) {
        const char* prec = is_float ? "float" : "double";
        const std::string series = out + "/" + row.system + "_" + method + "_" + prec + ".csv";
        const Outcome o = row.run(method, is_float, quick ? row.T_quick : 0, series);
        std::fprintf(text, "%-25s %-5s %-15s %-6s %8g", row.system, row.section, method, prec, o.t_end);
        for (double v : {o.constraint, o.energy, o.momentum, o.group, o.worst, o.exact})
          cli::print_value(text, " %10.3e", v);
        std::fprintf(text, "%s\n", o.stopped.empty() ? "" : (" STOPPED: " + o.stopped).c_str());
        std::fprintf(summary.file(), "%s,%s,%s,%s,%.9g,%lld", row.system, row.section, method, prec, o.t_end, o.steps);
        for (double v : {o.constraint, o.energy, o.momentum, o.group, o.worst, o.exact})
          cli::print_value(summary.file(), ",%.6e", v);
        std::fprintf(summary.file(), ",%s\n", o.stopped.c_str());
        const bool euler = std::string(method) == "feedback-euler";
        if (!euler && std::string(method) != "feedback-rk4") continue;  // plain runs: reported, not bounded
        const Bounds& b = row.bounds;
        const std::string name = std::string(row.system) + " " + prec + " " + method;
        const int at = (euler ? 0 : 2) + (is_float ? 1 : 0);
        const double wb = b.worst[at], eb = b.exact[at];
        checks.check(name + " max invariant deviation", o.stopped.empty() ? o.worst : double(NAN), 0, wb,
                     std::string(row.section) + ": bounded with feedback");
        if (!std::isnan(eb))
          checks.check(name + " exact error", o.exact, 0, eb, std::string(row.section) + ": exact solution");
      }
  }
  // The paper's printed closed forms against the verified ones.
  const double t = 10;
  const Vec3<double> pi = sim::suslov_momentum((Mat3<double>() << 1, 0, 0, 0, 1, 1, 0, 1, 2).finished(),
                                               Vec3<double>(0, 0, 1), Vec3<double>(0, 1, 1), t);
  checks.check("§3.1 |Π(10) - (-tanh 10, sech 10, sech 10)|",
               (pi - Vec3<double>(-std::tanh(t), 1 / std::cosh(t), 1 / std::cosh(t))).norm(), 0, 1e-14,
               "the paper's exact solution");
  summary.close();
  std::fprintf(text, "\nCSV written to %s/ (plots: /usr/bin/python3 scripts/plots/nonholonomic.py %s)\n", out.c_str(),
               out.c_str());
  return checks.finish("nonholonomic", a.flag("json"), text);
}

}  // namespace paper_nonholonomic

ATTRACTOR_REGISTER_COMMAND(attractor::cli::PaperReports, "nonholonomic",
                           "paper 000 §3: Suslov, knife edge, sleigh, Heisenberg, oscillator; feedback vs plain",
                           paper_nonholonomic::spec, paper_nonholonomic::run);
