// SPDX-License-Identifier: Apache-2.0
// Shared driver of `attractor-sim spherical-pendulum` and `attractor-sim planar-pendulum`: the
// pendulum on T*S^{D-1} inside T*R^D (paper 002 §2.3-2.4) integrated by a feedback integrator
// (paper 002 eqs. (7)-(8) / (10)-(11): Feedback<System> around an explicit Runge-Kutta scheme), a
// plain Runge-Kutta scheme on the Dirac-extended field, RATTLE, or the Lie-Trotter / Strang
// splittings, with the invariant deviations |F_i(x(t)) - F_i(x0)| as the result.
//
// A Traits class supplies the per-system text and defaults:
//   template <class S> using System = ...;          SphericalPendulum<S>, PlanarPendulum<S>
//   static constexpr const char* name, *usage, *about, *q0_help, *p0_help, *T_help
//   static constexpr int D, M, energy_index;         dimensions; index of H among the invariants
//   static constexpr bool has_period;                report the period (planar)
//   static constexpr const char* coord[D], *mom[D], *inv[M];  CSV names of q, p; invariant names
//   static void default_x0(double l, double* q0, double* p0)
//   static double default_T(const System<double>&, const State<double>& x0)
//   static Result<double> period(const System<double>&, const State<double>& x0)
// Host tool.
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/rattle.hpp"
#include "attractor/integrate/splitting.hpp"
#include "auto_gains.hpp"
#include "run_support.hpp"
#include "spec.hpp"

