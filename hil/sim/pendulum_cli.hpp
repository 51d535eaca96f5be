// Shared driver of `attractor-sim spherical-pendulum` and `attractor-sim planar-pendulum`: the
// pendulum on T*S^{D-1} inside T*R^D (paper 002 §2.3-2.4) integrated by a feedback integrator
// (paper 002 eqs. (7)-(8) / (10)-(11): Feedback<System> around an explicit Runge-Kutta scheme), a
// plain Runge-Kutta scheme on the Dirac-extended field, RATTLE, or the Lie-Trotter / Strang
// splittings, with the invariant deviations |F_i(x(t)) - F_i(x0)| as the result.
//
// A Traits class supplies the per-system text and defaults:
//   template <class S> using System = ...;          SphericalPendulum<S>, PlanarPendulum<S>
//   static constexpr const char* name, *help;        command name, system part of --help
//   static constexpr int D, M, energy_index;         dimensions; index of H among the invariants
//   static constexpr bool has_period;                report the period (planar)
//   static constexpr const char* coord[D], *mom[D], *inv[M];  CSV names of q, p; invariant names
//   static void default_x0(double l, double* q0, double* p0)
//   static double default_T(const System<double>&, const State<double>& x0)
//   static Result<double> period(const System<double>&, const State<double>& x0)
// Host tool (std::string allowed).
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/integrate/rattle.hpp"
#include "attractor/integrate/splitting.hpp"
#include "options.hpp"

