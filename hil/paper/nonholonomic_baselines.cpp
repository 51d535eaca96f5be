// SPDX-License-Identifier: Apache-2.0
// attractor-paper nonholonomic-baselines: the feedback integrator against paper 001's discrete
// nonholonomic integrators on the same problems, by running the attractor-sim entries: paper 001
// Example 1 (particle), Example 2 (snakeboard), Example 3 (Chaplygin sleigh), paper 000 §3.2 (knife
// edge) and §3.7 (nonholonomic oscillator), each with feedback Euler and RK4 (gains auto, from
// the scheme's stability interval at each h), plain RK4, nh-verlet (both starts), dla and its one-sided
// variant dla-one-sided (the constraint at q_k), in float and double,
// at a ladder of steps h. DIR/summary.csv has one row per example × method × precision × h with
// the errors (max constraint, energy and momentum-map deviation, |x - exact| where the example has
// a closed form, and the configuration error against a fine RK4 run in double), the order of
// convergence measured from the next larger h, and the step count; the full run adds the long
// runs (nonholonomic_baselines_long.hpp). scripts/benchmarks_nonholonomic.py joins summary.csv
// with the bench image's instructions per step into docs/BENCHMARKS.md's "who wins at which
// budget" table; scripts/plots/nonholonomic_baselines.py draws it. Exit 1 when a check fails.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

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
using attractor::cli::Json;

struct Outcome {
  double constraint = NAN, energy = NAN, momentum = NAN, exact = NAN, reference = NAN;
  long long steps = 0;
  std::string stopped;
};

// The reference: plain RK4 in double at a tenth of the ladder's smallest step.
double reference_step(bool quick) { return quick ? 1e-3 : 1e-4; }

// Time-series rows (long runs) every this many time units, whatever h.
constexpr double kSeriesDt = 0.1;

// start: a discrete method's start (consistent, remark5, or pair from q0 and q1), empty for the
// others, which have none.
template <class Entry, class S>
cli::FeedbackOutcome<Entry::template System<S>::N> simulate(const std::string& method, double h, double T,
                                                            const std::string& series, const std::string& start = "",
                                                            const std::vector<double>& q1 = {}) {
  cli::FeedbackInputs in = cli::feedback_defaults<Entry>(method);
  if (!start.empty()) in.start = start, in.q1 = q1;
  in.measure_volume = false;
  in.T_given = true, in.T = T, in.h = h;
  in.gains.automatic = true;  // a feedback gain fit for each h (auto_gains.hpp)
  in.trust_default_gains = false;
  in.csv = series;
  in.every = series.empty() ? 1 : std::max(1LL, std::llround(kSeriesDt / h));
  return cli::feedback_simulate<Entry, S>(in);
}

// The reference state at T (plain RK4, double, step h_ref), once per (T, h_ref) unless a series
// file is asked for.
template <class Entry>
const Vec<double, Entry::template System<double>::N>& reference(double T, double h_ref, const std::string& series) {
  static std::map<std::pair<double, double>, Vec<double, Entry::template System<double>::N>> done;
  const auto key = std::make_pair(T, h_ref);
  if (series.empty() && done.count(key)) return done[key];
  return done[key] = simulate<Entry, double>("rk4", h_ref, T, series).r.last;
}

// The configuration q1 at t = h of the method's run from its consistent start, in the run's
// precision: the pair (q0, q1) a --start pair run then starts from, as a user hands one in.
template <class Entry, class S>
std::vector<double> first_step_q1(const std::string& method, double h) {
  const auto o = simulate<Entry, S>(method, h, h, "");
  const auto q1 = o.r.last.template head<cli::discrete_q<Entry>()>();
  return std::vector<double>(q1.data(), q1.data() + q1.size());
}

