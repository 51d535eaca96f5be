// SPDX-License-Identifier: Apache-2.0
// The one idiom for optional members of an App or a Board: a member is present when an
// expression naming it compiles. Write the expression once as an alias template and test it
// with `if constexpr`:
//
//   template <class A> using reset_member = decltype(std::declval<A&>().reset());
//   if constexpr (rt::has_member<reset_member, App>) app.reset();
//
// An absent member costs nothing: the discarded branch is never instantiated.
#pragma once

#include <type_traits>

namespace attractor::rt {

namespace detail {
template <class Void, template <class...> class Member, class... T>
struct member_detector : std::false_type {};
template <template <class...> class Member, class... T>
struct member_detector<std::void_t<Member<T...>>, Member, T...> : std::true_type {};
}  // namespace detail

// std::true_type when Member<T...> is a valid type (the member exists), else std::false_type.
template <template <class...> class Member, class... T>
using detect_member = detail::member_detector<void, Member, T...>;

template <template <class...> class Member, class... T>
inline constexpr bool has_member = detect_member<Member, T...>::value;

}  // namespace attractor::rt
