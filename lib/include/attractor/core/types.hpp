// SPDX-License-Identifier: Apache-2.0
// Fixed-size linear-algebra vocabulary of the library. Everything is a fixed-size Eigen
// type, so nothing here can allocate; the scalar is always a template parameter.
#pragma once

// A dynamic Eigen allocation is a bug in this library: make it loud. Host tests define
// EIGEN_RUNTIME_NO_MALLOC instead and forbid allocation around each step (NoAllocGuard).
#if !defined(EIGEN_NO_MALLOC) && !defined(EIGEN_RUNTIME_NO_MALLOC)
#define EIGEN_NO_MALLOC
#endif
#include <Eigen/Core>
// Geometry too: Eigen/Core declares cross(), cross3() and the rotation types' entry points but
// defines them in Eigen/Geometry, so a system that uses them without it compiles and then fails
// to link. Everything a system includes through the library brings both.
#include <Eigen/Geometry>

namespace attractor {

template <class S, int N>
using Vec = Eigen::Matrix<S, N, 1>;

template <class S, int R, int C>
using Mat = Eigen::Matrix<S, R, C>;

template <class S>
using Vec3 = Vec<S, 3>;

template <class S>
using Mat3 = Mat<S, 3, 3>;

}  // namespace attractor