// One run of `method` from `start` (start_of) to T; `config` leading states are the configuration
// the reference error compares; `series`, when not empty, the time-series CSV (the reference's
// beside it, _reference).
template <class Entry>
Outcome run_case(const std::string& method, const std::string& start, bool is_float, double h, double T, int config,
                 double h_ref, const std::string& series) {
  Outcome r;
  try {
    std::vector<double> q1;
    if (start == "pair")
      q1 = is_float ? first_step_q1<Entry, float>(method, h) : first_step_q1<Entry, double>(method, h);
    const auto o = is_float ? simulate<Entry, float>(method, h, T, series, start, q1)
                            : simulate<Entry, double>(method, h, T, series, start, q1);
    const auto worst = [&](InvariantKind k) { return o.mon.has(k) ? o.mon.worst(k) : double(NAN); };
    r.constraint = worst(InvariantKind::constraint), r.energy = worst(InvariantKind::energy);
    r.momentum = worst(InvariantKind::momentum);
    r.exact = o.rep.exact_error, r.steps = o.r.done;
    r.stopped = o.mon.stopped() ? o.mon.stopped() : "";
    if (r.stopped.empty()) r.reference = (o.r.last - reference<Entry>(T, h_ref, "")).head(config).norm();
  } catch (const cli::Failure& f) {  // e.g. check_step refuses the step: reported, not run
    r.stopped = f.code == cli::exit_unstable ? "step_refused" : "refused";
  }
  return r;
}
template <class Entry>
void write_reference(double T, double h_ref, const std::string& series) {
  reference<Entry>(T, h_ref, series);
}

// One line per example. `bench` is its name in the bench rows (apps/bench/
// rows_nonholonomic_methods.cpp), `config` the number of leading states that are the
// configuration. `momentum`: the momentum map nh-verlet and dla keep (paper 001 Corollary 4, a
// horizontal symmetry; the entry's momentum invariant), empty where the example has none. The
// bound: the double nh-verlet and dla configuration errors at h = 1e-2 (about 4x the measured value
// at the full horizon; the --quick one is smaller).
struct Row {
  const char* example;
  const char* source;
  const char* bench;
  int config;
  double T;
  double bound;
  const char* momentum;
  bool pair;  // its leading states are q, so a run's q1 is its state's head (first_step_q1)
  Outcome (*run)(const std::string& method, const std::string& start, bool is_float, double h, double T, int config,
                 double h_ref, const std::string& series);
  void (*reference)(double T, double h_ref, const std::string& series);
};
const Row kRows[] = {
    {"particle", "001 Ex. 1", "nh_particle", 3, 10, 4e-4, "p_y", true, run_case<sim::NonholonomicParticleEntry>,
     write_reference<sim::NonholonomicParticleEntry>},
    {"snakeboard", "001 Ex. 2", "snakeboard", 5, 10, 4e-3, "", true, run_case<sim::SnakeboardEntry>,
     write_reference<sim::SnakeboardEntry>},
    {"sleigh", "001 Ex. 3", "chaplygin_sleigh", 6, 10, 4e-3, "", false, run_case<sim::SleighEntry>,
     write_reference<sim::SleighEntry>},
    {"oscillator", "000 §3.7", "nonholonomic_oscillator", 3, 10, 4e-3, "", true,
     run_case<sim::NonholonomicOscillatorEntry>, write_reference<sim::NonholonomicOscillatorEntry>},
    {"knife-edge", "000 §3.2", "knife_edge", 3, 10, 4e-3, "p_phi", true, run_case<sim::KnifeEdgeEntry>,
     write_reference<sim::KnifeEdgeEntry>},
};
// Each method and the start it runs from: the discrete methods from their consistent start,
// nh-verlet-remark5 from Remark 5's, and nh-verlet and dla also from a pair (q0, q1), q1 their own
// first step from the consistent start (first_step_q1), so that the pair's row shows the pair
// start reproducing that run; the other methods have no start (an empty field). The long runs
// leave the pair rows out, and so does the sleigh, whose state holds R and not theta.
struct Method {
  const char* name;
  const char* start;
};
const Method kMethods[] = {{"feedback-euler", ""},      {"feedback-rk4", ""},  {"rk4", ""},
                           {"nh-verlet", "consistent"}, {"nh-verlet", "pair"}, {"nh-verlet-remark5", "remark5"},
                           {"dla", "consistent"},       {"dla", "pair"},       {"dla-one-sided", "consistent"}};
const double kSteps[] = {1e-1, 1e-2, 1e-3};  // --quick: the first two

