// SPDX-License-Identifier: Apache-2.0
// Wire version 3's handshake and status frames (lib/include/attractor/link/): the hello payload
// (plant, status period, wire schema hash) and the status frame (every counter) round trip and
// reject what they must; the schema hash moves with any offset, size, unit or range of the
// description; and the firmware's link answers a hello with its own plant and schema, sends a
// status frame after every N-th answer and on request.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "attractor/link/hello_frame.hpp"
#include "attractor/link/lockstep.hpp"
#include "attractor/link/status_frame.hpp"
#include "attractor/link/wire_schema.hpp"
#include "attractor/plants/skate_rotor/controller.hpp"
#include "attractor/plants/skate_rotor/wire.hpp"
#include "attractor/plants/spherical_robot/wire.hpp"
#include "attractor/rt/loop.hpp"
#include "link_faults.hpp"
#include "scripted_lockstep.hpp"

using namespace attractor;
using namespace attractor::link;

namespace {

FrameView decoded(const std::uint8_t* wire, std::size_t n) {
  FrameView v;
  EXPECT_EQ(decode_frame(wire, n - 1, v), LinkError::none);
  return v;
}

}  // namespace

TEST(LinkStatus, RoundTripOfEveryCounter) {
  StatusReport in;
  in.faults = {1, 2, 3, 4, 5, 0xFFFFFFFFu};
  for (int i = 0; i < layout::link_counters; ++i) in.link.rejected[i] = std::uint32_t(10 + i);
  in.link.gaps = 17;
  in.link.repeated = 18;
  in.link.late = 19;
  in.link.implausible = 0x80000001u;
  in.link.wild = 21;
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(encode_status_frame(4u, 77u, in, wire, sizeof wire, n), LinkError::none);
  ASSERT_EQ(n, wire_size_of(FrameType::status));
  const FrameView v = decoded(wire, n);
  EXPECT_EQ(v.header.tick, 77u);
  StatusReport out;
  ASSERT_EQ(unpack_status(v, out), LinkError::none);
  EXPECT_EQ(out.faults.non_finite, 1u);
  EXPECT_EQ(out.faults.stale, 3u);
  EXPECT_EQ(out.faults.saturated, 0xFFFFFFFFu);
  for (int i = 0; i < layout::link_counters; ++i) EXPECT_EQ(out.link.rejected[i], std::uint32_t(10 + i));
  EXPECT_EQ(out.link.gaps, 17u);
  EXPECT_EQ(out.link.repeated, 18u);
  EXPECT_EQ(out.link.late, 19u);
  EXPECT_EQ(out.link.implausible, 0x80000001u);
  EXPECT_EQ(out.link.wild, 21u);
  FrameView other;
  other.header.type = FrameType::actuator;
  other.payload_size = layout::status_payload_size;
  EXPECT_EQ(unpack_status(other, out), LinkError::bad_type);
  EXPECT_EQ(out.link.gaps, 0u) << "a refused status reads as zero";
}

TEST(LinkHello, RoundTripAndRejections) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  ASSERT_EQ(encode_hello_frame(0u, 9u, HelloInfo{PlantId::spherical_robot, 250, 0xDEADBEEFu}, wire, sizeof wire, n),
            LinkError::none);
  ASSERT_EQ(n, wire_size_of(FrameType::hello));
  FrameView v = decoded(wire, n);
  HelloInfo h;
  ASSERT_EQ(unpack_hello(v, h), LinkError::none);
  EXPECT_EQ(h.plant, PlantId::spherical_robot);
  EXPECT_EQ(h.status_every, 250u);
  EXPECT_EQ(h.schema, 0xDEADBEEFu);
  v.payload[layout::hello_plant] = kMaxPlantId + 1;
  EXPECT_EQ(unpack_hello(v, h), LinkError::out_of_range) << "an unknown plant";
  EXPECT_EQ(h.plant, PlantId::none);
  v.payload[layout::hello_plant] = 1;
  v.payload[layout::hello_reserved] = 1;
  EXPECT_EQ(unpack_hello(v, h), LinkError::out_of_range) << "a reserved byte set";
  // An empty hello (the previous layout's) is no hello of this version.
  EXPECT_EQ(encode_frame(FrameHeader{FrameType::hello, 0, 0}, nullptr, 0, wire, sizeof wire, n), LinkError::bad_length);
}

