// SPDX-License-Identifier: Apache-2.0
// On-target self-test of the fixed-step schemes (Euler, Heun, RK4), float and double.
//  1. One step of x' = lambda x must equal the scheme's stability polynomial R(h lambda)
//     (1+z, 1+z+z^2/2, 1+z+z^2/2+z^3/6+z^4/24): any wrong tableau coefficient breaks it.
//  2. On the harmonic oscillator q'' = -q (exact solution cos t, -sin t) the global error
//     at t = T shrinks with the scheme's order when h is halved.
#include <cmath>

#include "attractor/integrate/butcher.hpp"
#include "check.hpp"

using namespace attractor;

namespace {

template <class S>
struct Decay {  // x' = lambda x
  S lambda;
  Vec<S, 1> operator()(const Vec<S, 1>& x) const { return lambda * x; }
};

template <class S>
struct Oscillator {  // (q, v)' = (v, -q)
  Vec<S, 2> operator()(const Vec<S, 2>& x) const { return Vec<S, 2>(x[1], -x[0]); }
};

template <class S>
S stability_polynomial(Scheme s, S z) {
  S r = S(1) + z;
  if (s == Scheme::euler) return r;
  r += z * z / S(2);
  if (s == Scheme::heun) return r;
  return r + z * z * z / S(6) + z * z * z * z / S(24);
}

template <class S>
double oscillator_error(Scheme s, int steps, S T) {
  Vec<S, 2> x(S(1), S(0));
  const S h = T / S(steps);
  for (int k = 0; k < steps; ++k) step(s, Oscillator<S>{}, x, h);
  const double dq = double(x[0]) - std::cos(double(T));
  const double dv = double(x[1]) + std::sin(double(T));
  return std::sqrt(dq * dq + dv * dv);
}

template <class S>
void run(target_test::Checker& c, const char* precision, double poly_tol, int coarse_steps, double order_tol) {
  const Scheme schemes[] = {Scheme::euler, Scheme::heun, Scheme::rk4};
  for (Scheme s : schemes) {
    Text<80> name;
    name << precision << " " << to_string(s) << " one step = R(h*lambda)";
    const S h = S(0.1);
    const S lambda = S(-1.7);
    Vec<S, 1> x(S(1));
    step(s, Decay<S>{lambda}, x, h);
    const S expected = stability_polynomial(s, h * lambda);
    c.le(name.c_str(), std::fabs(double(x[0] - expected)), poly_tol);

    const S T = S(2);
    const double e1 = oscillator_error<S>(s, coarse_steps, T);
    const double e2 = oscillator_error<S>(s, 2 * coarse_steps, T);
    const double observed = std::log(e1 / e2) / std::log(2.0);
    Text<80> oname;
    oname << precision << " " << to_string(s) << " observed order";
    c.near(oname.c_str(), observed, double(order(s)), order_tol);
  }
}

}  // namespace

int main() {
  board::initialize();
  target_test::Checker c("integrators: Euler, Heun, RK4 (float, double)");
  // float: coarse steps so truncation error dominates rounding (~6e-8 per operation).
  run<float>(c, "float ", 2e-7, 8, 0.3);
  run<double>(c, "double", 1e-15, 32, 0.15);
  return c.finish();
}