namespace attractor::sim {

using cli::exact;
using cli::Failure;

inline const char* const kPendulumNotes =
    "methods: feedback-* integrate the feedback field x' = X(x) - DF^T K (F(x) - F(x0)) (paper 002\n"
    "eqs. (7)-(8)/(10)-(11), L = I); euler|heun|rk4 are the same schemes on the Dirac-extended field X\n"
    "without feedback; rattle is HLW VII.1.4; lie-trotter|strang compose the exact sub-flows of kinetic\n"
    "and potential energy. --gains, --unchecked apply to the feedback-* methods only.\n"
    "gains: one per invariant in the order of the summary, a single value for all (default 50, paper\n"
    "002 §2.3), or 'auto': the largest equal pull-back rate with h * stiffness <= 0.1 x the scheme's\n"
    "stability limit over the energy level (docs/auto-gains.md); the chosen gains are reported.\n"
    "validation: q0 must lie on the sphere (| |q0|^2 - l^2 | <= 1e-9 l^2) and p0 be tangent\n"
    "(|q0.p0| <= 1e-9 l |p0|) unless --project. The step count round(T/h) must be >= 1 and, without\n"
    "--force, <= 1e9; runs of 1e7 steps or more print progress on stderr.\n"
    "step check (feedback-* methods): Feedback::check_step must accept h at x0 and at the state\n"
    "q = l e1, p = p_max e2 with p_max^2 = 2m (H0 + m g l) (the largest |p|^2 on the energy level),\n"
    "where every row of DF has at least its largest norm over the level H = H0 on the constraint,\n"
    "so h * stiffness stays inside the scheme's stability interval along the exact orbit; refused:\n"
    "step refused by check_step, exit 3 (--unchecked runs anyway).\n"
    "summary: max and final |F_i(x) - F_i(x0)| of every invariant (evaluated in double from the\n"
    "state, also in a float run), steps, t_end, and for feedback methods the largest h * stiffness\n"
    "met along the run. If the state becomes non-finite, an invariant drifts by more than\n"
    "1 + |F_i(x0)|, or a RATTLE step has no solution, the run stops there, the summary says why\n"
    "('stopped') and the exit code is 4.\n\n";

enum class Method { feedback_euler, feedback_heun, feedback_rk4, euler, heun, rk4, rattle, lie_trotter, strang };

inline const std::vector<std::string> kMethodNames = {
    "feedback-euler", "feedback-heun", "feedback-rk4", "euler", "heun", "rk4", "rattle", "lie-trotter", "strang"};

inline Method parse_method(const std::string& s) {
  for (std::size_t i = 0; i < kMethodNames.size(); ++i)
    if (s == kMethodNames[i]) return Method(i);
  throw Failure(cli::exit_usage, "--method: unknown method '" + s + "'");
}

inline bool is_feedback(Method m) { return int(m) <= int(Method::feedback_rk4); }

// The Runge-Kutta scheme of a feedback-* or plain method.
inline Scheme scheme_of(Method m) {
  switch (m) {
    case Method::feedback_euler:
    case Method::euler: return Scheme::euler;
    case Method::feedback_heun:
    case Method::heun: return Scheme::heun;
    default: return Scheme::rk4;
  }
}

template <class Traits>
cli::Spec pendulum_spec() {
  cli::Spec s(Traits::name, Traits::usage, Traits::about);
  s.group("physical parameters")
      .number("m", "kg", 1, cli::positive(), "bob mass")
      .number("g", "m/s^2", 1, cli::non_negative(), "gravity")
      .number("l", "m", 1, cli::positive(), "rod length");
  s.group("initial condition")
      .list("q0", Traits::D, Traits::q0_meta, Traits::q0_help)
      .list("p0", Traits::D, Traits::p0_meta, Traits::p0_help)
      .flag("project", "project q0 onto |q| = l and p0 onto its tangent space instead of refusing");
  s.group("numerics")
      .choice("method", kMethodNames, "feedback-rk4", "integration method (see below)")
      .text("gains", "K|k1,..|auto", "feedback gains (default 50 each)")
      .number("h", "s", 1e-3, cli::positive(), "step")
      .number_mode("T", "s", Traits::T_default_text, cli::positive(), "duration; steps = round(T/h)")
      .choice("precision", {"float", "double"}, "double", "scalar type of the run")
      .flag("unchecked", "run a feedback method even when check_step refuses the step")
      .flag("force", "run more than 1e9 steps");
  s.group("output")
      .text("csv", "FILE", "time series: t, q, p, then the signed deviations F_i(x) - F_i(x0)")
      .number("every", "", 1, cli::between(1, 1e15), "CSV row every N steps (whole number; t = 0 is always written)")
      .flag("json", "summary as one JSON object instead of the one-line text");
  s.notes(kPendulumNotes);
  return s;
}

// Validated inputs (in double, before the cast to the run precision).
template <int D, int M>
struct PendulumInputs {
  double m = 1, g = 1, l = 1, h = 1e-3, T = 0;
  bool T_given = false;
  double q0[D] = {}, p0[D] = {};
  double gains[M] = {};
  bool auto_gains = false;
  bool projected = false;
  int64_t every = 1;
};

template <class Traits, class S>
int run_pendulum(const cli::Args& a, PendulumInputs<Traits::D, Traits::M> in, Method method) {
  using Sys = typename Traits::template System<S>;
  using Ref = typename Traits::template System<double>;
  constexpr int D = Traits::D, N = 2 * D, M = Traits::M;
  using State = Vec<S, N>;
  const char* cmd = Traits::name;

  // Casting a double beyond the float range is undefined behaviour: check before casting.
  auto fit = [](const char* what, double v) {
    if (!(std::abs(v) <= double(std::numeric_limits<S>::max())))
      throw Failure(cli::exit_invalid, std::string(what) + " = " + exact(v) + " is beyond the range of " +
                                           (sizeof(S) == 4 ? "float" : "double"));
  };
  fit("--m", in.m), fit("--g", in.g), fit("--l", in.l), fit("--h", in.h);
  for (int i = 0; i < D; ++i) fit("--q0", in.q0[i]), fit("--p0", in.p0[i]);
  for (int i = 0; i < M; ++i) fit("--gains", in.gains[i]);
  const Result<Sys> made = Sys::make(S(in.m), S(in.g), S(in.l));
  if (!made)
    throw Failure(cli::exit_invalid, "parameters m=" + exact(in.m) + " g=" + exact(in.g) + " l=" + exact(in.l) +
                                         " not representable in this precision (" + to_string(made.error()) + ")");
  const Sys sys = *made;
  // Deviations are measured with the double system of the very parameters the run uses.
  const Ref ref = *Ref::make(double(sys.m), double(sys.g), double(sys.l));
  State x0;
  for (int i = 0; i < D; ++i) {
    x0[i] = S(in.q0[i]);
    x0[D + i] = S(in.p0[i]);
  }
  const Vec<double, N> x0d = x0.template cast<double>();
  const Vec<double, M> F0 = ref.invariants(x0d);

  const double T = in.T_given ? in.T : Traits::default_T(ref, x0d);
  const int64_t steps = cli::step_count(T, in.h, a.flag("force"));
  const S h = S(in.h);
  const Scheme sc = scheme_of(method);
  const bool fbm = is_feedback(method);
  const double limit = double(real_stability_limit<S>(sc));

  // Bound state (see --help): q = l e1, p = p_max e2. Row norms^2 of DF there: 4 l^2,
  // p_max^2 + l^2, m^2 g^2 + p_max^2/m^2 and (spherical) p_max^2 + l^2 for J, each >= its
  // value anywhere on T*S^{D-1} with H = H0 (|p|^2 <= p_max^2, |q| = l).
  const double pmax2 = std::max(0.0, 2 * ref.m * (F0[Traits::energy_index] + ref.m * ref.g * ref.l));
  State xw = State::Zero();
  xw[0] = S(in.l);
  xw[D + 1] = S(std::sqrt(pmax2));
  Vec<S, M> K;
  if (fbm && in.auto_gains) {
    const State region[2] = {x0, xw};
    K = cli::auto_gains(sys, region, sc, h);
  } else {
    for (int i = 0; i < M; ++i) K[i] = S(in.gains[i]);
  }
  const Result<Feedback<Sys>> fbr = Feedback<Sys>::make(sys, x0, K);
  if (fbm && !fbr)
    throw Failure(cli::exit_invalid,
                  std::string("feedback integrator refused the gains (") + to_string(fbr.error()) + ")");
  const Feedback<Sys> fb = fbr ? *fbr : Feedback<Sys>{};
  if (fbm) {
    const Error e0 = fb.check_step(sc, h, x0), ew = fb.check_step(sc, h, xw);
    if ((e0 != Error::none || ew != Error::none) && !a.flag("unchecked")) {
      char b[600];
      std::snprintf(b, sizeof b,
                    "step refused by check_step (%s): h * stiffness = %.4g at x0 and %.4g at the bound state of "
                    "the energy level (see --help); the %s stability limit is %.4g; lower --h or --gains "
                    "(--unchecked to run anyway)",
                    to_string(e0 != Error::none ? e0 : ew), double(h * fb.stiffness(x0)), double(h * fb.stiffness(xw)),
                    to_string(sc), limit);
      throw Failure(cli::exit_unstable, b);
    }
  }
  Rattle<Sys> rattle;
  if (method == Method::rattle) {
    const Result<Rattle<Sys>> r = Rattle<Sys>::make(sys, x0);
    if (!r)
      throw Failure(cli::exit_invalid, std::string("RATTLE refused the initial state (") + to_string(r.error()) + ")");
    rattle = *r;
  }

  cli::Csv csv;
  if (a.given("csv")) {
    csv.open(a.text("csv"));
    csv.print("t");
    for (int i = 0; i < D; ++i) csv.print(",%s", Traits::coord[i]);
    for (int i = 0; i < D; ++i) csv.print(",%s", Traits::mom[i]);
    for (int i = 0; i < M; ++i) csv.print(",d%s", Traits::inv[i]);
    csv.print("\n");
  }
  auto emit = [&](double t, const Vec<double, N>& x, const Vec<double, M>& d) {
    if (!csv.is_open()) return;
    csv.print("%.6f", t);
    for (int i = 0; i < N; ++i) csv.print(",%.10g", x[i]);
    for (int i = 0; i < M; ++i) csv.print(",%.6e", d[i]);
    csv.print("\n");
  };

  double max_dev[M] = {}, fin_dev[M] = {};
  double max_hs = fbm ? double(h * fb.stiffness(x0)) : 0.0;
  const char* stopped = nullptr;
  int64_t done = 0;
  State x = x0;
  cli::Progress progress(cmd, steps);
  emit(0, x0d, Vec<double, M>::Zero());
  for (int64_t k = 0; k < steps; ++k) {
    switch (method) {
      case Method::feedback_euler:
      case Method::feedback_heun:
      case Method::feedback_rk4: step(sc, fb, x, h); break;
      case Method::euler:
      case Method::heun:
      case Method::rk4:
        step(
            sc, [&sys](const State& y) { return sys.field(y); }, x, h);
        break;
      case Method::rattle:
        if (rattle.step(h) != Error::none) stopped = "rattle_no_solution";
        x = rattle.state();
        break;
      case Method::lie_trotter: lie_trotter_step(sys, x, h); break;
      case Method::strang: strang_step(sys, x, h); break;
    }
    if (stopped) break;
    const Vec<double, N> xd = x.template cast<double>();
    if (!all_finite(xd)) {
      stopped = "non_finite_state";
      break;
    }
    done = k + 1;
    const Vec<double, M> d = ref.invariants(xd) - F0;
    for (int i = 0; i < M; ++i) {
      fin_dev[i] = std::abs(d[i]);
      max_dev[i] = std::max(max_dev[i], fin_dev[i]);
      if (!stopped && cli::drift_insane(d[i], F0[i])) stopped = "invariant_drift_beyond_sanity";
    }
    if (fbm) max_hs = std::max(max_hs, double(h * fb.stiffness(x)));
    if (done % in.every == 0) emit(double(done) * in.h, xd, d);
    if (stopped) break;
    progress.tick(done);
  }
  csv.close();

  const double t_end = double(done) * in.h;
  const char* prec = sizeof(S) == 4 ? "float" : "double";
  const std::string& mname = kMethodNames[std::size_t(method)];
  const Result<double> period = Traits::period(ref, x0d);
  if (a.flag("json")) {
    cli::Json j;
    j["system"] = cmd, j["method"] = mname, j["precision"] = prec;
    j["m"] = ref.m, j["g"] = ref.g, j["l"] = ref.l, j["h"] = in.h, j["steps"] = done, j["t_end"] = t_end;
    j["q0"] = cli::Json::array(), j["p0"] = cli::Json::array();
    for (int i = 0; i < D; ++i) j["q0"].push_back(x0d[i]), j["p0"].push_back(x0d[D + i]);
    j["projected"] = in.projected;
    if (fbm) {
      j["gains"] = cli::Json::array();
      for (int i = 0; i < M; ++i) j["gains"].push_back(double(K[i]));
      j["gains_auto"] = in.auto_gains;
      j["max_h_stiffness"] = cli::num(max_hs), j["stability_limit"] = limit;
    } else {
      j["gains"] = nullptr;
    }
    if (Traits::has_period) j["period"] = period ? cli::num(*period) : cli::Json(nullptr);
    for (int i = 0; i < M; ++i) j["invariants0"][Traits::inv[i]] = cli::num(F0[i]);
    for (int i = 0; i < M; ++i) j["max_abs_dev"][Traits::inv[i]] = cli::num(max_dev[i]);
    for (int i = 0; i < M; ++i) j["final_abs_dev"][Traits::inv[i]] = cli::num(fin_dev[i]);
    j["stopped"] = stopped ? cli::Json(stopped) : cli::Json(nullptr);
    cli::print_json(j);
  } else {
    std::printf("%s %s %s h=%g steps=%lld t=%g:", cmd, mname.c_str(), prec, in.h, static_cast<long long>(done), t_end);
    for (int i = 0; i < M; ++i) std::printf(" %s max=%.2e fin=%.2e", Traits::inv[i], max_dev[i], fin_dev[i]);
    if (fbm) {
      std::printf(" | max h*stiffness=%.3g (limit %.4g)", max_hs, limit);
      if (in.auto_gains) {
        std::printf(" | auto gains");
        for (int i = 0; i < M; ++i) std::printf("%s%.4g", i ? "," : " ", double(K[i]));
      }
    }
    if (Traits::has_period && period) std::printf(" | period=%.6g", *period);
    if (stopped) std::printf(" | STOPPED: %s at t=%g", stopped, t_end);
    std::printf("\n");
  }
  if (stopped) std::fprintf(stderr, "%s: run stopped at t=%g: %s\n", cmd, t_end, stopped);
  return stopped ? cli::exit_blowup : cli::exit_ok;
}

// Validate and dispatch on precision.
template <class Traits>
int pendulum_run(const cli::Args& a) {
  constexpr int D = Traits::D, M = Traits::M;
  PendulumInputs<D, M> in;
  in.m = a.num("m"), in.g = a.num("g"), in.l = a.num("l"), in.h = a.num("h");
  in.T_given = a.given("T");
  if (in.T_given) in.T = a.num("T", 0);
  const double every = a.num("every");
  if (every != std::floor(every))
    throw Failure(cli::exit_invalid, "--every = " + exact(every) + " is not a whole number");
  in.every = static_cast<int64_t>(every);
  if (!a.given("csv")) a.forbid("every", "without --csv");
  const Method method = parse_method(a.choice("method"));
  if (!is_feedback(method)) {
    a.forbid("gains", "to --method " + a.choice("method") + " (feedback-* methods only)");
    a.forbid("unchecked", "to --method " + a.choice("method") + " (feedback-* methods only)");
  }

  // Initial condition.
  Traits::default_x0(in.l, in.q0, in.p0);
  const std::vector<double> q0 = a.list("q0", std::vector<double>(in.q0, in.q0 + D));
  const std::vector<double> p0 = a.list("p0", std::vector<double>(in.p0, in.p0 + D));
  Vec<double, D> q, p;
  for (int i = 0; i < D; ++i) q[i] = q0[std::size_t(i)], p[i] = p0[std::size_t(i)];
  const double l = in.l, f1 = q.squaredNorm(), f2 = q.dot(p);
  if (!std::isfinite(f1) || !std::isfinite(f2) || !std::isfinite(p.squaredNorm()))
    throw Failure(cli::exit_invalid, "--q0/--p0 overflow: |q0|^2 or q0.p0 is not finite");
  const bool on_sphere = std::abs(f1 - l * l) <= 1e-9 * l * l;
  const bool tangent = std::abs(f2) <= 1e-9 * l * p.norm();
  if (!on_sphere || !tangent) {
    if (!a.flag("project")) {
      char b[300];
      if (!on_sphere)
        std::snprintf(b, sizeof b, "q0 is not on the sphere |q| = l = %g: |q0| = %.10g (use --project to project it)",
                      l, std::sqrt(f1));
      else
        std::snprintf(b, sizeof b, "p0 is not tangent to the sphere at q0: q0.p0 = %.3e (use --project to project it)",
                      f2);
      throw Failure(cli::exit_invalid, b);
    }
    if (!(f1 > 0)) throw Failure(cli::exit_invalid, "q0 = 0 cannot be projected onto the sphere");
    q *= l / std::sqrt(f1);
    p -= (q.dot(p) / q.squaredNorm()) * q;
    in.projected = true;
  }
  for (int i = 0; i < D; ++i) in.q0[i] = q[i], in.p0[i] = p[i];

  // Gains: one value for all, one per invariant, or auto.
  for (int i = 0; i < M; ++i) in.gains[i] = 50;  // paper 002 §2.3: k1 = ... = k4 = 50
  if (a.given("gains")) {
    const std::string gs = a.text("gains");
    double one;
    std::vector<double> v;
    if (gs == "auto") {
      in.auto_gains = true;
    } else if (cli::parse_number(gs, one)) {
      for (int i = 0; i < M; ++i) in.gains[i] = one;
    } else if (cli::parse_list(gs, M, v)) {
      for (int i = 0; i < M; ++i) in.gains[i] = v[std::size_t(i)];
    } else {
      throw Failure(cli::exit_usage, "--gains: '" + gs + "' is not 'auto', one number or " + std::to_string(M) +
                                         " comma-separated numbers");
    }
    for (int i = 0; i < M; ++i)
      if (!std::isfinite(in.gains[i]) || in.gains[i] < 0)
        throw Failure(cli::exit_invalid, "--gains: gain " + std::to_string(i + 1) + " = " + exact(in.gains[i]) +
                                             " is outside its range: need 0 <= gain, finite");
  }
  if (a.choice("precision") == "float") return run_pendulum<Traits, float>(a, in, method);
  return run_pendulum<Traits, double>(a, in, method);
}

}  // namespace attractor::sim
