// SPDX-License-Identifier: Apache-2.0
// attractor-sim double-pendulum: the Cartesian double pendulum that nobody wrote by hand. Its
// header is generated at build time from docs/starter-model/double_pendulum.toml (attractor_add_model,
// hil/CMakeLists.txt); parameters, names, invariants and the documented case come from its facts
// (hil/cli/generated_entry.hpp). What is left here is the command's name and texts and make().
#include "double_pendulum.hpp"
#include "generated_entry.hpp"

// Named, not anonymous: attractor-sim's systems compile as few units (hil/CMakeLists.txt).
namespace sim_double_pendulum {

template <class S>
using Model = attractor::generated::DoublePendulum<S>;

struct DoublePendulumEntry : attractor::cli::GeneratedEntry<Model, attractor::generated::DoublePendulumFacts> {
  static constexpr const char* name = "double-pendulum";
  static constexpr const char* summary = "planar double pendulum in Cartesian coordinates (generated): rods, energy";
  static constexpr const char* about =
      "Planar double pendulum in Cartesian coordinates, generated from its model description\n"
      "(docs/starter-model/double_pendulum.toml, docs/model-compiler.md): state (x1, y1, x2, y2,\n"
      "px1, py1, px2, py2), the two rods as holonomic constraints with their hidden (velocity)\n"
      "constraints, and the energy. Default: released at rest with the rods at 0.5 and 1.0 rad.";
  template <class S>
  static attractor::Result<Model<S>> make(const attractor::cli::Params& p) {
    typename Model<S>::Params q;
    q.m1 = S(p("m1"));
    q.m2 = S(p("m2"));
    q.l1 = S(p("l1"));
    q.l2 = S(p("l2"));
    q.g = S(p("g"));
    return Model<S>::make(q);
  }
  static std::string off_constraint(const attractor::cli::Params& p, const double* x0) {
    const auto sys = make<double>(p);
    return sys ? attractor::cli::generated_off_constraint<DoublePendulumEntry>(*sys, x0) : std::string();
  }
  static std::string project(const attractor::cli::Params& p, double* x0) {
    const auto sys = make<double>(p);
    return sys ? attractor::cli::generated_project<DoublePendulumEntry>(*sys, x0) : std::string();
  }
};

}  // namespace sim_double_pendulum

ATTRACTOR_REGISTER_FEEDBACK_SYSTEM(sim_double_pendulum::DoublePendulumEntry);
