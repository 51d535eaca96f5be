// SPDX-License-Identifier: Apache-2.0
// The skate's frames as the link tests send them: a sensor frame of the skate near upright (or,
// with scale != 1, a vertical of implausible length), the skate's hello and the empty control
// frames, and the events a firmware-side link raises on a run of bytes.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "attractor/link/hil_link.hpp"
#include "attractor/plants/skate_rotor/wire.hpp"
#include "link_faults.hpp"

namespace skate_frames {

using Link = attractor::link::HilLink<float, attractor::link::SkateRotorWire<float>>;
using Bytes = std::vector<std::uint8_t>;

// Γ = (0, gamma2, sqrt(1 - gamma2²)) * scale, a small constant angular velocity.
inline Bytes sensor_wire(std::uint32_t seq, std::uint32_t tick, double gamma2, double scale = 1.0) {
  using namespace attractor::link;
  SensorReading<double> r;
  r.gyro << 0.01, 0.02, 0.03;
  r.vertical << 0.0, gamma2, std::sqrt(1.0 - gamma2 * gamma2);
  r.vertical *= scale;
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  EXPECT_EQ(encode_sensor_frame(seq, tick, r, wire, sizeof wire, n), LinkError::none);
  return Bytes(wire, wire + n);
}

// A hello for the skate with this build's wire schema (no status frames), or an empty frame.
inline Bytes control_wire(attractor::link::FrameType t) {
  using namespace attractor::link;
  return t == FrameType::hello ? attractor::hil::encode_hello(0, 0, HelloInfo{PlantId::skate_rotor, 0, kWireSchemaHash})
                               : attractor::hil::encode(t, 0, 0);
}

// Every event other than none the link raises on `bytes`, in order.
inline std::vector<attractor::link::LinkEvent> feed_events(Link& link, const Bytes& bytes) {
  std::vector<attractor::link::LinkEvent> out;
  for (std::uint8_t b : bytes) {
    const attractor::link::LinkEvent e = link.receive(b);
    if (e != attractor::link::LinkEvent::none) out.push_back(e);
  }
  return out;
}

// The last event other than none (a whole frame raises one, at its delimiter).
inline attractor::link::LinkEvent feed(Link& link, const Bytes& bytes) {
  const std::vector<attractor::link::LinkEvent> e = feed_events(link, bytes);
  return e.empty() ? attractor::link::LinkEvent::none : e.back();
}

}  // namespace skate_frames