// The order of convergence each method shows in h (of its global error) and the band the
// measured one must lie in. Feedback RK4 is fourth order at a fixed gain, but --gains auto sets
// the pull-back rate in proportion to 1/h (h K fixed, auto_gains.hpp): a stiff term, under which
// RK4 (stage order 1) drops to order 2 as h -> 0; at the ladder's large steps it is in between.
struct OrderBand {
  double lo, hi;
  const char* why;
};
OrderBand order_band(const std::string& method) {
  if (method == "feedback-euler") return {0.5, 1.7, "first order"};
  if (method == "feedback-rk4") return {1.5, 4.7, "2 (RK4 with a gain like 1/h) to 4 (RK4)"};
  if (method == "rk4") return {3.5, 5.5, "fourth order"};  // 5.1 on the snakeboard from h = 0.1
  // The discrete constraint at q_k holds the continuous one to O(h²) per step only (--quick:
  // 1.00 to 1.10 on the five examples).
  if (method == "dla-one-sided") return {0.8, 1.4, "first order (the constraint at q_k)"};
  return {1.5, 2.7, "second order"};  // nh-verlet (both starts), dla
}

// The order of convergence between consecutive steps of the ladder, log(e(H)/e(h)) / log(H/h) with
// e the configuration error against the reference; NaN at the first step and where either run
// stopped.
struct Ladder {
  double h_prev = NAN, e_prev = NAN;
  double next(double h, const Outcome& o) {
    const double e = o.reference;
    const double order = e > 0 && e_prev > 0 ? std::log(e_prev / e) / std::log(h_prev / h) : double(NAN);
    h_prev = h, e_prev = e;
    return order;
  }
};

// The step whose order (from the next larger step) is checked, NaN for none: the smallest step of
// the ladder, but not where the error is at a rounding floor, which says nothing about the order:
// both RK4s in double at h = 1e-3 (1e-13 to 1e-11, the reference's own rounding), both RK4s in
// float at all (1e-7 already at h = 1e-2), and every float run over the full horizon (its rounding,
// 1e-5 at t = 10, is the size of the second-order errors at h = 1e-2).
double order_checked_at(const std::string& method, bool is_float, bool quick) {
  const bool rk4 = method == "rk4" || method == "feedback-rk4";
  if (is_float) return rk4 || !quick ? double(NAN) : 1e-2;
  return quick || rk4 ? 1e-2 : 1e-3;
}

// The checks of one run of the ladder.
void check_run(cli::PaperChecks& checks, const Row& row, const std::string& m, const std::string& start, bool is_float,
               double h, const Outcome& o, double order, bool quick) {
  char hs[16];
  std::snprintf(hs, sizeof hs, "%g", h);
  const std::string name = std::string(row.example) + (is_float ? " float " : " double ") + m +
                           (start == "pair" ? " (pair)" : "") + " h=" + hs;
  const std::string paper = std::string("paper ") + row.source;
  if (h == order_checked_at(m, is_float, quick)) {
    const OrderBand b = order_band(m);
    checks.check(name + " order of convergence", order, b.lo, b.hi, b.why);
  }
  if (is_float || h != 1e-2 || (m != "nh-verlet" && m != "dla")) return;
  checks.check(name + " configuration error", o.stopped.empty() ? o.reference : double(NAN), 0, row.bound,
               paper + ": second order, runs to the end");
  if (m == "nh-verlet")  // (11c)/(11e): p~ on the constraint set to rounding
    checks.check(name + " constraint error", o.constraint, 0, 1e-12, "paper 001 eq. (11e)");
  if (*row.momentum)  // a horizontal symmetry's momentum, kept by both discrete methods
    checks.check(name + " momentum error (" + row.momentum + ")", o.momentum, 0, 1e-12, "paper 001 Corollary 4");
}

// Long runs: 10^4 steps of h = 1e-2 (t in [0, 100]) per example x method x precision, against
// the reference at h = 1e-3; each run also to T/10, so the growth of an error from T/10 to T,
// log10(e(T) / e(T/10)) of the largest deviation so far, says how it grows: 0 bounded, 1
// linearly, 2 quadratically. Time series to DIR/long_<example>_<method>_<precision>.csv.
constexpr double kLongH = 1e-2, kLongT = 100, kLongRef = 1e-3;

double growth(double early, double late) { return early > 0 && late > 0 ? std::log10(late / early) : double(NAN); }

