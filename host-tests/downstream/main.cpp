// SPDX-License-Identifier: Apache-2.0
// Downstream use: a user's own system with a feedback integrator (exit code 0 = worked).
#include <attractor/integrate/feedback.hpp>
#include <cmath>

template <class S>
struct Rotation {  // x' = (x2, -x1), invariant |x|^2
  using Scalar = S;
  static constexpr int N = 2, M = 1;
  attractor::Vec<S, 2> field(const attractor::Vec<S, 2>& x) const { return {x[1], -x[0]}; }
  attractor::Vec<S, 1> invariants(const attractor::Vec<S, 2>& x) const { return attractor::Vec<S, 1>(x.squaredNorm()); }
  attractor::Mat<S, 1, 2> invariants_jacobian(const attractor::Vec<S, 2>& x) const { return S(2) * x.transpose(); }
};

int main() {
  attractor::Vec<float, 2> x(1.f, 0.f);
  auto fb = attractor::feedback(Rotation<float>{}, x, attractor::Vec<float, 1>(10.f));
  for (int k = 0; k < 10000; ++k) attractor::euler_step(fb, x, 1e-2f);
  return std::fabs(x.squaredNorm() - 1.f) < 1e-2f ? 0 : 1;
}
