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
// The shapes are checked too: a field or invariants of another size than N or M, or an N x M
// (transposed) Jacobian, is one static_assert line naming it, and Feedback<> then compiles on
// a stand-in (checked_system_t) instead of following it with pages of Eigen errors
// (host-tests/contract/ holds each message to one line).
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
// Both must agree with the generic path to rounding (Feedback::generic_gradient; the
// conformance harness, host-tests/support/conformance.hpp, checks every system).
//
// Optional, detected (has_invariant_targets_v): the exact values some invariants must keep,
//
//     Vec<S, M> invariant_targets(const Vec<S, M>& F_at_x0) const;
//
// returns the feedback reference F0 given F(x0): rows with an exact value (a constraint 0, a
// row of R^T R the identity's entry) replaced by it, the others (energy, momenta) left as
// F(x0). Without it F0 = F(x0), which in float pins a constraint to its rounded value at x0
// instead of to the constraint itself.
//
// Optional, detected (has_gain_groups_v): rows that share one feedback gain,
//
//     static constexpr int gain_group(int row);   // group index in [0, M), rows of one group equal
//
// e.g. the six rows of R^T R = I, whose individual residuals have no meaning apart. Without
// it every row is its own group. balanced_gains (integrate/feedback.hpp) gives each group one
// gain; a gain vector given by hand should do the same.
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

// The compile-time shape of an Eigen result (rows, columns), or (-1, -1) for anything else.
template <class E, class = void>
struct shape_of {
  static constexpr int rows = -1, cols = -1;
};
template <class E>
struct shape_of<E, std::void_t<decltype(std::decay_t<E>::RowsAtCompileTime)>> {
  static constexpr int rows = int(std::decay_t<E>::RowsAtCompileTime), cols = int(std::decay_t<E>::ColsAtCompileTime);
};
template <class E, int R, int C>
constexpr bool shape_is = shape_of<E>::rows == R&& shape_of<E>::cols == C;

// What a member returns, when it can be called with the contract's arguments (void otherwise).
template <class, class = void>
struct field_result {
  using type = void;
};
template <class T>
struct field_result<T, std::void_t<decltype(std::declval<const T&>().field(std::declval<const state_of<T>&>()))>> {
  using type = decltype(std::declval<const T&>().field(std::declval<const state_of<T>&>()));
};
template <class, class = void>
struct invariants_result {
  using type = void;
};
template <class T>
struct invariants_result<
    T, std::void_t<decltype(std::declval<const T&>().invariants(std::declval<const state_of<T>&>()))>> {
  using type = decltype(std::declval<const T&>().invariants(std::declval<const state_of<T>&>()));
};
template <class, class = void>
struct jacobian_result {
  using type = void;
};
template <class T>
struct jacobian_result<
    T, std::void_t<decltype(std::declval<const T&>().invariants_jacobian(std::declval<const state_of<T>&>()))>> {
  using type = decltype(std::declval<const T&>().invariants_jacobian(std::declval<const state_of<T>&>()));
};

// A member is there when it can be called (of any shape); it meets the contract when its result
// also has the contract's shape and converts to it. An Eigen matrix converts implicitly to one of
// another fixed size as far as std::is_convertible can see (the size check fires inside Eigen,
// pages later), hence the shape test first.
template <class R, int Rows, int Cols, class Target>
constexpr bool returns = !std::is_void<R>::value && shape_is<R, Rows, Cols> && std::is_convertible<R, Target>::value;

template <class T>
struct has_field : std::bool_constant<returns<typename field_result<T>::type, T::N, 1, state_of<T>>> {};
template <class T>
struct has_invariants
    : std::bool_constant<returns<typename invariants_result<T>::type, T::M, 1, Vec<typename T::Scalar, T::M>>> {};
template <class T>
struct has_jacobian
    : std::bool_constant<returns<typename jacobian_result<T>::type, T::M, T::N, Mat<typename T::Scalar, T::M, T::N>>> {
};

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

template <class, class = void>
struct has_invariant_targets : std::false_type {};
template <class T>
struct has_invariant_targets<
    T, std::enable_if_t<std::is_convertible<decltype(std::declval<const T&>().invariant_targets(
                                                std::declval<const Vec<typename T::Scalar, T::M>&>())),
                                            Vec<typename T::Scalar, T::M>>::value>> : std::true_type {};

template <class, class = void>
struct has_gain_groups : std::false_type {};
template <class T>
struct has_gain_groups<T, std::enable_if_t<std::is_convertible<decltype(T::gain_group(0)), int>::value>>
    : std::true_type {};

template <class T, bool = has_scalar<T>::value&& has_dims<T>::value>
struct system_members : std::false_type {};
template <class T>
struct system_members<T, true>
    : std::integral_constant<bool, has_field<T>::value && has_invariants<T>::value && has_jacobian<T>::value> {};
}  // namespace detail

template <class T>
constexpr bool is_system_v = detail::system_members<T>::value;

