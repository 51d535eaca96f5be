// SPDX-License-Identifier: Apache-2.0
// One stepper concept (in the spirit of Boost.Odeint's): every integrator steps a state x by h
// through the same call shape, and says whether it could:
//
//   Error e = step(stepper, x, h);          // == stepper.step(x, h); Error::none on success
//
// A Stepper has `using Scalar; using State;` and `[[nodiscard]] Error step(State& x, Scalar h)`.
// The library's steppers:
//   ExplicitStepper<Field, Stages>  any explicit Butcher tableau on a field: a System (its
//                                   field()), a Feedback<> wrapper, a lambda. Built by
//                                   explicit_stepper(tableau, f), euler(f), heun(f), rk4(f).
//                                   Error::non_finite (x unchanged) when the step is not finite.
//   SchemeStepper<Field>            the same with the scheme chosen at run time (Scheme).
//   Rattle<System>                  integrate/rattle.hpp (Error::singular: h far too large)
//   LieTrotter<System>, Strang<System>   integrate/splitting.hpp
// The free functions rk4_step(f, x, h) etc. of butcher.hpp stay the allocation-free primitives
// these are built on. Every step costs the same instructions (the finiteness check is a fixed
// loop over N).
#pragma once

#include "attractor/core/finite.hpp"
#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/integrate/butcher.hpp"

namespace attractor {

// The call shape: step(stepper, x, h).
template <class Stepper>
[[nodiscard]] Error step(Stepper& stepper, typename Stepper::State& x, typename Stepper::Scalar h) {
  return stepper.step(x, h);
}

template <class Field, class S, int N, int Stages>
class ExplicitStepper {
 public:
  using Scalar = S;
  using State = Vec<S, N>;

  ExplicitStepper() = default;
  ExplicitStepper(const ButcherTableau<S, Stages>& tableau, const Field& f)
      : t_(tableau), c_(stage_weights(tableau)), f_(f) {}

  [[nodiscard]] Error step(State& x, S h) {
    State y = x;
    explicit_rk_step(t_, c_, f_, y, h);  // f_'s field() or f_(x): detail::evaluate_field (butcher.hpp)
    if (!all_finite(y)) return Error::non_finite;
    x = y;
    return Error::none;
  }

  const Field& field() const { return f_; }
  Field& field() { return f_; }  // e.g. field().system().torque = u before a step

 private:
  ButcherTableau<S, Stages> t_{};
  StageWeights<S, Stages> c_ = stage_weights(t_);  // the tableau's, computed once
  Field f_{};
};

// Field's state type: System::N or Feedback::N (both expose Scalar and N).
template <class Field, int Stages>
ExplicitStepper<Field, typename Field::Scalar, Field::N, Stages> explicit_stepper(
    const ButcherTableau<typename Field::Scalar, Stages>& t, const Field& f) {
  return {t, f};
}
template <class Field>
auto euler(const Field& f) {
  return explicit_stepper(euler_tableau<typename Field::Scalar>(), f);
}
template <class Field>
auto heun(const Field& f) {
  return explicit_stepper(heun_tableau<typename Field::Scalar>(), f);
}
template <class Field>
auto rk4(const Field& f) {
  return explicit_stepper(rk4_tableau<typename Field::Scalar>(), f);
}

// The built-in schemes chosen at run time (CLIs, configuration frames).
template <class Field>
class SchemeStepper {
 public:
  using Scalar = typename Field::Scalar;
  using State = Vec<Scalar, Field::N>;

  SchemeStepper() = default;
  SchemeStepper(Scheme scheme, const Field& f) : scheme_(scheme), f_(f) {}

  [[nodiscard]] Error step(State& x, Scalar h) {
    State y = x;
    attractor::step(scheme_, f_, y, h);
    if (!all_finite(y)) return Error::non_finite;
    x = y;
    return Error::none;
  }

  Scheme scheme() const { return scheme_; }
  const Field& field() const { return f_; }
  Field& field() { return f_; }

 private:
  Scheme scheme_ = Scheme::rk4;
  Field f_{};
};

}  // namespace attractor