Json long_runs(const std::string& out, std::FILE* text) {
  cli::Csv csv;
  csv.open(out + "/long_runs.csv", "--out");
  std::fprintf(csv.file(),
               "example,method,precision,h,T,steps,constraint_error,energy_error,momentum_error,reference_error,"
               "energy_error_early,reference_error_early,energy_growth,reference_growth,stopped\n");
  std::fprintf(text,
               "\nlong runs, h = %g, t in [0, %g]; early: at t = %g; growth: log10(error(T) / error(T/10)), 0 "
               "bounded, 1 linear, 2 quadratic\n",
               kLongH, kLongT, kLongT / 10);
  std::fprintf(text, "%-11s %-15s %-6s %8s %10s %10s %10s %10s %10s %6s %6s\n", "example", "method", "prec", "steps",
               "constraint", "energy", "momentum", "reference", "ref(T/10)", "E gr", "ref gr");
  Json rows = Json::array();
  for (const Row& row : kRows) {
    const std::string base = out + "/long_" + row.example + "_";
    row.reference(kLongT, kLongRef, base + "reference.csv");
    for (const Method& m : kMethods)
      for (bool is_float : {false, true}) {
        if (std::string(m.start) == "pair") continue;
        const char* method = m.name;
        const char* prec = is_float ? "float" : "double";
        const Outcome early = row.run(method, m.start, is_float, kLongH, kLongT / 10, row.config, kLongRef, "");
        const Outcome o = row.run(method, m.start, is_float, kLongH, kLongT, row.config, kLongRef,
                                  base + method + "_" + prec + ".csv");
        const double eg = growth(early.energy, o.energy), rg = growth(early.reference, o.reference);
        std::fprintf(text, "%-11s %-15s %-6s %8lld", row.example, method, prec, o.steps);
        for (double v : {o.constraint, o.energy, o.momentum, o.reference, early.reference})
          cli::print_value(text, " %10.3e", v);
        for (double v : {eg, rg}) cli::print_value(text, " %6.2f", v);
        std::fprintf(text, "%s\n", o.stopped.empty() ? "" : (" STOPPED: " + o.stopped).c_str());
        std::fprintf(csv.file(), "%s,%s,%s,%g,%g,%lld", row.example, method, prec, kLongH, kLongT, o.steps);
        for (double v : {o.constraint, o.energy, o.momentum, o.reference, early.energy, early.reference, eg, rg})
          cli::print_value(csv.file(), ",%.6e", v);
        std::fprintf(csv.file(), ",%s\n", o.stopped.c_str());
        rows.push_back({{"example", row.example},
                        {"method", method},
                        {"precision", prec},
                        {"h", kLongH},
                        {"T", kLongT},
                        {"steps", o.steps},
                        {"constraint_error", cli::num(o.constraint)},
                        {"energy_error", cli::num(o.energy)},
                        {"momentum_error", cli::num(o.momentum)},
                        {"reference_error", cli::num(o.reference)},
                        {"energy_error_early", cli::num(early.energy)},
                        {"reference_error_early", cli::num(early.reference)},
                        {"energy_growth", cli::num(eg)},
                        {"reference_growth", cli::num(rg)},
                        {"stopped", o.stopped.empty() ? Json(nullptr) : Json(o.stopped)}});
      }
  }
  csv.close();
  return rows;
}

cli::Spec spec() {
  cli::Spec s("nonholonomic-baselines", "usage: attractor-paper nonholonomic-baselines [--out DIR] [--quick] [--json]",
              "paper 001's discrete nonholonomic integrators (nh-verlet, dla) against the feedback\n"
              "integrator (Euler, RK4, gains auto) and plain RK4 on the particle, the snakeboard, the\n"
              "sleigh (paper 001 Examples 1-3), the oscillator and the knife edge (paper 000 §3.7, §3.2),\n"
              "in float and double at h = 0.1, 0.01, 0.001 over t in [0, 10]; DIR/summary.csv, one\n"
              "row per example x method x precision x h with the measured order of convergence;\n"
              "DIR/long_runs.csv, 10^4 steps of h = 0.01 per example x method x precision (not with\n"
              "--quick); plots: /usr/bin/python3 scripts/plots/nonholonomic_baselines.py DIR;\n"
              "docs/nonholonomic-baselines.md");
  s.output("out", "DIR", "CSV directory (default out/nonholonomic-baselines; created if missing)")
      .flag("quick", "t in [0, 1], h = 0.1 and 0.01, reference at h = 1e-3, no long runs (the test run)")
      .flag("json", "the checks and the rows as one JSON object on stdout (the tables go to stderr)");
  return s;
}

const char* const kColumns[] = {"example",
                                "source",
                                "bench",
                                "method",
                                "start",
                                "precision",
                                "h",
                                "T",
                                "steps",
                                "constraint_error",
                                "energy_error",
                                "momentum_error",
                                "exact_error",
                                "reference_error",
                                "order",
                                "stopped"};

