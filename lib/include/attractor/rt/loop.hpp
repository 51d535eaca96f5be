// SPDX-License-Identifier: Apache-2.0
// A sensor source and a controller composed into the runtime's App (rt/tick.hpp), so that an
// app's main() only wires: board + source + controller (+ an optional monitor) + rt::run.
//
// A Source is where measurements come from and where commands go (the SIL plant on the target,
// plants/skate_rotor/simulated.hpp; a HIL link; drivers):
//   using Measurement = Vec<S, NY>;  using Command = Vec<S, NU>;
//   bool sample(Measurement& y);     // [sampling ISR] false: nothing fresh this tick
//   void actuate(const Command& u);  // [either ISR] short write; zero in the safe state
// A Controller is configured once and knows nothing of the source
// (plants/skate_rotor/controller.hpp):
//   using Scalar, Measurement, Command;
//   Command update(const Measurement& y);   // [control ISR] y validated, finite, in range
//   void reset();
//   Measurement measurement_limits() const; Command command_limits() const; bool in_envelope() const;
// A Monitor (optional) sees every actuation, e.g. to keep a SIL run's outcome:
//   void observe(const Source&, const Controller&, const Command& u);
//
// The runtime calls estimate() then, inside the envelope, control(): update() runs in estimate()
// and control() returns its command, so the tick's order and cost are those of a hand-written App.
#pragma once

#include <type_traits>

#include "attractor/rt/tick.hpp"

namespace attractor::rt {

struct NoMonitor {
  template <class Source, class Controller, class Command>
  void observe(const Source&, const Controller&, const Command&) {}
};

template <class Source, class Controller, class Monitor = NoMonitor>
class Loop : public AppBase<typename Controller::Scalar, Controller::Measurement::RowsAtCompileTime,
                            Controller::Command::RowsAtCompileTime> {
 public:
  using Base = AppBase<typename Controller::Scalar, Controller::Measurement::RowsAtCompileTime,
                       Controller::Command::RowsAtCompileTime>;
  using typename Base::Command;
  using typename Base::Scalar;
  using typename Base::Sensors;
  static_assert(std::is_same<typename Source::Measurement, Sensors>::value,
                "rt::Loop: the source's Measurement must be the controller's Measurement");
  static_assert(std::is_same<typename Source::Command, Command>::value,
                "rt::Loop: the source's Command must be the controller's Command");

  Loop() = default;
  Loop(const Source& source, const Controller& controller, const Monitor& monitor = Monitor{})
      : source_(source), controller_(controller), monitor_(monitor) {}

  // ---- rt App interface ----
  bool sample(Sensors& y) { return source_.sample(y); }
  void estimate(const Sensors& y, Scalar) { command_ = controller_.update(y); }
  Command control() const { return command_; }
  void actuate(const Command& u) {
    source_.actuate(u);
    monitor_.observe(source_, controller_, u);
  }
  Sensors sensor_limits() const { return controller_.measurement_limits(); }
  Command actuator_limits() const { return controller_.command_limits(); }
  bool in_envelope() const { return controller_.in_envelope(); }

  Source& source() { return source_; }
  const Source& source() const { return source_; }
  Controller& controller() { return controller_; }
  const Controller& controller() const { return controller_; }
  const Monitor& monitor() const { return monitor_; }

 private:
  Source source_{};
  Controller controller_{};
  Monitor monitor_{};
  Command command_ = Command::Zero();
};

}  // namespace attractor::rt
