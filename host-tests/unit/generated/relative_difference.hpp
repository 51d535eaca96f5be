// SPDX-License-Identifier: Apache-2.0
// The agreement measure of the generated-against-hand-written tests: |a − b|∞ / (1 + |b|∞), in
// double whatever the vectors' scalar.
#pragma once

#include <Eigen/Core>

namespace attractor::generated_test {

template <class V>
double relative_difference(const V& a, const V& b) {
  const auto ad = a.template cast<double>(), bd = b.template cast<double>();
  return (ad - bd).template lpNorm<Eigen::Infinity>() / (1 + bd.template lpNorm<Eigen::Infinity>());
}

}  // namespace attractor::generated_test
