// SPDX-License-Identifier: Apache-2.0
// The facts of the wire reference that are behaviour, not layout: the order in which a receiver
// checks a segment, and the sequence, tick, answer and delimiter rules. As data, so that a test
// can hold the code to them: WireReference.TheChecksRunInTheDocumentedOrder breaks every pair of
// checks in one frame and expects the earlier one's reason; each rule names the tests that pin it
// (GoogleTest Suite.Name or a CTest name starting hil., comma-separated;
// WireReference.EveryCitedTestExists finds each in the sources).
#pragma once

#include "attractor/link/link_error.hpp"

namespace wire_reference {

using attractor::link::LinkError;

// One check of a received segment, in the order they decide (the first that fails names the
// reason; decode_frame evaluates all of them, so the cost does not depend on which failed).
struct Check {
  const char* key;  // the test's name for the defect
  LinkError reason;
  const char* condition;
};

inline constexpr Check kCheckOrder[] = {
    {"size", LinkError::bad_length,
     "the segment (bytes between two 0x00, delimiter excluded) is shorter than a frame of the smallest payload or "
     "longer than one of the largest (a longer segment's bytes beyond it are dropped)"},
    {"framing", LinkError::bad_framing, "the COBS code chain does not end exactly at the segment's end"},
    {"crc", LinkError::bad_crc, "the CRC-32 of header and payload is not the frame's last four bytes"},
    {"version", LinkError::bad_version, "the header's version is not this protocol's"},
    {"type", LinkError::bad_type, "the header's type is not in the frame-type table"},
    {"length", LinkError::bad_length, "the payload is not the size the type fixes"},
    {"non_finite", LinkError::non_finite, "a float of the payload is NaN or ±Inf (sensor, actuator frames)"},
    {"out_of_range", LinkError::out_of_range,
     "a float beyond its wire range, or a code or reserved byte not in its table (any frame with codes)"},
};

// A rule of the link, and the tests that hold the code to it.
struct Rule {
  const char* topic;
  const char* text;
  const char* pinned_by;
};

inline constexpr Rule kRules[] = {
    {"delimiter",
     "Every frame on the wire is COBS(raw) followed by one 0x00. Whatever ends at a 0x00 is one segment; an empty "
     "segment (two 0x00 in a row) is ignored by both receivers, so a sender may put extra 0x00 anywhere between "
     "frames. The runner sends one before every sensor frame (junk before it then ends there instead of spoiling "
     "it). The firmware sends nothing between its frames: each frame is followed by exactly one 0x00, over the "
     "UART and the semihosting FIFOs alike",
     "LinkReceiver.SplitsAStreamAndResynchronises, LinkBytes.JunkBetweenFramesCostsNoGoodFrame, "
     "hil.wire_client_from_docs"},
    {"sequence",
     "Each sender numbers its frames per direction: the firmware's first frame after a hello (the hello answer) "
     "has sequence 0 and each frame it sends after it (actuator, status, goodbye) the next number, modulo 2^32; the "
     "boot frame has 0. The firmware takes the first sensor frame after a hello (or after power-on) as the "
     "baseline, whatever its number; after it, a number that did not advance is `repeated`, one ahead within the "
     "window counts the numbers skipped as gaps (a rejected segment consumed one of them)",
     "LinkLockstep.TheFirstFrameAfterHelloSetsTheSequence, LinkLockstep.EveryInjectedFaultIsDetectedInItsClass"},
    {"tick",
     "A sensor frame carries the tick it samples; the actuator frame answering it carries the same tick. A sample "
     "is fresh only if its tick is later than every sample used before (in the window); an older one is `late`. "
     "Ticks compare modulo 2^32. The hello answer and the goodbye answer carry the tick of the firmware's baseline "
     "(after a hello: the hello's tick); an answer to a rejected segment carries the newest tick the firmware used "
     "(one the host already has its answer for: it names no frame); a status frame answering a status request "
     "carries the request's tick, a periodic one the tick of the answer it follows; the boot frame tick 0",
     "LinkLockstep.ASampleNoNewerThanTheNewestUsedIsLateAndHeld, LinkBytes.TheTickIndexWrapsModulo2To32"},
    {"window",
     "A sensor frame whose sequence number or tick is more than the window away from the baseline is `wild`: "
     "counted, answered, not used, the baseline kept. Two wild frames in a row that agree with each other "
     "(consecutive sequence numbers, the tick moving on within the window) become the new baseline",
     "LinkBytes.AWildFrameCannotPoisonLaterFrames, LinkBytes.TwoAgreeingFramesReplaceAWildBaseline"},
    {"answers",
     "The firmware answers every decodable sensor frame with one actuator frame naming its tick, whatever its "
     "verdict (a value refused is a tick too). A segment that is not a decodable frame is counted per reason; the "
     "first such segment since the last decodable frame (of any type) is answered (verdict `rejected`, no frame's "
     "tick), later ones before the next decodable frame only counted. A host never takes a `rejected` answer for "
     "a frame's: the runner asks with a status request whether the frame itself was spoiled (docs/hil.md, "
     "\"Framing and recovery\"). hello is answered with the firmware's "
     "hello, goodbye with goodbye, a status request with a status frame (not a tick); reset gets no answer (the "
     "boot frame follows). After every N-th actuator frame since the hello (N: the hello's status period; 0 "
     "never) a status frame follows",
     "LinkBytes.EachAnswerCarriesItsFramesVerdict, LinkBytes.ASpuriousZeroCostsOneAnswer, "
     "LinkHello.TheFirmwareAnswersWithItsPlantSchemaAndStatusFrames, "
     "LinkLockstep.AResetFrameEndsTheRunUnansweredForTheAppToReboot"},
    {"judgement",
     "A decodable sensor frame is judged in this order: `repeated` (sequence behind the baseline within the "
     "window), then `late` (sequence in the window, tick not after the newest sample), then `wild`, then its "
     "values (`non_finite`: a NaN or Inf; `out_of_range`: beyond the field's wire range), then `implausible` (the "
     "plant's rule: |vertical| within 0.1 of 1), else it reaches the controller, which may still refuse it "
     "(beyond its own limits: `held`), else `fresh`. Only a fresh frame's values are used; every other tick holds "
     "the last sample and counts it stale, and more than stale_limit (3) unusable ticks in a row trip the safe "
     "state (zero command): a sensor stuck at a refused value trips on its 4th tick",
     "WireReference.TheJudgementOrder, LinkLockstep.AVerticalOffTheUnitSphereIsImplausibleAndHeld"},
};

}  // namespace wire_reference