namespace attractor::sim {

inline const char* const kPendulumCommonHelp =
    "numerics:\n"
    "  --method M       feedback-euler | feedback-heun | feedback-rk4 (default; the feedback field\n"
    "                   x' = X(x) - DF^T K (F(x) - F(x0)), paper 002 eqs. (7)-(8)/(10)-(11), with\n"
    "                   L = I) | euler | heun | rk4 (same schemes on the Dirac-extended field X, no\n"
    "                   feedback) | rattle (HLW VII.1.4) | lie-trotter | strang (exact sub-flows\n"
    "                   of kinetic and potential energy)\n"
    "  --gains K        one gain per invariant, comma-separated in the order listed above, or a\n"
    "                   single value for all (default 50, paper 002 §2.3); finite and >= 0;\n"
    "                   used by the feedback-* methods only\n"
    "  --h H            step [s] (1e-3)                --precision float|double (double)\n"
    "  --unchecked      run a feedback method even when check_step refuses the step\n"
    "  --project        project q0 onto the sphere (circle) |q| = l and p0 onto its tangent space\n"
    "                   instead of refusing an initial condition that is off the constraint\n"
    "output:\n"
    "  --csv FILE       time series: t, q, p, then the signed deviations F_i(x) - F_i(x0)\n"
    "  --every N        CSV row every N steps (1; t = 0 is always written)\n"
    "  --json           summary as one JSON object instead of the one-line text\n"
    "  --config FILE    key=value lines with the option names without '--' (command line wins)\n\n"
    "validation: m, g, l, q0, p0, h, T must be finite; m > 0, l > 0, g >= 0, h > 0, T >= h.\n"
    "q0 must lie on the sphere (| |q0|^2 - l^2 | <= 1e-9 l^2) and p0 be tangent\n"
    "(|q0.p0| <= 1e-9 l |p0|) unless --project. Invalid input: message on stderr, exit code 2.\n"
    "step check (feedback-* methods): Feedback::check_step must accept h at x0 and at the state\n"
    "q = l e1, p = p_max e2 with p_max^2 = 2m (H0 + m g l) (the largest |p|^2 on the energy level),\n"
    "where every row of DF has at least its largest norm over the level H = H0 on the constraint,\n"
    "so h * stiffness stays inside the scheme's stability interval along the exact orbit.\n"
    "Refused: message on stderr, exit code 3.\n"
    "summary: max and final |F_i(x) - F_i(x0)| of every invariant (evaluated in double from the\n"
    "state, also in a float run), steps, t_end, and for feedback methods the largest h * stiffness\n"
    "met along the run. If the state becomes non-finite or a RATTLE step has no solution the run\n"
    "stops there, the summary says why ('stopped'), and the exit code is 4. Otherwise 0.\n";

enum class Method { feedback_euler, feedback_heun, feedback_rk4, euler, heun, rk4, rattle, lie_trotter, strang };

inline const char* const kMethodNames[] = {"feedback-euler", "feedback-heun", "feedback-rk4", "euler", "heun",
                                           "rk4",            "rattle",        "lie-trotter",  "strang"};

inline bool parse_method(const std::string& s, Method& m) {
  for (int i = 0; i < 9; ++i)
    if (s == kMethodNames[i]) {
      m = Method(i);
      return true;
    }
  return false;
}

inline bool is_feedback(Method m) { return int(m) <= int(Method::feedback_rk4); }

// The Runge-Kutta scheme of a feedback-* or plain method.
inline Scheme scheme_of(Method m) {
  switch (m) {
    case Method::feedback_euler: case Method::euler: return Scheme::euler;
    case Method::feedback_heun: case Method::heun: return Scheme::heun;
    default: return Scheme::rk4;
  }
}

// JSON has no NaN/Inf: print null for them.
inline void json_number(const char* fmt, double v) {
  if (std::isfinite(v)) std::printf(fmt, v);
  else std::printf("null");
}

// Validated, parsed inputs (in double, before the cast to the run precision).
template <int D, int M>
struct PendulumInputs {
  double m = 1, g = 1, l = 1, h = 1e-3, T = 0;
  bool T_given = false;
  double q0[D] = {}, p0[D] = {};
  double gains[M] = {};
  bool projected = false;
};

template <class Traits, class S>
int run_pendulum(const cli::Options& o, const PendulumInputs<Traits::D, Traits::M>& in, Method method) {
  using Sys = typename Traits::template System<S>;
  using Ref = typename Traits::template System<double>;
  constexpr int D = Traits::D, N = 2 * D, M = Traits::M;
  using State = Vec<S, N>;
  const char* cmd = Traits::name;

  // Casting a double beyond the float range is undefined behaviour: check before casting.
  bool fits = true;
  auto fit = [&fits](double v) { fits = fits && std::abs(v) <= double(std::numeric_limits<S>::max()); };
  for (double v : {in.m, in.g, in.l, in.h}) fit(v);
  for (int i = 0; i < D; ++i) fit(in.q0[i]), fit(in.p0[i]);
  for (int i = 0; i < M; ++i) fit(in.gains[i]);
  if (!fits) {
    std::fprintf(stderr, "%s: an input is beyond the range of %s\n", cmd, sizeof(S) == 4 ? "float" : "double");
    return 2;
  }
  const Result<Sys> made = Sys::make(S(in.m), S(in.g), S(in.l));
  if (!made) {
    std::fprintf(stderr, "%s: parameters m=%g g=%g l=%g not representable in this precision (%s)\n", cmd, in.m,
                 in.g, in.l, to_string(made.error()));
    return 2;
  }
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
  Vec<S, M> K;
  for (int i = 0; i < M; ++i) K[i] = S(in.gains[i]);

  double T = in.T;
  if (!in.T_given) T = Traits::default_T(ref, x0d);
  if (!(T / in.h <= 1e12)) {
    std::fprintf(stderr, "%s: T/h = %g steps is too many\n", cmd, T / in.h);
    return 2;
  }
  const long steps = std::lround(T / in.h);
  if (steps < 1) {
    std::fprintf(stderr, "%s: --T %g is shorter than one step h = %g\n", cmd, T, in.h);
    return 2;
  }
  const S h = S(in.h);
  const Scheme sc = scheme_of(method);
  const bool fbm = is_feedback(method);

  const Result<Feedback<Sys>> fbr = Feedback<Sys>::make(sys, x0, K);
  if (fbm && !fbr) {
    std::fprintf(stderr, "%s: feedback integrator refused the gains (%s)\n", cmd, to_string(fbr.error()));
    return 2;
  }
  const Feedback<Sys> fb = fbr ? *fbr : Feedback<Sys>{};
  const double limit = double(real_stability_limit<S>(sc));
  if (fbm) {
    // Bound state (see --help): q = l e1, p = p_max e2. Row norms^2 of DF there: 4 l^2,
    // p_max^2 + l^2, m^2 g^2 + p_max^2/m^2 and (spherical) p_max^2 + l^2 for J, each >= its
    // value anywhere on T*S^{D-1} with H = H0 (|p|^2 <= p_max^2, |q| = l).
    const double pmax2 = std::max(0.0, 2 * ref.m * (F0[Traits::energy_index] + ref.m * ref.g * ref.l));
    State xw = State::Zero();
    xw[0] = S(in.l);
    xw[D + 1] = S(std::sqrt(pmax2));
    const Error e0 = fb.check_step(sc, h, x0), ew = fb.check_step(sc, h, xw);
    if ((e0 != Error::none || ew != Error::none) && !o.has("unchecked")) {
      std::fprintf(stderr,
                   "%s: step refused by check_step (%s): h * stiffness = %.4g at x0 and %.4g at the bound state of "
                   "the energy level (see --help); the %s stability limit is %.4g; lower --h or --gains "
                   "(--unchecked to run anyway)\n",
                   cmd, to_string(e0 != Error::none ? e0 : ew), double(h * fb.stiffness(x0)),
                   double(h * fb.stiffness(xw)), to_string(sc), limit);
      return 3;
    }
  }
  Rattle<Sys> rattle;
  if (method == Method::rattle) {
    const Result<Rattle<Sys>> r = Rattle<Sys>::make(sys, x0);
    if (!r) {
      std::fprintf(stderr, "%s: RATTLE refused the initial state (%s)\n", cmd, to_string(r.error()));
      return 2;
    }
    rattle = *r;
  }

  std::FILE* csv = nullptr;
  if (o.has("csv")) {
    csv = std::fopen(o.str("csv", "").c_str(), "w");
    if (!csv) {
      std::fprintf(stderr, "%s: cannot write '%s'\n", cmd, o.str("csv", "").c_str());
      return 2;
    }
    std::fprintf(csv, "t");
    for (int i = 0; i < D; ++i) std::fprintf(csv, ",%s", Traits::coord[i]);
    for (int i = 0; i < D; ++i) std::fprintf(csv, ",%s", Traits::mom[i]);
    for (int i = 0; i < M; ++i) std::fprintf(csv, ",d%s", Traits::inv[i]);
    std::fprintf(csv, "\n");
  }
  const long every = long(o.num("every", 1));
  auto emit = [&](double t, const Vec<double, N>& x, const Vec<double, M>& d) {
    if (!csv) return;
    std::fprintf(csv, "%.6f", t);
    for (int i = 0; i < N; ++i) std::fprintf(csv, ",%.10g", x[i]);
    for (int i = 0; i < M; ++i) std::fprintf(csv, ",%.6e", d[i]);
    std::fprintf(csv, "\n");
  };

  double max_dev[M] = {}, fin_dev[M] = {};
  double max_hs = fbm ? double(h * fb.stiffness(x0)) : 0.0;
  const char* stopped = nullptr;
  long done = 0;
  State x = x0;
  emit(0, x0d, Vec<double, M>::Zero());
  for (long k = 0; k < steps; ++k) {
    switch (method) {
      case Method::feedback_euler: case Method::feedback_heun: case Method::feedback_rk4:
        step(sc, fb, x, h);
        break;
      case Method::euler: case Method::heun: case Method::rk4:
        step(sc, [&sys](const State& y) { return sys.field(y); }, x, h);
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
    }
    if (fbm) max_hs = std::max(max_hs, double(h * fb.stiffness(x)));
    if (done % every == 0) emit(double(done) * in.h, xd, d);
  }
  if (csv) std::fclose(csv);

  const double t_end = double(done) * in.h;
  const char* prec = sizeof(S) == 4 ? "float" : "double";
  const char* mname = kMethodNames[int(method)];
  const Result<double> period = Traits::period(ref, x0d);
  if (o.has("json")) {
    std::printf("{\"system\":\"%s\",\"method\":\"%s\",\"precision\":\"%s\",\"m\":%.10g,\"g\":%.10g,\"l\":%.10g,"
                "\"h\":%.10g,\"steps\":%ld,\"t_end\":%.10g,",
                cmd, mname, prec, ref.m, ref.g, ref.l, in.h, done, t_end);
    std::printf("\"q0\":[");
    for (int i = 0; i < D; ++i) std::printf("%s%.10g", i ? "," : "", x0d[i]);
    std::printf("],\"p0\":[");
    for (int i = 0; i < D; ++i) std::printf("%s%.10g", i ? "," : "", x0d[D + i]);
    std::printf("],\"projected\":%s,\"gains\":", in.projected ? "true" : "false");
    if (fbm) {
      std::printf("[");
      for (int i = 0; i < M; ++i) std::printf("%s%.10g", i ? "," : "", double(K[i]));
      std::printf("],\"max_h_stiffness\":%.4g,\"stability_limit\":%.4g,", max_hs, limit);
    } else {
      std::printf("null,");
    }
    if (Traits::has_period) {
      std::printf("\"period\":");
      if (period) std::printf("%.10g,", *period);
      else std::printf("null,");
    }
    std::printf("\"invariants0\":{");
    for (int i = 0; i < M; ++i) std::printf("%s\"%s\":%.10g", i ? "," : "", Traits::inv[i], F0[i]);
    std::printf("},\"max_abs_dev\":{");
    for (int i = 0; i < M; ++i) {
      std::printf("%s\"%s\":", i ? "," : "", Traits::inv[i]);
      json_number("%.3e", max_dev[i]);
    }
    std::printf("},\"final_abs_dev\":{");
    for (int i = 0; i < M; ++i) {
      std::printf("%s\"%s\":", i ? "," : "", Traits::inv[i]);
      json_number("%.3e", fin_dev[i]);
    }
    std::printf("},\"stopped\":");
    if (stopped) std::printf("\"%s\"}\n", stopped);
    else std::printf("null}\n");
  } else {
    std::printf("%s %s %s h=%g steps=%ld t=%g:", cmd, mname, prec, in.h, done, t_end);
    for (int i = 0; i < M; ++i)
      std::printf(" %s max=%.2e fin=%.2e", Traits::inv[i], max_dev[i], fin_dev[i]);
    if (fbm) std::printf(" | max h*stiffness=%.3g (limit %.4g)", max_hs, limit);
    if (Traits::has_period && period) std::printf(" | period=%.6g", *period);
    if (stopped) std::printf(" | STOPPED: %s at t=%g", stopped, t_end);
    std::printf("\n");
  }
  return stopped ? 4 : 0;
}

// Parse, validate, dispatch on precision. argv[0] is the command name.
template <class Traits>
int pendulum_main(int argc, char** argv) {
  constexpr int D = Traits::D, M = Traits::M;
  const char* cmd = Traits::name;
  if (cli::wants_help(argc, argv)) {
    std::fputs(Traits::help, stdout);
    std::fputs(kPendulumCommonHelp, stdout);
    return 0;
  }
  cli::Options o;
  if (!cli::parse_options(cmd, argc, argv, {"json", "unchecked", "project"},
                          {"m", "g", "l", "q0", "p0", "h", "T", "method", "gains", "precision", "csv", "every",
                           "json", "config", "unchecked", "project"},
                          o))
    return 2;

  PendulumInputs<D, M> in;
  if (!cli::number_option(cmd, o, "m", 1.0, in.m) || !cli::number_option(cmd, o, "g", 1.0, in.g) ||
      !cli::number_option(cmd, o, "l", 1.0, in.l) || !cli::number_option(cmd, o, "h", 1e-3, in.h) ||
      !cli::number_option(cmd, o, "T", 0.0, in.T))
    return 2;
  in.T_given = o.has("T");
  {
    const Result<typename Traits::template System<double>> s =
        Traits::template System<double>::make(in.m, in.g, in.l);
    if (!s) {
      std::fprintf(stderr, "%s: invalid parameters m=%g g=%g l=%g (%s): need finite m > 0, l > 0, g >= 0\n", cmd,
                   in.m, in.g, in.l, to_string(s.error()));
      return 2;
    }
  }
  if (!std::isfinite(in.h) || !(in.h > 0) || (in.T_given && (!std::isfinite(in.T) || !(in.T > 0)))) {
    std::fprintf(stderr, "%s: --h and --T must be finite and > 0\n", cmd);
    return 2;
  }
  double every = 1;
  if (!cli::number_option(cmd, o, "every", 1.0, every)) return 2;
  if (!(every >= 1) || every != std::floor(every) || every > 1e15) {
    std::fprintf(stderr, "%s: --every must be a whole number >= 1\n", cmd);
    return 2;
  }

  Method method = Method::feedback_rk4;
  if (!parse_method(o.str("method", "feedback-rk4"), method)) {
    std::fprintf(stderr, "%s: unknown method '%s' (try --help)\n", cmd, o.str("method", "").c_str());
    return 2;
  }

  // Initial condition.
  Traits::default_x0(in.l, in.q0, in.p0);
  if (!cli::list_option(cmd, o, "q0", in.q0, D) || !cli::list_option(cmd, o, "p0", in.p0, D)) return 2;
  Vec<double, D> q, p;
  for (int i = 0; i < D; ++i) {
    q[i] = in.q0[i];
    p[i] = in.p0[i];
  }
  if (!all_finite(q) || !all_finite(p)) {
    std::fprintf(stderr, "%s: q0 and p0 must be finite\n", cmd);
    return 2;
  }
  const double l = in.l, f1 = q.squaredNorm(), f2 = q.dot(p);
  const bool on_sphere = std::abs(f1 - l * l) <= 1e-9 * l * l;
  const bool tangent = std::abs(f2) <= 1e-9 * l * p.norm();
  if (!on_sphere || !tangent) {
    if (!o.has("project")) {
      if (!on_sphere)
        std::fprintf(stderr, "%s: q0 is not on the sphere |q| = l = %g: |q0| = %.10g (use --project to project it)\n",
                     cmd, l, std::sqrt(f1));
      else
        std::fprintf(stderr, "%s: p0 is not tangent to the sphere at q0: q0.p0 = %.3e (use --project to project it)\n",
                     cmd, f2);
      return 2;
    }
    if (!(f1 > 0)) {
      std::fprintf(stderr, "%s: q0 = 0 cannot be projected onto the sphere\n", cmd);
      return 2;
    }
    q *= l / std::sqrt(f1);
    p -= (q.dot(p) / q.squaredNorm()) * q;
    for (int i = 0; i < D; ++i) {
      in.q0[i] = q[i];
      in.p0[i] = p[i];
    }
    in.projected = true;
  }

  // Gains: one value for all, or one per invariant.
  for (int i = 0; i < M; ++i) in.gains[i] = 50;  // paper 002 §2.3: k1 = ... = k4 = 50
  if (o.has("gains")) {
    double one;
    if (cli::parse_number(o.str("gains", ""), one)) {
      for (int i = 0; i < M; ++i) in.gains[i] = one;
    } else if (!cli::list_option(cmd, o, "gains", in.gains, M)) {
      return 2;
    }
    for (int i = 0; i < M; ++i)
      if (!std::isfinite(in.gains[i]) || in.gains[i] < 0) {
        std::fprintf(stderr, "%s: gains must be finite and >= 0 (gain %d = %g)\n", cmd, i + 1, in.gains[i]);
        return 2;
      }
  }

  const std::string prec = o.str("precision", "double");
  if (prec == "float") return run_pendulum<Traits, float>(o, in, method);
  if (prec == "double") return run_pendulum<Traits, double>(o, in, method);
  std::fprintf(stderr, "%s: --precision must be float or double\n", cmd);
  return 2;
}

}  // namespace attractor::sim
