// SPDX-License-Identifier: Apache-2.0
// The System contract every feedback integrator (integrate/feedback.hpp) and every explicit
// stepper relies on, checked at compile time with readable messages:
//
//   template <class S> struct MySystem {
//     using Scalar = S;                                  // float or double
//     static constexpr int N = ...;                      // ambient state dimension
//     static constexpr int M = ...;                      // number of monitored invariants
//     Vec<S, N>    field(const Vec<S, N>& x) const;      // extended vector field X(x)
//     Vec<S, M>    invariants(const Vec<S, N>& x) const; // F(x)
//     Mat<S, M, N> invariants_jacobian(const Vec<S, N>& x) const;  // DF(x), analytic
//   };
//
// check_system<MySystem<float>>() (or is_system_v) states it; Feedback<> checks it for you.
//
// Optional, detected at compile time (has_feedback_gradient_v): a fused gradient of the
// feedback integrator's Lyapunov function V = 1/2 (F-F0)^T K (F-F0) (paper 000 §2, eq. (6)),
//
//     Vec<S, N> feedback_gradient(const Vec<S, N>& x, const Vec<S, M>& F0,
//                                 const Vec<S, M>& K) const;   // = DF(x)^T K (F(x) - F0)
//
// written out by hand: shared subexpressions once, no zero entries of DF multiplied, no M×N
// matrix stored. Feedback<> then uses it instead of invariants() and invariants_jacobian();
// without it the generic product is used. And, with L = I (IdentityMetric), the whole
// feedback field fused with X (has_feedback_field_v), sharing what X and grad V both compute:
//
//     Vec<S, N> feedback_field(const Vec<S, N>& x, const Vec<S, M>& F0,
//                              const Vec<S, M>& K) const;      // = X(x) - DF(x)^T K (F(x) - F0)
//
// Both must agree with the generic path to rounding (Feedback::generic_gradient; host-tests
// check this for every system that defines them).
#pragma once

#include <type_traits>
#include <utility>

#include "attractor/core/types.hpp"

namespace attractor {

namespace detail {
template <class, class = void>
struct has_scalar : std::false_type {};
template <class T>
struct has_scalar<T, std::void_t<typename T::Scalar>> : std::true_type {};

template <class, class = void>
struct has_dims : std::false_type {};
template <class T>
struct has_dims<T, std::void_t<decltype(int{T::N}), decltype(int{T::M})>> : std::true_type {};

template <class T>
using state_of = Vec<typename T::Scalar, T::N>;

template <class, class = void>
struct has_field : std::false_type {};
template <class T>
struct has_field<T,
                 std::enable_if_t<std::is_convertible<
                     decltype(std::declval<const T&>().field(std::declval<const state_of<T>&>())), state_of<T>>::value>>
    : std::true_type {};

template <class, class = void>
struct has_invariants : std::false_type {};
template <class T>
struct has_invariants<T, std::enable_if_t<std::is_convertible<decltype(std::declval<const T&>().invariants(
                                                                  std::declval<const state_of<T>&>())),
                                                              Vec<typename T::Scalar, T::M>>::value>> : std::true_type {
};

template <class, class = void>
struct has_jacobian : std::false_type {};
template <class T>
struct has_jacobian<T, std::enable_if_t<std::is_convertible<decltype(std::declval<const T&>().invariants_jacobian(
                                                                std::declval<const state_of<T>&>())),
                                                            Mat<typename T::Scalar, T::M, T::N>>::value>>
    : std::true_type {};

template <class, class = void>
struct has_feedback_gradient : std::false_type {};
template <class T>
struct has_feedback_gradient<
    T, std::enable_if_t<std::is_convertible<decltype(std::declval<const T&>().feedback_gradient(
                                                std::declval<const state_of<T>&>(),
                                                std::declval<const Vec<typename T::Scalar, T::M>&>(),
                                                std::declval<const Vec<typename T::Scalar, T::M>&>())),
                                            state_of<T>>::value>> : std::true_type {};

template <class, class = void>
struct has_feedback_field : std::false_type {};
template <class T>
struct has_feedback_field<
    T, std::enable_if_t<std::is_convertible<decltype(std::declval<const T&>().feedback_field(
                                                std::declval<const state_of<T>&>(),
                                                std::declval<const Vec<typename T::Scalar, T::M>&>(),
                                                std::declval<const Vec<typename T::Scalar, T::M>&>())),
                                            state_of<T>>::value>> : std::true_type {};

template <class T, bool = has_scalar<T>::value&& has_dims<T>::value>
struct system_members : std::false_type {};
template <class T>
struct system_members<T, true>
    : std::integral_constant<bool, has_field<T>::value && has_invariants<T>::value && has_jacobian<T>::value> {};
}  // namespace detail

template <class T>
constexpr bool is_system_v = detail::system_members<T>::value;

// True when T supplies the optional fused feedback_gradient(x, F0, K) above.
template <class T>
constexpr bool has_feedback_gradient_v = is_system_v<T>&& detail::has_feedback_gradient<T>::value;

// True when T supplies the optional fused feedback_field(x, F0, K) above.
template <class T>
constexpr bool has_feedback_field_v = is_system_v<T>&& detail::has_feedback_field<T>::value;

// Fails the build with the first missing piece of the contract above. Returns true.
template <class T>
constexpr bool check_system() {
  static_assert(detail::has_scalar<T>::value, "attractor System: needs `using Scalar = float or double;`");
  static_assert(detail::has_dims<T>::value,
                "attractor System: needs `static constexpr int N` (state size) and `M` (invariant count)");
  if constexpr (detail::has_scalar<T>::value && detail::has_dims<T>::value) {
    static_assert(std::is_floating_point<typename T::Scalar>::value,
                  "attractor System: Scalar must be float or double");
    static_assert(T::N > 0 && T::M > 0, "attractor System: N and M must be positive");
    static_assert(detail::has_field<T>::value,
                  "attractor System: needs `Vec<Scalar, N> field(const Vec<Scalar, N>&) const`");
    static_assert(detail::has_invariants<T>::value,
                  "attractor System: needs `Vec<Scalar, M> invariants(const Vec<Scalar, N>&) const`");
    static_assert(detail::has_jacobian<T>::value,
                  "attractor System: needs `Mat<Scalar, M, N> invariants_jacobian(const Vec<Scalar, N>&) const`");
  }
  return true;
}

}  // namespace attractor