namespace detail {
// What Feedback<> calls in place of a T that fails the contract: check_system has named the fault
// in one line; members of the contract's shapes keep the compiler from following it with pages
// of Eigen errors from the code that uses them.
template <class T, bool = has_scalar<T>::value&& has_dims<T>::value>
struct contract_stand_in {
  using Scalar = double;
  static constexpr int N = 1, M = 1;
};
template <class T>
struct contract_stand_in<T, true> {
  using Scalar = std::conditional_t<std::is_floating_point<typename T::Scalar>::value, typename T::Scalar, double>;
  static constexpr int N = T::N > 0 ? T::N : 1, M = T::M > 0 ? T::M : 1;
};
template <class T>
struct stand_in_system : contract_stand_in<T> {
  using Base = contract_stand_in<T>;
  using S = typename Base::Scalar;
  Vec<S, Base::N> field(const Vec<S, Base::N>&) const { return Vec<S, Base::N>::Zero(); }
  Vec<S, Base::M> invariants(const Vec<S, Base::N>&) const { return Vec<S, Base::M>::Zero(); }
  Mat<S, Base::M, Base::N> invariants_jacobian(const Vec<S, Base::N>&) const {
    return Mat<S, Base::M, Base::N>::Zero();
  }
};
}  // namespace detail

// T itself when it meets the contract, else the stand-in above (use with check_system<T>()).
template <class T>
using checked_system_t = std::conditional_t<is_system_v<T>, T, detail::stand_in_system<T>>;
template <class T>
const checked_system_t<T>& contract_checked(const T& sys) {
  if constexpr (is_system_v<T>) {
    return sys;
  } else {
    static const detail::stand_in_system<T> stand_in{};
    return stand_in;
  }
}

// True when T supplies the optional fused feedback_gradient(x, F0, K) above.
template <class T>
constexpr bool has_feedback_gradient_v = is_system_v<T>&& detail::has_feedback_gradient<T>::value;

// True when T supplies the optional fused feedback_field(x, F0, K) above.
template <class T>
constexpr bool has_feedback_field_v = is_system_v<T>&& detail::has_feedback_field<T>::value;

// True when T supplies the optional invariant_targets(F_at_x0) above.
template <class T>
constexpr bool has_invariant_targets_v = is_system_v<T>&& detail::has_invariant_targets<T>::value;

// True when T supplies the optional static gain_group(row) above.
template <class T>
constexpr bool has_gain_groups_v = is_system_v<T>&& detail::has_gain_groups<T>::value;

// The gain group of invariant row `row` (the row itself when T declares no groups).
template <class T>
constexpr int gain_group_of(int row) {
  if constexpr (has_gain_groups_v<T>) {
    return T::gain_group(row);
  } else {
    return row;
  }
}

// The feedback reference F0 for a start with invariants F(x0) = F_at_x0 (see above).
template <class T>
Vec<typename T::Scalar, T::M> invariant_reference(const T& sys, const Vec<typename T::Scalar, T::M>& F_at_x0) {
  if constexpr (has_invariant_targets_v<T>) {
    return sys.invariant_targets(F_at_x0);
  } else {
    return F_at_x0;
  }
}

// gain_group(row) in [0, M) for every row (checked by check_system).
template <class T>
constexpr bool gain_groups_valid() {
  for (int i = 0; i < T::M; ++i)
    if (T::gain_group(i) < 0 || T::gain_group(i) >= T::M) return false;
  return true;
}

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
    using Field = typename detail::field_result<T>::type;
    using Inv = typename detail::invariants_result<T>::type;
    using Jac = typename detail::jacobian_result<T>::type;
    static_assert(!std::is_void<Field>::value,
                  "attractor System: needs `Vec<Scalar, N> field(const Vec<Scalar, N>&) const`");
    static_assert(
        std::is_void<Field>::value || detail::shape_is<Field, T::N, 1>,
        "attractor System: field(x) returns a vector whose size is not N (N: the state size, of every member)");
    static_assert(!std::is_void<Inv>::value,
                  "attractor System: needs `Vec<Scalar, M> invariants(const Vec<Scalar, N>&) const`");
    static_assert(std::is_void<Inv>::value || detail::shape_is<Inv, T::M, 1>,
                  "attractor System: invariants(x) returns a vector whose size is not M (M: the number of invariants)");
    static_assert(!std::is_void<Jac>::value,
                  "attractor System: needs `Mat<Scalar, M, N> invariants_jacobian(const Vec<Scalar, N>&) const`");
    static_assert(
        std::is_void<Jac>::value || T::M == T::N || !detail::shape_is<Jac, T::N, T::M>,
        "attractor System: invariants_jacobian(x) is N x M, transposed: it must be M x N (a row per invariant)");
    static_assert(std::is_void<Jac>::value || detail::shape_is<Jac, T::M, T::N> || detail::shape_is<Jac, T::N, T::M>,
                  "attractor System: invariants_jacobian(x) is not M x N (a row per invariant, a column per state)");
    constexpr bool shapes =
        detail::shape_is<Field, T::N, 1> && detail::shape_is<Inv, T::M, 1> && detail::shape_is<Jac, T::M, T::N>;
    static_assert(!shapes || detail::system_members<T>::value,
                  "attractor System: field, invariants and invariants_jacobian must return Vec/Mat of Scalar");
    if constexpr (detail::has_gain_groups<T>::value) {
      static_assert(gain_groups_valid<T>(),
                    "attractor System: gain_group(row) must lie in [0, M) for every row 0..M-1");
    }
  }
  return true;
}

}  // namespace attractor
