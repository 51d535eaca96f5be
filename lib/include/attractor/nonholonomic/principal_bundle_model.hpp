// SPDX-License-Identifier: Apache-2.0
// What a nonholonomic system on a trivial principal bundle Q = G × X supplies to
// PrincipalBundleExtension (principal_bundle_extension.hpp; paper 000 §2.3): a Lie group G of
// symmetries and a shape manifold X in coordinates. Checked at compile time with readable
// messages:
//
//   struct MyModel {
//     using Scalar = S;
//     static constexpr int D = ...;            // dim 𝔤; μ ∈ 𝔤* ≅ R^D
//     static constexpr int P = ...;            // dim X; shape x and its momentum p_x in R^P
//     static constexpr int K = ...;            // constraints ⟨(μ, p_x), e_i(x)⟩ = 0, 1..3
//     static constexpr int G = ...;            // entries of the group element in the state (0: reduced)
//     static constexpr int rotation_size = n;  // 0, 2 or 3: g starts with R ∈ R^{n×n}, column-major
//     // With Z = D + P and z = (μ, p_x):
//     Mat<S,Z,Z> mass(x) const;                  // reduced mass tensor m(x) (eq. (20)), SPD
//     Mat<S,Z,Z> inverse_mass(x) const;          // m(x)⁻¹
//     Vec<S,P>   kinetic_gradient(x, a) const;   // ∇_x ½ aᵀ m(x)⁻¹ a for a fixed a ∈ R^Z
//     S          potential(x) const;             // reduced V(x)
//     Vec<S,P>   potential_gradient(x) const;
//     Mat<S,Z,K> constraint_fields(x) const;     // columns e_i(x); need not be orthonormal
//     Mat<S,Z,P> constraint_derivative(x, i) const;  // entry (a, k) = ∂e_iᵃ/∂x_k
//     Vec<S,D>   ad_star(xi, mu) const;          // ad*_ξ μ, with ⟨ad*_ξ μ, η⟩ = ⟨μ, [ξ, η]⟩
//     Vec<S,G>   group_velocity(g, xi) const;    // ġ = g·ξ in the embedding (when G > 0)
//   };
//
// Optional, when the group part starts with a rotation R (rotation_size n > 0), the feedback
// field's group velocity
//
//     Vec<S,G>   group_velocity(g, xi, W) const;  // g·ξ with Ṙ = R (ξ^ − W) in place of R ξ^
//
// for a symmetric n×n W (the RᵀR − I rows' weights): one product instead of R ξ^ − R W.
#pragma once

#include <type_traits>
#include <utility>

#include "attractor/core/types.hpp"

