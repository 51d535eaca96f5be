// SPDX-License-Identifier: Apache-2.0
// The prose of the wire reference that no library table holds: what each frame type, field and
// code means, keyed by the name the library gives it (so a new field or code appears on the page
// by itself, with "(no description)" until a line is added here; WireReference.EveryNameHasAMeaning
// fails meanwhile). The structure — codes, offsets, sizes, units, ranges — never comes from here.
#pragma once

#include <cstring>

#include "attractor/link/plant_id.hpp"

namespace wire_reference {

struct Meaning {
  const char* key;  // "frame" or "frame.field" or "table.code"
  const char* text;
};

inline constexpr Meaning kMeanings[] = {
    // frame types: direction first (the page's column), then what it is for
    {"sensor", "host → firmware|one tick's measurements; answered by one actuator frame"},
    {"actuator", "firmware → host|the answer to one tick: the commands actuated, mode, reason, verdict, step cost"},
    {"hello", "either way|starts a run (the firmware resets its link state); answered with the firmware's own hello"},
    {"goodbye", "either way|ends the run; the firmware answers with a goodbye (empty) and stops"},
    {"reset", "host → firmware|reboot now; no answer, the boot frame of the new run follows"},
    {"boot", "firmware → host|sent once after every boot, before anything is read"},
    {"status", "firmware → host|the run's counters since the last hello: after every N-th answer and on request"},
    {"status_request", "host → firmware|send a status frame now; not a tick"},
    // header
    {"header.version", "protocol version; a receiver rejects any other (bad_version)"},
    {"header.type", "frame type (table above); fixes the payload size"},
    {"header.sequence", "counts the frames of one sender in one direction, from 0 after each hello, modulo 2^32"},
    {"header.tick", "the control tick the frame belongs to, modulo 2^32 (rules below)"},
    // payload fields
    {"sensor.gyro", "body angular velocity Ω1, Ω2, Ω3"},
    {"sensor.vertical", "measured upward vertical in the body frame (accelerometer direction, |a| ≈ 1)"},
    {"sensor.velocity1", "body velocity along body axis 1 (the skate's blade speed)"},
    {"sensor.rotor_rate12", "rotor speeds 1 and 2 relative to the body"},
    {"actuator.torque12", "motor torques 1 and 2 (the skate uses torque 1)"},
    {"actuator.mode", "the supervisor's mode (mode table)"},
    {"actuator.reason", "the supervisor's latched reason (reason table; 0 while running)"},
    {"actuator.verdict", "what became of the frame answered (verdict table)"},
    {"actuator.tick_cost", "cost-clock counts of the last control step, saturated at 65535"},
    {"status.faults", "the supervisor's fault counters, in this order:"},
    {"status.link_rejected", "segments rejected per reason, element i = link rejection reason i + 1:"},
    {"status.gaps", "sequence numbers missing before an accepted frame"},
    {"status.repeated", "sensor frames whose sequence number did not advance"},
    {"status.late", "sensor frames whose tick did not pass the newest sample used"},
    {"status.implausible", "sensor frames in range but physically impossible"},
    {"status.wild", "sensor frames outside the sequence/tick window"},
    {"hello.plant", "the sender's plant (plant table); the host refuses another plant (exit 11)"},
    {"hello.reserved", "0; a receiver rejects any other value (out_of_range)"},
    {"hello.status_every", "status period N: a status frame after every N-th answer (0: only on request)"},
    {"hello.schema", "the sender's wire schema hash (bytes below); the host refuses another (exit 11)"},
    {"boot.resets", "resets since power-on"},
    {"boot.reason", "why the firmware booted (boot reason table)"},
    {"boot.reserved", "0; a receiver rejects any other value (out_of_range)"},
    // verdict (link/verdict.hpp)
    {"verdict.fresh", "used: the controller ran on it"},
    {"verdict.rejected",
     "not a decodable sensor frame (a link rejection reason): names no frame; its tick is the newest tick the "
     "firmware used"},
    {"verdict.repeated", "its sequence number did not advance (duplicated, reordered); not used"},
    {"verdict.late", "its tick did not pass the newest sample used (an old sample); not used"},
    {"verdict.implausible", "decodable and in range, but physically impossible (|vertical| off 1 by more than 0.1)"},
    {"verdict.wild", "its sequence or tick outside the window; not used"},
    {"verdict.non_finite", "decodable, a NaN or Inf in a value: refused, the sample held, an unusable tick"},
    {"verdict.out_of_range", "decodable, a value beyond its wire range: refused, the sample held, an unusable tick"},
    {"verdict.held", "the link passed it, the controller refused it (beyond its own limits): held, an unusable tick"},
    // mode (rt/supervisor.hpp)
    {"mode.running", "the control law drives the actuators"},
    {"mode.safe", "actuators at zero, reason latched"},
    // reason (attractor::Error, core/result.hpp)
    {"reason.none", "no fault (running)"},
    {"reason.invalid_parameter", "a parameter is NaN/Inf or physically meaningless"},
    {"reason.outside_stability_range", "a control gain outside the range that guarantees stability"},
    {"reason.singular", "a matrix that must be inverted is singular"},
    {"reason.non_finite", "NaN or Inf where a finite value is required"},
    {"reason.out_of_range", "a value outside its documented range"},
    {"reason.stale", "sensor data older than allowed (more than stale_limit unusable ticks in a row)"},
    {"reason.overrun", "a control tick did not finish within its budget"},
    {"reason.corrupt_frame", "a frame failed its CRC or framing check"},
    {"reason.envelope", "plant state outside the supervised envelope"},
    {"reason.stack", "stack high-water mark past its limit"},
    // link rejection reasons (link/link_error.hpp)
    {"rejection.bad_length", "encoded size outside the protocol's, or the payload size not its type's"},
    {"rejection.bad_framing", "COBS code chain broken: a zero byte inside, a code past the end"},
    {"rejection.bad_crc", "CRC-32 over header and payload does not match"},
    {"rejection.bad_version", "a protocol version this build does not speak"},
    {"rejection.bad_type", "an unknown frame type, or a type the receiver does not take"},
    {"rejection.non_finite", "NaN or Inf in a payload value"},
    {"rejection.out_of_range", "a payload value outside its wire range, or an unknown code"},
    // boot reason (rt/boot_record.hpp)
    {"boot_reason.power_on", "no valid boot record: first boot since power was applied"},
    {"boot_reason.host_request", "the previous run asked for the reset (a reset frame)"},
    {"boot_reason.other_reset", "a valid record but no request: watchdog, fault handler, debugger"},
};

// The text for `key`, or nullptr. A plant's ("plant.<name>") is the plant registry's
// (plants/registry.hpp, through link::description).
inline const char* meaning(const char* key) {
  for (const Meaning& m : kMeanings)
    if (std::strcmp(m.key, key) == 0) return m.text;
  if (std::strncmp(key, "plant.", 6) == 0)
    for (int p = 0; p <= attractor::link::kMaxPlantId; ++p)
      if (std::strcmp(key + 6, attractor::link::to_string(attractor::link::PlantId(p))) == 0)
        return attractor::link::description(attractor::link::PlantId(p));
  return nullptr;
}

// The supervisor's fault counters in the order status_frame.hpp packs them
// (WireReference.TheStatusFaultCountersAreInTheDocumentedOrder pins it).
inline constexpr const char* kFaultCounterNames[] = {"non_finite", "out_of_range", "stale",
                                                     "overrun",    "envelope",     "saturated"};

}  // namespace wire_reference
