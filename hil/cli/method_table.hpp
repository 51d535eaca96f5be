// SPDX-License-Identifier: Apache-2.0
// --method of the feedback-system driver: feedback-euler|feedback-heun|feedback-rk4 (the
// feedback field X(x) - DF^T K (F(x) - F*), paper 002 eqs. (7)-(8)), euler|heun|rk4 (the same
// schemes on the plain field X), then a system's own extra steppers (baselines such as RATTLE),
// in the order the entry lists them. The scheme is a run-time choice stepped through one padded
// tableau (scheme_step), so a system's run loop is instantiated once per field and precision,
// not once per scheme: the zero entries are skipped as in explicit_rk_step, so the arithmetic,
// and every result, is the library's euler_step/heun_step/rk4_step's. Host-only.
#pragma once

#include <string>
#include <vector>

#include "attractor/integrate/butcher.hpp"
#include "exit_codes.hpp"

namespace attractor::cli {

enum class MethodKind { feedback, plain, extra };

struct MethodChoice {
  MethodKind kind = MethodKind::feedback;
  Scheme scheme = Scheme::rk4;  // feedback, plain
  int extra = -1;               // index into the entry's extra steppers
  std::string name;
  bool feedback() const { return kind == MethodKind::feedback; }
};

inline std::vector<std::string> method_names(const char* const* extras, int n_extras) {
  std::vector<std::string> v = {"feedback-euler", "feedback-heun", "feedback-rk4", "euler", "heun", "rk4"};
  for (int i = 0; i < n_extras; ++i) v.push_back(extras[i]);
  return v;
}

inline MethodChoice parse_method(const std::string& s, const char* const* extras, int n_extras) {
  const std::vector<std::string> names = method_names(extras, n_extras);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (s != names[i]) continue;
    MethodChoice m;
    m.name = s;
    if (i < 6) {
      m.kind = i < 3 ? MethodKind::feedback : MethodKind::plain;
      m.scheme = Scheme(i % 3);
    } else {
      m.kind = MethodKind::extra, m.extra = int(i) - 6;
    }
    return m;
  }
  throw Failure(exit_usage, "--method: unknown method '" + s + "'");
}

// The built-in tableaux padded to 4 stages (zero entries are never evaluated), with their stage
// weights (stage_weights, butcher.hpp).
template <class S>
struct RuntimeTableau {
  int stages = 4;
  ButcherTableau<S, 4> t{};
  StageWeights<S, 4> c{};
};
template <class S>
RuntimeTableau<S> runtime_tableau(Scheme s) {
  RuntimeTableau<S> r;
  if (s == Scheme::rk4) {
    r.t = rk4_tableau<S>();
  } else {
    const ButcherTableau<S, 2> h = heun_tableau<S>();
    r.stages = s == Scheme::euler ? 1 : 2;
    r.t.b[0] = s == Scheme::euler ? S(1) : h.b[0];
    r.t.b[1] = s == Scheme::euler ? S(0) : h.b[1];
    r.t.a[1][0] = h.a[1][0];
  }
  r.c = stage_weights(r.t);
  return r;
}

// One explicit step of the run-time tableau: x <- x + h sum b_i k_i (the stage loop of
// explicit_rk_step with a run-time stage count: the stages summed by their weights, the sum
// added to x once).
template <class S, int N, class Field>
void scheme_step(const RuntimeTableau<S>& rt, const Field& f, Vec<S, N>& x, S h) {
  Vec<S, N> k[4];
  Vec<S, N> sum = Vec<S, N>::Zero();  // every built-in scheme overwrites it at its first stage
  for (int i = 0; i < rt.stages; ++i) {
    Vec<S, N> xi = x;
    for (int j = 0; j < i; ++j)
      if (rt.t.a[i][j] != S(0)) xi += (h * rt.t.a[i][j]) * k[j];
    k[i] = attractor::detail::evaluate_field(f, xi);
    if (rt.c.w[i] != S(0)) attractor::detail::add_stage(sum, rt.c.w[i], k[i], i == rt.c.first);
  }
  if (rt.c.first >= 0) attractor::detail::add_scaled(x.data(), h * rt.c.scale, sum);
}

}  // namespace attractor::cli
