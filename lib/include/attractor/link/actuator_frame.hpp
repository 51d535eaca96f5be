// SPDX-License-Identifier: Apache-2.0
// The actuator frame (firmware -> host): the commands answering one sensor frame, the
// controller's mode and reason, what the firmware made of the frame (verdict) and the cost of
// the control step — lean, so that a tick fits a 921600-baud UART at 1 kHz; the counters travel
// in the status frame (link/status_frame.hpp). Layout in link/frame_layout.hpp.
// Torques are float or double on either side, binary32 on the wire (two of them: a command with
// a third torque set is refused by encode, never cut); a receiver rejects non-finite torques,
// torques beyond the wire range, and a mode, reason or verdict code it does not know.
#pragma once

#include <cstddef>
#include <cstdint>

#include "attractor/core/result.hpp"
#include "attractor/core/types.hpp"
#include "attractor/link/frame.hpp"
#include "attractor/link/verdict.hpp"
#include "attractor/link/wire_scalar.hpp"
#include "attractor/rt/supervisor.hpp"

namespace attractor::link {

// The highest attractor::Error code this protocol version carries. If result.hpp gains a code,
// the static_assert below fails: extend this (and decide whether the version must change).
inline constexpr std::uint8_t kMaxErrorCode = std::uint8_t(Error::stack);
namespace detail {
constexpr bool same_text(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) ++a, ++b;
  return *a == *b;
}
}  // namespace detail
static_assert(detail::same_text(to_string(Error(kMaxErrorCode + 1)), "unknown"),
              "attractor::Error grew: update link::kMaxErrorCode");

template <class S>
struct ActuatorReport {
  Vec3<S> torque = Vec3<S>::Zero();  // motor torques [N m] (skate: rotor torque first; the third is not carried)
  rt::Mode mode = rt::Mode::safe;    // controller mode after this tick
  Error reason = Error::none;        // why it is safe (latched), none while running
  std::uint32_t tick_cost = 0;       // cost-clock counts of the last control step (65535 at most on the wire)
  Verdict verdict = Verdict::fresh;  // what the firmware made of the frame answered
};

struct ActuatorWireRange {
  static constexpr float torque = 1000.0f;  // N m
};

// Writes the payload bytes of r as they are (any torque value; see to_wire()).
template <class S>
void pack_actuator(const ActuatorReport<S>& r, std::uint8_t (&payload)[layout::actuator_payload_size]) {
  for (int i = 0; i < layout::actuator_torques; ++i)
    put_f32(payload + layout::actuator_torque + 4 * std::size_t(i), to_wire(r.torque[i]));
  payload[layout::actuator_mode] = std::uint8_t(r.mode);
  payload[layout::actuator_reason] = std::uint8_t(r.reason);
  payload[layout::actuator_verdict] = std::uint8_t(r.verdict);
  put_u16(payload + layout::actuator_tick_cost, std::uint16_t(r.tick_cost < 0xFFFFu ? r.tick_cost : 0xFFFFu));
}

template <class S>
LinkError check_actuator(const ActuatorReport<S>& r) {
  WireCheck c;
  for (int i = 0; i < 3; ++i) c.add(r.torque[i], ActuatorWireRange::torque);
  const bool codes_ok = std::uint8_t(r.mode) <= std::uint8_t(rt::Mode::safe) &&
                        std::uint8_t(r.reason) <= kMaxErrorCode && std::uint8_t(r.verdict) <= kMaxVerdict;
  const bool carried = r.torque[2] == S(0);
  return !c.finite                              ? LinkError::non_finite
         : !(c.in_range && codes_ok && carried) ? LinkError::out_of_range
                                                : LinkError::none;
}

template <class S>
LinkError encode_actuator_frame(std::uint32_t sequence, std::uint32_t tick, const ActuatorReport<S>& r,
                                std::uint8_t* out, std::size_t out_capacity, std::size_t& written) {
  written = 0;
  const LinkError e = check_actuator(r);
  if (e != LinkError::none) return e;
  std::uint8_t payload[layout::actuator_payload_size];
  pack_actuator(r, payload);
  return encode_frame(FrameHeader{FrameType::actuator, sequence, tick}, payload, sizeof payload, out, out_capacity,
                      written);
}

// The report of a decoded frame: bad_type unless it is an actuator frame; non_finite for a
// torque; out_of_range for a torque beyond the wire range or an unknown mode, reason or verdict
// code. r is the default (safe, zero torque) on any error.
template <class S>
LinkError unpack_actuator(const FrameView& v, ActuatorReport<S>& r) {
  const bool type_ok = v.header.type == FrameType::actuator && v.payload_size == layout::actuator_payload_size;
  const std::uint8_t* p = v.payload;
  WireCheck c;
  ActuatorReport<S> tmp;
  for (int i = 0; i < layout::actuator_torques; ++i)
    tmp.torque[i] = read_checked<S>(p + layout::actuator_torque + 4 * std::size_t(i), ActuatorWireRange::torque, c);
  const std::uint8_t mode = p[layout::actuator_mode];
  const std::uint8_t reason = p[layout::actuator_reason];
  const std::uint8_t verdict = p[layout::actuator_verdict];
  const bool codes_ok = mode <= std::uint8_t(rt::Mode::safe) && reason <= kMaxErrorCode && verdict <= kMaxVerdict;
  tmp.mode = codes_ok ? rt::Mode(mode) : rt::Mode::safe;
  tmp.reason = codes_ok ? Error(reason) : Error::none;
  tmp.verdict = codes_ok ? Verdict(verdict) : Verdict::fresh;
  tmp.tick_cost = get_u16(p + layout::actuator_tick_cost);

  const LinkError e = !type_ok                    ? LinkError::bad_type
                      : !c.finite                 ? LinkError::non_finite
                      : !(c.in_range && codes_ok) ? LinkError::out_of_range
                                                  : LinkError::none;
  r = e == LinkError::none ? tmp : ActuatorReport<S>{};
  return e;
}

template <class S>
LinkError decode_actuator_frame(const std::uint8_t* in, std::size_t n, FrameHeader& header, ActuatorReport<S>& r) {
  FrameView v;
  const LinkError framing = decode_frame(in, n, v);
  const LinkError values = unpack_actuator(v, r);
  header = v.header;
  return framing != LinkError::none ? framing : values;
}

}  // namespace attractor::link