// The hash covers every entry: moving a field, resizing it, renaming its unit or changing its
// wire range gives another hash (the static_asserts keep the table tiling each payload).
TEST(LinkSchema, TheHashMovesWithEveryPartOfTheDescription) {
  constexpr std::size_t n = kWireSchemaFields;
  SchemaField copy[n];
  for (std::size_t i = 0; i < n; ++i) copy[i] = kWireSchema[i];
  EXPECT_EQ(schema_detail::schema_hash(copy, n), kWireSchemaHash);
  std::vector<std::uint32_t> seen{kWireSchemaHash};
  for (std::size_t i = 0; i < n; ++i) {
    const SchemaField f = copy[i];
    for (int k = 0; k < 4; ++k) {
      copy[i] = f;
      if (k == 0) copy[i].offset += 1;
      if (k == 1) copy[i].size = std::uint8_t(copy[i].size + 1);
      if (k == 2) copy[i].unit = "furlong";
      if (k == 3) copy[i].range += 1.0f;
      const std::uint32_t h = schema_detail::schema_hash(copy, n);
      for (std::uint32_t s : seen) ASSERT_NE(h, s) << "entry " << i << " change " << k;
      seen.push_back(h);
    }
    copy[i] = f;
  }
  EXPECT_NE(schema_detail::schema_hash(copy, n - 1), kWireSchemaHash) << "a field dropped";
}

namespace {

// hello with the period, `ticks` sensor frames (a status request after the third), goodbye.
std::vector<FrameView> run_script(std::uint16_t status_every, int ticks, bool request_at_3) {
  namespace script = scripted_lockstep;
  script::clear();
  script::send(hil::encode_hello(0, 0, HelloInfo{PlantId::none, status_every, 0}));
  SensorReading<double> r;
  r.vertical << 0.0, 0.0, 1.0;
  std::uint32_t seq = 0;
  for (int k = 1; k <= ticks; ++k) {
    script::send(hil::encode(FrameType::sensor, seq++, std::uint64_t(k), &r));
    if (request_at_3 && k == 3) script::send(hil::encode(FrameType::status_request, 0, 0));
  }
  script::send(hil::encode(FrameType::goodbye, 0, 0));
  auto ctrl = SkateRotorController<float>::make(SkateRotorControllerConfig<float>{}, 1e-3f);
  EXPECT_TRUE(ctrl.ok());
  using Link = HilLink<float, SkateRotorWire<float>>;
  rt::Loop<Link, SkateRotorController<float>> loop(Link{}, *ctrl);
  (void)run_lockstep<script::Board, script::Port>(loop, loop.source(), rt::rate_hz(1000));
  return script::out;
}

std::vector<FrameType> types(const std::vector<FrameView>& v) {
  std::vector<FrameType> t;
  for (const FrameView& f : v) t.push_back(f.header.type);
  return t;
}

}  // namespace

// The hello answer names the firmware's plant and this build's schema whatever the host sent,
// and echoes the period; a status after every N-th answer and on request.
TEST(LinkHello, TheFirmwareAnswersWithItsPlantSchemaAndStatusFrames) {
  using T = FrameType;
  const std::vector<FrameView> out = run_script(2, 5, true);
  EXPECT_EQ(types(out), (std::vector<T>{T::hello, T::actuator, T::actuator, T::status, T::actuator, T::status,
                                        T::actuator, T::status, T::actuator, T::goodbye}));
  HelloInfo h;
  ASSERT_EQ(unpack_hello(out[0], h), LinkError::none);
  EXPECT_EQ(h.plant, PlantId::skate_rotor);
  EXPECT_EQ(h.schema, kWireSchemaHash);
  EXPECT_EQ(h.status_every, 2u);
  StatusReport s;
  ASSERT_EQ(unpack_status(out[7], s), LinkError::none);
  EXPECT_EQ(s.link.total_rejected() + s.link.gaps + s.link.repeated, 0u);

  const std::vector<FrameView> quiet = run_script(0, 3, false);
  EXPECT_EQ(types(quiet), (std::vector<T>{T::hello, T::actuator, T::actuator, T::actuator, T::goodbye}))
      << "period 0: status frames only on request";

  HilLink<float, SphericalRobotWire<float>> robot;  // the robot's firmware names its plant
  LinkEvent e = LinkEvent::none;
  for (std::uint8_t b : hil::encode_hello(0, 0, HelloInfo{PlantId::skate_rotor, 0, 0})) e = robot.receive(b);
  ASSERT_EQ(e, LinkEvent::hello);
  std::uint8_t wire[layout::max_wire_size];
  const std::size_t n = robot.reply_control(FrameType::hello, wire, sizeof wire);
  ASSERT_EQ(unpack_hello(decoded(wire, n), h), LinkError::none);
  EXPECT_EQ(h.plant, PlantId::spherical_robot);
  EXPECT_EQ(h.schema, kWireSchemaHash);
}