int run(const cli::Args& a) {
  const std::string out = a.given("out") ? a.text("out") : std::string("out/nonholonomic-baselines");
  const bool quick = a.flag("quick");
  std::FILE* const text = a.flag("json") ? stderr : stdout;
  cli::PaperChecks checks;
  cli::prepare_out_dir(out);
  cli::Csv summary;
  summary.open(out + "/summary.csv", "--out");
  for (const char* c : kColumns) std::fprintf(summary.file(), "%s%s", c == kColumns[0] ? "" : ",", c);
  std::fprintf(summary.file(), "\n");
  std::fprintf(text,
               "feedback vs paper 001's discrete methods, %s; constraint/energy/momentum: max |F_i(x) - F_i(x0)|, "
               "exact: |x - exact| at t_end, reference: configuration error against RK4 at h = %g, order: from the "
               "larger h\n",
               quick ? "--quick (t in [0, 1])" : "t in [0, 10]", reference_step(quick));
  std::fprintf(text, "%-11s %-17s %-10s %-6s %6s %8s %10s %10s %10s %10s %10s %6s\n", "example", "method", "start",
               "prec", "h", "steps", "constraint", "energy", "momentum", "exact", "reference", "order");
  Json rows = Json::array();
  for (const Row& row : kRows) {
    const double T = quick ? 1 : row.T;
    for (const Method& m : kMethods)
      for (bool is_float : {false, true}) {
        if (std::string(m.start) == "pair" && !row.pair) continue;
        const char* method = m.name;
        Ladder ladder;
        for (double h : kSteps) {
          if (quick && h < 1e-2) continue;
          const char* prec = is_float ? "float" : "double";
          const Outcome o = row.run(method, m.start, is_float, h, T, row.config, reference_step(quick), "");
          const double order = ladder.next(h, o);
          std::fprintf(text, "%-11s %-17s %-10s %-6s %6g %8lld", row.example, method, m.start, prec, h, o.steps);
          for (double v : {o.constraint, o.energy, o.momentum, o.exact, o.reference})
            cli::print_value(text, " %10.3e", v);
          cli::print_value(text, " %6.2f", order);
          std::fprintf(text, "%s\n", o.stopped.empty() ? "" : (" STOPPED: " + o.stopped).c_str());
          std::fprintf(summary.file(), "%s,%s,%s,%s,%s,%s,%g,%g,%lld", row.example, row.source, row.bench, method,
                       m.start, prec, h, T, o.steps);
          for (double v : {o.constraint, o.energy, o.momentum, o.exact, o.reference, order})
            cli::print_value(summary.file(), ",%.6e", v);
          std::fprintf(summary.file(), ",%s\n", o.stopped.c_str());
          rows.push_back({{"example", row.example},
                          {"source", row.source},
                          {"bench", row.bench},
                          {"method", method},
                          {"start", *m.start ? Json(m.start) : Json(nullptr)},
                          {"precision", prec},
                          {"h", h},
                          {"T", T},
                          {"steps", o.steps},
                          {"constraint_error", cli::num(o.constraint)},
                          {"energy_error", cli::num(o.energy)},
                          {"momentum_error", cli::num(o.momentum)},
                          {"exact_error", cli::num(o.exact)},
                          {"reference_error", cli::num(o.reference)},
                          {"order", cli::num(order)},
                          {"stopped", o.stopped.empty() ? Json(nullptr) : Json(o.stopped)}});
          check_run(checks, row, method, m.start, is_float, h, o, order, quick);
        }
      }
  }
  summary.close();
  Json extra = {{"rows", rows}};
  if (!quick) extra["long_runs"] = long_runs(out, text);
  std::fprintf(text,
               "\nCSV written to %s/ (table: scripts/benchmarks_nonholonomic.py; plots: /usr/bin/python3 "
               "scripts/plots/nonholonomic_baselines.py %s)\n",
               out.c_str(), out.c_str());
  return checks.finish("nonholonomic-baselines", a.flag("json"), text, extra);
}

}  // namespace paper_nonholonomic_baselines

ATTRACTOR_REGISTER_COMMAND(attractor::cli::PaperReports, "nonholonomic-baselines",
                           "paper 001: nh-verlet and dla against the feedback integrator, float/double, h ladder",
                           paper_nonholonomic_baselines::spec, paper_nonholonomic_baselines::run);
