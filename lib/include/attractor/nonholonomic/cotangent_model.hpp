// SPDX-License-Identifier: Apache-2.0
// What a nonholonomic system on a cotangent bundle T*Q supplies to CotangentExtension
// (cotangent_extension.hpp; paper 000 §2.1), checked at compile time with readable messages:
//
//   struct MyModel {
//     using Scalar = S;
//     static constexpr int Q = ...;   // configuration dimension, state x = (q, p) in R^{2Q}
//     static constexpr int K = ...;   // number of constraints ⟨p, e_i(q)⟩ = 0 (paper eq. (2)), 1..3
//     Mat<S,Q,Q> mass(q) const;                 // m(q), symmetric positive definite
//     Mat<S,Q,Q> inverse_mass(q) const;         // m(q)⁻¹ (p♯ = m⁻¹ p)
//     Vec<S,Q>   kinetic_gradient(q, a) const;  // ∇_q ½ aᵀ m(q)⁻¹ a for a fixed covector a
//     S          potential(q) const;            // V(q)
//     Vec<S,Q>   potential_gradient(q) const;   // ∇V(q)
//     Mat<S,Q,K> constraint_fields(q) const;    // columns e_i(q); need not be orthonormal
//     Mat<S,Q,Q> constraint_derivative(q, i) const;  // De_i(q): entry (a, k) = ∂e_iᵃ/∂q_k
//   };
//
// Optional: further first integrals of the system (momenta, a partial energy),
//
//     static constexpr int extra_integrals = E;
//     Vec<S,E>      first_integrals(q, p) const;
//     Mat<S,E,2Q>   first_integrals_jacobian(q, p) const;
//
// appended after the constraint and energy rows.
#pragma once

#include <type_traits>
#include <utility>

#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/extra_integrals.hpp"

namespace attractor {

namespace detail {
template <class, class = void>
struct cot_dims : std::false_type {};
template <class T>
struct cot_dims<T, std::void_t<typename T::Scalar, decltype(int{T::Q}), decltype(int{T::K})>> : std::true_type {};

template <class T>
using cot_q = Vec<typename T::Scalar, T::Q>;
template <class T>
using cot_qq = Mat<typename T::Scalar, T::Q, T::Q>;

template <class T, class R, class = void>
struct cot_returns : std::false_type {};
template <class T, class R>
struct cot_returns<T, R, std::enable_if_t<std::is_convertible<T, R>::value>> : std::true_type {};

template <class T, class = void>
struct cot_members : std::false_type {};
template <class T>
struct cot_members<
    T, std::void_t<decltype(std::declval<const T&>().mass(std::declval<const cot_q<T>&>())),
                   decltype(std::declval<const T&>().inverse_mass(std::declval<const cot_q<T>&>())),
                   decltype(std::declval<const T&>().kinetic_gradient(std::declval<const cot_q<T>&>(),
                                                                      std::declval<const cot_q<T>&>())),
                   decltype(std::declval<const T&>().potential(std::declval<const cot_q<T>&>())),
                   decltype(std::declval<const T&>().potential_gradient(std::declval<const cot_q<T>&>())),
                   decltype(std::declval<const T&>().constraint_fields(std::declval<const cot_q<T>&>())),
                   decltype(std::declval<const T&>().constraint_derivative(std::declval<const cot_q<T>&>(), 0))>>
    : std::integral_constant<
          bool,
          std::is_convertible<decltype(std::declval<const T&>().mass(std::declval<const cot_q<T>&>())),
                              cot_qq<T>>::value &&
              std::is_convertible<decltype(std::declval<const T&>().inverse_mass(std::declval<const cot_q<T>&>())),
                                  cot_qq<T>>::value &&
              std::is_convertible<decltype(std::declval<const T&>().constraint_fields(std::declval<const cot_q<T>&>())),
                                  Mat<typename T::Scalar, T::Q, T::K>>::value &&
              std::is_convertible<decltype(std::declval<const T&>().constraint_derivative(
                                      std::declval<const cot_q<T>&>(), 0)),
                                  cot_qq<T>>::value> {};
}  // namespace detail

// Fails the build with the first missing piece of the contract above. Returns true.
template <class T>
constexpr bool check_cotangent_model() {
  static_assert(detail::cot_dims<T>::value,
                "attractor cotangent model: needs `using Scalar`, `static constexpr int Q` (configuration "
                "dimension) and `K` (constraint count)");
  if constexpr (detail::cot_dims<T>::value) {
    static_assert(std::is_floating_point<typename T::Scalar>::value,
                  "attractor cotangent model: Scalar must be float or double");
    static_assert(T::Q > 0 && T::K >= 1 && T::K <= 3 && T::K < T::Q,
                  "attractor cotangent model: needs Q > 0 and 1 <= K <= 3, K < Q");
    static_assert(detail::cot_members<T>::value,
                  "attractor cotangent model: needs mass(q), inverse_mass(q) (Mat<S,Q,Q>), kinetic_gradient(q, a), "
                  "potential(q), potential_gradient(q), constraint_fields(q) (Mat<S,Q,K>) and "
                  "constraint_derivative(q, i) (Mat<S,Q,Q>), all const");
    static_assert(extra_integrals_of<T> >= 0, "attractor cotangent model: extra_integrals must be >= 0");
  }
  return true;
}

}  // namespace attractor
