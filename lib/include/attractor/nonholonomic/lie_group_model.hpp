// SPDX-License-Identifier: Apache-2.0
// What a nonholonomic system on a Lie group G supplies to LieGroupExtension
// (lie_group_extension.hpp; paper 000 §2.2), checked at compile time with readable messages:
//
//   struct MyModel {
//     using Scalar = S;
//     static constexpr int D = ...;            // dim 𝔤; μ ∈ 𝔤* ≅ R^D
//     static constexpr int K = ...;            // constraints ⟨μ, e_i⟩ = 0, 1..3
//     static constexpr int G = ...;            // entries of the group element in the state (0: reduced)
//     static constexpr int rotation_size = n;  // 0, 2 or 3: g starts with R ∈ R^{n×n}, column-major
//     Mat<S,D,D> locked_inertia() const;          // 𝕀 (eq. (13)), symmetric positive definite
//     Mat<S,D,D> inverse_locked_inertia() const;  // 𝕀⁻¹
//     Vec<S,D>   ad_star(xi, mu) const;           // ad*_ξ μ, with ⟨ad*_ξ μ, η⟩ = ⟨μ, [ξ, η]⟩
//     Mat<S,D,K> constraint_vectors() const;      // columns e_i ∈ 𝔤; need not be 𝕀-orthonormal
//     Vec<S,G>   group_velocity(g, xi) const;     // ġ = g·ξ in the embedding (when G > 0)
//   };
//
// Optional: further first integrals of the momentum (extra_integrals.hpp),
//
//     static constexpr int extra_integrals = E;
//     Vec<S,E>   first_integrals(mu) const;
//     Mat<S,E,D> first_integrals_jacobian(mu) const;
//
// monitored after the constraint and energy rows, before the RᵀR − I rows. And, when the group
// part starts with a rotation R (rotation_size n > 0), the feedback field's group velocity
//
//     Vec<S,G>   group_velocity(g, xi, W) const;  // g·ξ with Ṙ = R (ξ^ − W) in place of R ξ^
//
// for a symmetric n×n W (the RᵀR − I rows' weights): one product instead of R ξ^ − R W.
//
// And, with the extended energy row h̃, the μ part of grad V written out with the model's known
// zeros, from what one evaluation shares (μ, ξ̃ of eq. (17a), c = Eᵀμ and the adapter's E):
//
//     template <class Inv>  // Vec<S,M>: rows (c_1..c_K, h̃, extra integrals, RᵀR − I)
//     void add_momentum_feedback_gradient(mu, xi, c, E, const Inv& F0, const Inv& K, S sign,
//                                         Vec<S,D>& out) const;  // out += sign ∇_μ V
//
// in place of the adapter's dense E w_c + w_h ξ̃ + (extra rows); ∇_μ h̃ = ξ̃.
#pragma once

#include <type_traits>
#include <utility>

#include "attractor/core/types.hpp"
#include "attractor/nonholonomic/extra_integrals.hpp"

