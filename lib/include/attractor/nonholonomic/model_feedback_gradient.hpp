// SPDX-License-Identifier: Apache-2.0
// A nonholonomic model's optional fused feedback gradient: the gradient of V = ½ (F − F0)ᵀ K (F − F0)
// for the invariants F its adapter monitors with the extended energy row (H̃ or h̃), written out
// from the invariants' derivatives,
//
//     Vec<S,N> feedback_gradient(const Vec<S,N>& x, const Vec<S,M>& F0, const Vec<S,M>& K) const;
//
// (N, M: the adapter's state and invariant counts). The adapters (cotangent_extension.hpp,
// principal_bundle_extension.hpp) then use it as their feedback_gradient and their feedback_field
// X − ∇V, in place of their generic fused terms, with EnergyRow::extended only (with the energy row
// H the generic terms stay). A new system then writes only its gradient; the conformance harness
// checks it against the generic product DFᵀK(F − F0).
#pragma once

#include <type_traits>
#include <utility>

#include "attractor/core/types.hpp"

namespace attractor {

namespace detail {
template <class Model, int N, int M, class = void>
struct model_feedback_gradient : std::false_type {};
template <class Model, int N, int M>
struct model_feedback_gradient<
    Model, N, M,
    std::enable_if_t<std::is_convertible<decltype(std::declval<const Model&>().feedback_gradient(
                                             std::declval<const Vec<typename Model::Scalar, N>&>(),
                                             std::declval<const Vec<typename Model::Scalar, M>&>(),
                                             std::declval<const Vec<typename Model::Scalar, M>&>())),
                                         Vec<typename Model::Scalar, N>>::value>> : std::true_type {};
}  // namespace detail

// True when Model supplies the fused feedback_gradient(x, F0, K) above for an N-dimensional state
// and M invariants.
template <class Model, int N, int M>
constexpr bool has_model_feedback_gradient_v = detail::model_feedback_gradient<Model, N, M>::value;

}  // namespace attractor
