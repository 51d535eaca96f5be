// SPDX-License-Identifier: Apache-2.0
// A system that breaks the System contract in one way, chosen by -DBREAK=<n>, used as a user
// would (Feedback, an RK4 step): the build must stop with the contract's one message
// (contract_test.cmake checks it, and that Eigen's own errors do not follow).
#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"

using attractor::Mat;
using attractor::Vec;

struct Broken {
  using Scalar = double;
  static constexpr int N = 3, M = 2;
#if BREAK == 1  // the Jacobian transposed: N x M
  Mat<double, 3, 2> invariants_jacobian(const Vec<double, 3>&) const { return Mat<double, 3, 2>::Zero(); }
#else
  Mat<double, 2, 3> invariants_jacobian(const Vec<double, 3>&) const { return Mat<double, 2, 3>::Zero(); }
#endif
#if BREAK == 2  // a field of the wrong size
  Vec<double, 4> field(const Vec<double, 3>&) const { return Vec<double, 4>::Zero(); }
#else
  Vec<double, 3> field(const Vec<double, 3>& x) const { return x; }
#endif
#if BREAK == 3  // M inconsistent with the invariants returned
  Vec<double, 3> invariants(const Vec<double, 3>& x) const { return x; }
#elif BREAK == 4  // invariants missing
#else
  Vec<double, 2> invariants(const Vec<double, 3>& x) const { return x.head<2>(); }
#endif
};

int main() {
  Vec<double, 3> x(1, 2, 3);
  const auto fb = attractor::feedback(Broken{}, x, Vec<double, 2>(1, 1));
  attractor::rk4_step(fb, x, 1e-3);
  return fb.stiffness(x) >= 0 && x[0] > 1 ? 0 : 1;
}
