// SPDX-License-Identifier: Apache-2.0
// SO(3) helpers: hat/vee (the isomorphism R^3 <-> so(3)), Rodrigues exponential.
#pragma once

#include <cmath>

#include "attractor/core/types.hpp"

namespace attractor {

// hat(w) v = w x v.
template <class S>
Mat3<S> hat(const Vec3<S>& w) {
  Mat3<S> W;
  W << S(0), -w.z(), w.y(), w.z(), S(0), -w.x(), -w.y(), w.x(), S(0);
  return W;
}

// vee(hat(w)) = w; uses the antisymmetric part so it is exact on so(3).
template <class S>
Vec3<S> vee(const Mat3<S>& W) {
  return Vec3<S>(W(2, 1) - W(1, 2), W(0, 2) - W(2, 0), W(1, 0) - W(0, 1)) * S(0.5);
}

// exp(hat(w)) by Rodrigues' formula, with a series near 0 (no division by tiny angles).
template <class S>
Mat3<S> exp_so3(const Vec3<S>& w) {
  const S th2 = w.squaredNorm();
  const S th = std::sqrt(th2);
  S a, b;  // sin(th)/th, (1-cos th)/th^2
  if (th2 < S(1e-6)) {
    a = S(1) - th2 / S(6);
    b = S(0.5) - th2 / S(24);
  } else {
    a = std::sin(th) / th;
    b = (S(1) - std::cos(th)) / th2;
  }
  const Mat3<S> W = hat(w);
  return Mat3<S>::Identity() + a * W + b * (W * W);
}

}  // namespace attractor
