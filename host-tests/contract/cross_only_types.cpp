// SPDX-License-Identifier: Apache-2.0
// A system's vector algebra from core/types.hpp alone: cross() and a rotation must compile and
// link (Eigen/Core declares them, Eigen/Geometry defines them).
#include "attractor/core/types.hpp"

int main() {
  const attractor::Vec3<float> a(1, 0, 0), b(0, 1, 0);
  const attractor::Mat3<double> R = Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return a.cross(b).isApprox(attractor::Vec3<float>(0, 0, 1)) && std::abs(R.determinant() - 1) < 1e-12 ? 0 : 1;
}
