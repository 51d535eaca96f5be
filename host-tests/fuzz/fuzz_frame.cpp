// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the HIL frame decoder (lib/include/attractor/link/). The input is a received
// byte stream. Checks: no undefined behaviour and no access outside the given bytes (each frame
// is decoded from an exact-size heap copy, so ASan sees one byte past it); every accepted frame
// re-encodes to exactly the bytes received (the format is canonical); every accepted reading or
// report holds finite values within the wire ranges, in float and in double; a rejected one is
// zero; the stream receiver never reports a frame longer than the longest valid one.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/frame_receiver.hpp"
#include "attractor/link/sensor_frame.hpp"

using namespace attractor::link;

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

template <class S>
void check_sensor_values(const FrameView& v) {
  SensorReading<S> r;
  const LinkError e = unpack_sensor(v, r);
  if (e != LinkError::none) {
    check(r.gyro.norm() + r.vertical.norm() + r.velocity.norm() + r.rotor_rate.norm() == S(0));
    return;
  }
  check(check_sensor(r) == LinkError::none);
  std::uint8_t payload[layout::sensor_payload_size];
  pack_sensor(r, payload);
  check(std::memcmp(payload, v.payload, sizeof payload) == 0);  // float <-> S is exact for binary32 values
}

template <class S>
void check_actuator_values(const FrameView& v) {
  ActuatorReport<S> a;
  const LinkError e = unpack_actuator(v, a);
  if (e != LinkError::none) {
    check(a.torque.norm() == S(0) && a.mode == attractor::rt::Mode::safe);
    return;
  }
  check(check_actuator(a) == LinkError::none);
  std::uint8_t payload[layout::actuator_payload_size];
  pack_actuator(a, payload);
  check(std::memcmp(payload, v.payload, sizeof payload) == 0);
}

void check_frame(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> copy(data, data + size);  // exact size: ASan guards both ends
  FrameView v;
  const LinkError e = decode_frame(copy.data(), copy.size(), v);
  check(e != LinkError::buffer_too_small);
  if (e != LinkError::none) {
    check(v.payload_size == 0 && v.header.sequence == 0 && v.header.tick == 0);
    return;
  }
  check(v.payload_size <= layout::max_payload_size);
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  check(encode_frame(v.header, v.payload, v.payload_size, wire, sizeof wire, n) == LinkError::none);
  check(n == size + 1 && std::memcmp(wire, data, size) == 0 && wire[size] == 0);
  check_sensor_values<float>(v);
  check_sensor_values<double>(v);
  check_actuator_values<float>(v);
  check_actuator_values<double>(v);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The whole input as one frame (what a decoder given any length must survive) ...
  check_frame(data, size);
  // ... and as a stream split at delimiters (what the firmware's receiver does).
  FrameReceiver rx;
  for (std::size_t i = 0; i < size; ++i) {
    if (rx.push(data[i]) == FrameReceiver::Event::frame) {
      check(rx.size() >= 1 && rx.size() <= layout::max_encoded_size);
      check_frame(rx.data(), rx.size());
    }
    check(rx.pending() <= layout::max_encoded_size);
  }
  return 0;
}