namespace attractor {

namespace detail {
template <class, class = void>
struct lie_dims : std::false_type {};
template <class T>
struct lie_dims<T, std::void_t<typename T::Scalar, decltype(int{T::D}), decltype(int{T::K}), decltype(int{T::G}),
                               decltype(int{T::rotation_size})>> : std::true_type {};

template <class T>
using lie_d = Vec<typename T::Scalar, T::D>;

template <class T, class = void>
struct lie_members : std::false_type {};
template <class T>
struct lie_members<T, std::void_t<decltype(std::declval<const T&>().locked_inertia()),
                                  decltype(std::declval<const T&>().inverse_locked_inertia()),
                                  decltype(std::declval<const T&>().ad_star(std::declval<const lie_d<T>&>(),
                                                                            std::declval<const lie_d<T>&>())),
                                  decltype(std::declval<const T&>().constraint_vectors())>>
    : std::integral_constant<
          bool, std::is_convertible<decltype(std::declval<const T&>().locked_inertia()),
                                    Mat<typename T::Scalar, T::D, T::D>>::value &&
                    std::is_convertible<decltype(std::declval<const T&>().constraint_vectors()),
                                        Mat<typename T::Scalar, T::D, T::K>>::value &&
                    std::is_convertible<decltype(std::declval<const T&>().ad_star(std::declval<const lie_d<T>&>(),
                                                                                  std::declval<const lie_d<T>&>())),
                                        lie_d<T>>::value> {};

template <class T, class = void>
struct lie_group_velocity : std::false_type {};
template <class T>
struct lie_group_velocity<T,
                          std::enable_if_t<std::is_convertible<decltype(std::declval<const T&>().group_velocity(
                                                                   std::declval<const Vec<typename T::Scalar, T::G>&>(),
                                                                   std::declval<const lie_d<T>&>())),
                                                               Vec<typename T::Scalar, T::G>>::value>>
    : std::true_type {};

template <class T, class = void>
struct lie_weighted_velocity : std::false_type {};
template <class T>
struct lie_weighted_velocity<
    T,
    std::enable_if_t<(T::rotation_size > 0) &&
                     std::is_convertible<
                         decltype(std::declval<const T&>().group_velocity(
                             std::declval<const Vec<typename T::Scalar, T::G>&>(), std::declval<const lie_d<T>&>(),
                             std::declval<const Mat<typename T::Scalar, (T::rotation_size > 0 ? T::rotation_size : 1),
                                                    (T::rotation_size > 0 ? T::rotation_size : 1)>&>())),
                         Vec<typename T::Scalar, T::G>>::value>> : std::true_type {};
template <class T, int M, class = void>
struct lie_momentum_gradient : std::false_type {};
template <class T, int M>
struct lie_momentum_gradient<
    T, M,
    std::void_t<decltype(std::declval<const T&>().add_momentum_feedback_gradient(
        std::declval<const lie_d<T>&>(), std::declval<const lie_d<T>&>(),
        std::declval<const Vec<typename T::Scalar, T::K>&>(),
        std::declval<const Mat<typename T::Scalar, T::D, T::K>&>(), std::declval<const Vec<typename T::Scalar, M>&>(),
        std::declval<const Vec<typename T::Scalar, M>&>(), typename T::Scalar(1), std::declval<lie_d<T>&>()))>>
    : std::true_type {};
}  // namespace detail

// Fails the build with the first missing piece of the contract above. Returns true.
template <class T>
constexpr bool check_lie_group_model() {
  static_assert(detail::lie_dims<T>::value,
                "attractor Lie-group model: needs `using Scalar` and `static constexpr int D` (algebra dimension), "
                "`K` (constraints), `G` (group entries in the state, 0 when reduced) and `rotation_size` (0, 2, 3)");
  if constexpr (detail::lie_dims<T>::value) {
    static_assert(std::is_floating_point<typename T::Scalar>::value,
                  "attractor Lie-group model: Scalar must be float or double");
    static_assert(T::D > 0 && T::K >= 1 && T::K <= 3 && T::K < T::D && T::G >= 0,
                  "attractor Lie-group model: needs D > 0, 1 <= K <= 3, K < D, G >= 0");
    static_assert(T::rotation_size == 0 || T::rotation_size == 2 || T::rotation_size == 3,
                  "attractor Lie-group model: rotation_size must be 0, 2 or 3");
    static_assert(T::rotation_size * T::rotation_size <= T::G,
                  "attractor Lie-group model: the rotation's n*n entries must fit in the G group entries");
    static_assert(detail::lie_members<T>::value,
                  "attractor Lie-group model: needs locked_inertia(), inverse_locked_inertia() (Mat<S,D,D>), "
                  "ad_star(xi, mu) (Vec<S,D>) and constraint_vectors() (Mat<S,D,K>), all const");
    if constexpr (T::G > 0) {
      static_assert(detail::lie_group_velocity<T>::value,
                    "attractor Lie-group model: G > 0 needs `Vec<S,G> group_velocity(g, xi) const` (g·ξ)");
    }
    static_assert(extra_integrals_of<T> >= 0, "attractor Lie-group model: extra_integrals must be >= 0");
  }
  return true;
}

}  // namespace attractor
