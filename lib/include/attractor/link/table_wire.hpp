// SPDX-License-Identifier: Apache-2.0
// A plant's wire adapter built from its mapping, stated as data: which sensor-frame field and
// component carries each measurement signal, which actuator-frame torque axis carries each
// command signal, its plant id and its plausibility rule. Every plant's frames are the same
// (link/frame_layout.hpp), so reading and writing them is one piece of code; a plant's
// plants/<plant>/wire.hpp is only its table. A field component no signal travels in is zero on
// the wire (SensorReading's and the torque's defaults).
//
// A mapping Map:
//   static constexpr PlantId kPlant;                       // in the hello answer
//   template <class S> using Signals = ...;                 // Measurement, Command (Vec<S, N>)
//   static constexpr SensorSlot kMeasurement[NY];           // y[i] <-> kMeasurement[i]
//   static constexpr int kTorqueAxis[NU];                   // u[j] <-> torque[kTorqueAxis[j]]
//   static constexpr Plausibility kPlausibility;            // the rule a reading is judged by
//
// The copies unroll at compile time (index sequences over the tables): the firmware's tick does
// exactly the moves of a hand-written adapter.
#pragma once

#include <cstddef>
#include <utility>

#include "attractor/core/types.hpp"
#include "attractor/link/plant_id.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/unit_vertical.hpp"

namespace attractor::link {

enum class SensorField { gyro, vertical, velocity, rotor_rate };

// The rules a plant's readings can be judged by; one that fails is counted `implausible` and the
// last sample is held (link/hil_link.hpp). unit_vertical: the frame's vertical is the direction
// Γ, |Γ| = 1 (link/unit_vertical.hpp says what it can and cannot see).
enum class Plausibility { any_reading, unit_vertical };

// Where one measurement signal travels: a field of the sensor frame and its component (0..2).
struct SensorSlot {
  SensorField field;
  int component;
};
namespace slot {
constexpr SensorSlot gyro(int c) { return {SensorField::gyro, c}; }
constexpr SensorSlot vertical(int c) { return {SensorField::vertical, c}; }
constexpr SensorSlot velocity(int c) { return {SensorField::velocity, c}; }
constexpr SensorSlot rotor_rate(int c) { return {SensorField::rotor_rate, c}; }
}  // namespace slot

namespace detail {
template <SensorField F, class Reading>
auto& field_of(Reading& r) {
  if constexpr (F == SensorField::gyro) return r.gyro;
  if constexpr (F == SensorField::vertical) return r.vertical;
  if constexpr (F == SensorField::velocity) return r.velocity;
  if constexpr (F == SensorField::rotor_rate) return r.rotor_rate;
}
}  // namespace detail

template <class S, class Map>
struct TableWire {
  using Signals = typename Map::template Signals<S>;
  using Measurement = typename Signals::Measurement;
  using Command = typename Signals::Command;
  static constexpr PlantId kPlant = Map::kPlant;
  static constexpr std::size_t kNy = sizeof(Map::kMeasurement) / sizeof(SensorSlot);
  static constexpr std::size_t kNu = sizeof(Map::kTorqueAxis) / sizeof(int);
  static_assert(kNy == std::size_t(Measurement::RowsAtCompileTime), "one slot per measurement signal");
  static_assert(kNu == std::size_t(Command::RowsAtCompileTime), "one torque axis per command signal");

  static Measurement measurement(const SensorReading<S>& r) {
    Measurement y;
    from_reading(r, y, std::make_index_sequence<kNy>{});
    return y;
  }
  static SensorReading<S> reading(const Measurement& y) {
    SensorReading<S> r;
    to_reading(y, r, std::make_index_sequence<kNy>{});
    return r;
  }
  static bool plausible(const SensorReading<S>& r) {
    if constexpr (Map::kPlausibility == Plausibility::unit_vertical) {
      return unit_vertical_plausible(r);
    } else {
      return true;
    }
  }
  static Vec3<S> torque(const Command& u) { return Vec3<S>(on_axis<0>(u), on_axis<1>(u), on_axis<2>(u)); }
  static Command command(const Vec3<S>& t) {
    Command u;
    from_torque(t, u, std::make_index_sequence<kNu>{});
    return u;
  }

 private:
  template <std::size_t... I>
  static void from_reading(const SensorReading<S>& r, Measurement& y, std::index_sequence<I...>) {
    ((y[I] = detail::field_of<Map::kMeasurement[I].field>(r)[Map::kMeasurement[I].component]), ...);
  }
  template <std::size_t... I>
  static void to_reading(const Measurement& y, SensorReading<S>& r, std::index_sequence<I...>) {
    ((detail::field_of<Map::kMeasurement[I].field>(r)[Map::kMeasurement[I].component] = y[I]), ...);
  }
  // The command signal that drives torque axis `Axis`, or zero when none does.
  template <int Axis, std::size_t J = 0>
  static S on_axis(const Command& u) {
    if constexpr (J == kNu) {
      return S(0);
    } else if constexpr (Map::kTorqueAxis[J] == Axis) {
      return u[J];
    } else {
      return on_axis<Axis, J + 1>(u);
    }
  }
  template <std::size_t... J>
  static void from_torque(const Vec3<S>& t, Command& u, std::index_sequence<J...>) {
    ((u[J] = t[Map::kTorqueAxis[J]]), ...);
  }
};

}  // namespace attractor::link
