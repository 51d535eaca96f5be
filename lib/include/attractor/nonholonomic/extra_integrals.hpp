// SPDX-License-Identifier: Apache-2.0
// A nonholonomic model's optional further first integrals (momenta, a partial energy), monitored
// after its constraint and energy rows by the extension adapters: a model declares
//     static constexpr int extra_integrals = E;
// and the adapter's contract (cotangent_model.hpp, lie_group_model.hpp) says which functions
// give their values and Jacobian. Without the declaration the count is 0.
#pragma once

#include <type_traits>

namespace attractor {

namespace detail {
template <class T, class = void>
struct extra_integral_count : std::integral_constant<int, 0> {};
template <class T>
struct extra_integral_count<T, std::void_t<decltype(int{T::extra_integrals})>>
    : std::integral_constant<int, T::extra_integrals> {};
}  // namespace detail

// Number of first integrals a model adds beyond its constraints and energy (0 if it declares none).
template <class T>
constexpr int extra_integrals_of = detail::extra_integral_count<T>::value;

}  // namespace attractor
