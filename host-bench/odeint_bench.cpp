// SPDX-License-Identifier: Apache-2.0
// Host ns per RK4 step: the library (integrate/butcher.hpp rk4_step, with and without the
// feedback term of integrate/feedback.hpp) against Boost.Odeint's runge_kutta4 on a
// std::array state calling the same field, in float and double. scripts/bench runs it and puts
// the ratios in docs/BENCHMARKS.md; a benchmark prints, it never asserts a time.
#include <benchmark/benchmark.h>

#include <array>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>

#include "attractor/integrate/butcher.hpp"
#include "attractor/integrate/feedback.hpp"
#include "attractor/systems/planar_pendulum.hpp"
#include "attractor/systems/spherical_pendulum.hpp"

using namespace attractor;

namespace {

template <class S>
struct SphericalCase {
  using Sys = SphericalPendulum<S>;
  static constexpr const char* name = "spherical_pendulum";
  static Sys make() { return Sys::make(S(1), S(1), S(1)).value(); }
  static Vec<S, 6> x0() {
    Vec<S, 6> x;
    x << S(0.479425538604203), S(0), S(-0.877582561890373), S(0), S(0.3), S(0);
    return x;
  }
  static Vec<S, 4> gains() { return Vec<S, 4>::Constant(S(20)); }
};

template <class S>
struct PlanarCase {
  using Sys = PlanarPendulum<S>;
  static constexpr const char* name = "planar_pendulum";
  static Sys make() { return Sys::make(S(1), S(1), S(1)).value(); }
  static Vec<S, 4> x0() { return Vec<S, 4>(S(1), S(0), S(0), S(0)); }
  static Vec<S, 3> gains() { return Vec<S, 3>::Constant(S(20)); }
};

// The field of a system (plain) or of its feedback wrapper, as a callable State(const State&).
template <class Case, bool WithFeedback>
auto make_field() {
  using Sys = typename Case::Sys;
  using State = Vec<typename Sys::Scalar, Sys::N>;
  const Sys sys = Case::make();
  if constexpr (WithFeedback) {
    return feedback(sys, Case::x0(), Case::gains());
  } else {
    return [sys](const State& x) { return State(sys.field(x)); };
  }
}

template <class Case, bool WithFeedback>
void library_rk4(benchmark::State& st) {
  using S = typename Case::Sys::Scalar;
  const auto f = make_field<Case, WithFeedback>();
  const auto x0 = Case::x0();
  auto x = x0;
  for (auto _ : st) {
    x = x0;  // every step from the same state (no drift over millions of steps); odeint likewise
    rk4_step(f, x, S(0.001));
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
}

template <class Case, bool WithFeedback>
void odeint_rk4(benchmark::State& st) {
  using S = typename Case::Sys::Scalar;
  constexpr int N = Case::Sys::N;
  using Array = std::array<S, N>;
  const auto f = make_field<Case, WithFeedback>();
  auto system = [&f](const Array& x, Array& dxdt, S /*t*/) {
    Eigen::Map<Vec<S, N>>(dxdt.data()) = f(Eigen::Map<const Vec<S, N>>(x.data()));
  };
  boost::numeric::odeint::runge_kutta4<Array, S> stepper;
  Array x0, x;
  Eigen::Map<Vec<S, N>>(x0.data()) = Case::x0();
  for (auto _ : st) {
    x = x0;
    stepper.do_step(system, x, S(0), S(0.001));
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
}

// Names: <implementation>/<system>/<float|double>/<field|feedback>.
template <class Case>
void register_case(const char* prec) {
  const std::string tail = std::string(Case::name) + "/" + prec + "/";
  benchmark::RegisterBenchmark(("library/" + tail + "field").c_str(), library_rk4<Case, false>);
  benchmark::RegisterBenchmark(("odeint/" + tail + "field").c_str(), odeint_rk4<Case, false>);
  benchmark::RegisterBenchmark(("library/" + tail + "feedback").c_str(), library_rk4<Case, true>);
  benchmark::RegisterBenchmark(("odeint/" + tail + "feedback").c_str(), odeint_rk4<Case, true>);
}

}  // namespace

int main(int argc, char** argv) {
  register_case<SphericalCase<float>>("float");
  register_case<SphericalCase<double>>("double");
  register_case<PlanarCase<float>>("float");
  register_case<PlanarCase<double>>("double");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