namespace attractor {

namespace detail {
template <class, class = void>
struct bundle_dims : std::false_type {};
template <class T>
struct bundle_dims<T, std::void_t<typename T::Scalar, decltype(int{T::D}), decltype(int{T::P}), decltype(int{T::K}),
                                  decltype(int{T::G}), decltype(int{T::rotation_size})>> : std::true_type {};

template <class T>
using bundle_x = Vec<typename T::Scalar, T::P>;
template <class T>
using bundle_z = Vec<typename T::Scalar, T::D + T::P>;
template <class T>
using bundle_zz = Mat<typename T::Scalar, T::D + T::P, T::D + T::P>;

template <class T, class = void>
struct bundle_members : std::false_type {};
template <class T>
struct bundle_members<
    T, std::void_t<decltype(std::declval<const T&>().mass(std::declval<const bundle_x<T>&>())),
                   decltype(std::declval<const T&>().inverse_mass(std::declval<const bundle_x<T>&>())),
                   decltype(std::declval<const T&>().kinetic_gradient(std::declval<const bundle_x<T>&>(),
                                                                      std::declval<const bundle_z<T>&>())),
                   decltype(std::declval<const T&>().potential(std::declval<const bundle_x<T>&>())),
                   decltype(std::declval<const T&>().potential_gradient(std::declval<const bundle_x<T>&>())),
                   decltype(std::declval<const T&>().constraint_fields(std::declval<const bundle_x<T>&>())),
                   decltype(std::declval<const T&>().constraint_derivative(std::declval<const bundle_x<T>&>(), 0)),
                   decltype(std::declval<const T&>().ad_star(std::declval<const Vec<typename T::Scalar, T::D>&>(),
                                                             std::declval<const Vec<typename T::Scalar, T::D>&>()))>>
    : std::integral_constant<
          bool,
          std::is_convertible<decltype(std::declval<const T&>().mass(std::declval<const bundle_x<T>&>())),
                              bundle_zz<T>>::value &&
              std::is_convertible<decltype(std::declval<const T&>().inverse_mass(std::declval<const bundle_x<T>&>())),
                                  bundle_zz<T>>::value &&
              std::is_convertible<decltype(std::declval<const T&>().kinetic_gradient(
                                      std::declval<const bundle_x<T>&>(), std::declval<const bundle_z<T>&>())),
                                  bundle_x<T>>::value &&
              std::is_convertible<decltype(std::declval<const T&>().constraint_fields(
                                      std::declval<const bundle_x<T>&>())),
                                  Mat<typename T::Scalar, T::D + T::P, T::K>>::value &&
              std::is_convertible<decltype(std::declval<const T&>().constraint_derivative(
                                      std::declval<const bundle_x<T>&>(), 0)),
                                  Mat<typename T::Scalar, T::D + T::P, T::P>>::value> {};

template <class T, class = void>
struct bundle_group_velocity : std::false_type {};
template <class T>
struct bundle_group_velocity<
    T, std::enable_if_t<std::is_convertible<decltype(std::declval<const T&>().group_velocity(
                                                std::declval<const Vec<typename T::Scalar, T::G>&>(),
                                                std::declval<const Vec<typename T::Scalar, T::D>&>())),
                                            Vec<typename T::Scalar, T::G>>::value>> : std::true_type {};
template <class T, class = void>
struct bundle_weighted_velocity : std::false_type {};
template <class T>
struct bundle_weighted_velocity<
    T,
    std::enable_if_t<(T::rotation_size > 0) &&
                     std::is_convertible<
                         decltype(std::declval<const T&>().group_velocity(
                             std::declval<const Vec<typename T::Scalar, T::G>&>(),
                             std::declval<const Vec<typename T::Scalar, T::D>&>(),
                             std::declval<const Mat<typename T::Scalar, (T::rotation_size > 0 ? T::rotation_size : 1),
                                                    (T::rotation_size > 0 ? T::rotation_size : 1)>&>())),
                         Vec<typename T::Scalar, T::G>>::value>> : std::true_type {};
}  // namespace detail

// Fails the build with the first missing piece of the contract above. Returns true.
template <class T>
constexpr bool check_principal_bundle_model() {
  static_assert(detail::bundle_dims<T>::value,
                "attractor principal-bundle model: needs `using Scalar` and `static constexpr int D` (algebra "
                "dimension), `P` (shape dimension), `K` (constraints), `G` (group entries in the state, 0 when "
                "reduced) and `rotation_size` (0, 2, 3)");
  if constexpr (detail::bundle_dims<T>::value) {
    static_assert(std::is_floating_point<typename T::Scalar>::value,
                  "attractor principal-bundle model: Scalar must be float or double");
    static_assert(T::D > 0 && T::P > 0 && T::K >= 1 && T::K <= 3 && T::K < T::D + T::P && T::G >= 0,
                  "attractor principal-bundle model: needs D > 0, P > 0, 1 <= K <= 3, K < D + P, G >= 0");
    static_assert(T::rotation_size == 0 || T::rotation_size == 2 || T::rotation_size == 3,
                  "attractor principal-bundle model: rotation_size must be 0, 2 or 3");
    static_assert(T::rotation_size * T::rotation_size <= T::G,
                  "attractor principal-bundle model: the rotation's n*n entries must fit in the G group entries");
    static_assert(detail::bundle_members<T>::value,
                  "attractor principal-bundle model: needs mass(x), inverse_mass(x) (Mat<S,D+P,D+P>), "
                  "kinetic_gradient(x, a) (Vec<S,P>), potential(x), potential_gradient(x), constraint_fields(x) "
                  "(Mat<S,D+P,K>), constraint_derivative(x, i) (Mat<S,D+P,P>) and ad_star(xi, mu) (Vec<S,D>), "
                  "all const");
    if constexpr (T::G > 0) {
      static_assert(detail::bundle_group_velocity<T>::value,
                    "attractor principal-bundle model: G > 0 needs `Vec<S,G> group_velocity(g, xi) const` (g·ξ)");
    }
  }
  return true;
}

}  // namespace attractor
