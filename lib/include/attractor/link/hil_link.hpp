// SPDX-License-Identifier: Apache-2.0
// The firmware's end of the HIL link as a sensor source (rt/loop.hpp's Source): measurements
// come from sensor frames received byte by byte, commands go back in actuator frames. The
// controller and the app are the same as with the SIL plant (plants/skate_rotor/simulated.hpp);
// `Wire` maps frames to the controller's Measurement/Command (e.g. plants/skate_rotor/wire.hpp).
//
// Every frame that ends at a delimiter is one event (receive()): a decodable sensor frame is a
// tick with an answer naming its tick, whether used or refused for a value (non_finite,
// out_of_range: counted per LinkError, the sample held and counted stale by the runtime);
// undecodable segments (counted per LinkError) make at most one tick per gap between decodable
// frames, answered `rejected` (rejected() below), so the host gets one answer per frame it sent
// that arrived, and an answer to junk that no host takes for its frame's. A sensor frame whose sequence number does
// not advance (duplicated, reordered) is counted `repeated` and not used; one that skips ahead
// counts the missing frames as `gaps` (a rejected frame consumes the sequence number it should
// have had). hello restarts the sequence: the first sensor frame after it (or after power-on)
// sets the baseline whatever its number (the runner keeps numbering across a reset and its new
// hello), so a frame lost before it is no gap, and a rejected first frame counts once, as
// rejected. goodbye ends the run; reset ends it without an answer so that the app reboots (the
// boot frame announces the new run, link/boot_frame.hpp). The hello is answered with the
// firmware's plant (Wire::kPlant) and wire schema hash (link/hello_frame.hpp), and sets the
// status period: after every N-th answer and on a status request the lockstep sends a status
// frame with this run's counters (link/status_frame.hpp). Tick indices
// are compared modulo 2^32, as the wire carries them.
//
// Two more checks make an accepted frame not fresh (counted, the sample held, stale for the
// runtime): `late` — the sequence advanced but the sample time (tick index) did not pass the
// newest sample already used: an old measurement sent late; in lockstep the host sends one
// sensor frame per tick, so a sample is fresh only if its tick index is later than every sample
// used before (forward jumps are drops, not lateness). Wall-clock delay is not visible here by
// design: the frames are the clock. `implausible` — decodable, in the wire range, but physically
// impossible by the plant's own rule, Wire::plausible(reading) when the adapter has one (the
// skate: the measured vertical must have unit norm, plants/skate_rotor/wire.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/frame_receiver.hpp"
#include "attractor/link/hello_frame.hpp"
#include "attractor/link/link_counters.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/status_frame.hpp"
#include "attractor/link/verdict.hpp"
#include "attractor/rt/optional_member.hpp"
#include "attractor/rt/supervisor.hpp"

namespace attractor::link {

enum class LinkEvent : std::uint8_t {
  none = 0,     // byte stored, no frame ended
  tick = 1,     // a sensor frame (fresh or not) or a rejected frame: run one tick, then reply()
  hello = 2,    // the host starts a run: answer with reply_control(hello)
  goodbye = 3,  // the host ends the run: answer with reply_control(goodbye), then stop
  reset = 4,    // the host asks for a reboot: stop without an answer, the app resets the core
  status = 5,   // the host asks for the counters: answer with reply_status() (not a tick)
};

namespace detail {
template <class Wire, class S>
using plausible_member = decltype(Wire::plausible(std::declval<const SensorReading<S>&>()));
// Wire::plausible(r) when the plant's adapter defines one; every decodable reading otherwise.
template <class Wire, class S>
bool plausible(const SensorReading<S>& r) {
  if constexpr (rt::has_member<plausible_member, Wire, S>) {
    return Wire::plausible(r);
  } else {
    return true;
  }
}
}  // namespace detail

// How far (in frames, and in ticks) a sensor frame may be ahead of or behind the baseline and
// still be judged against it. Beyond it the frame is `wild`: counted, answered, not used, and
// the baseline stays; two wild frames in a row that agree with each other (consecutive sequence
// numbers, the tick moving on within the window) become the new baseline. So one CRC-valid frame
// with a wild number cannot make every later frame look repeated or late.
inline constexpr std::uint32_t kWindow = 64;

template <class S, class Wire>
class HilLink {
 public:
  using Scalar = S;
  using Measurement = typename Wire::Measurement;
  using Command = typename Wire::Command;

  // ---- byte side: the lockstep driver (link/lockstep.hpp) feeds every received byte ----
  LinkEvent receive(std::uint8_t byte) {
    const FrameReceiver::Event e = rx_.push(byte);
    if (e == FrameReceiver::Event::none) return LinkEvent::none;
    fresh_ = false;
    if (e == FrameReceiver::Event::overflow) return rejected(LinkError::bad_length);
    FrameView v;
    LinkError err = decode_frame(rx_.data(), rx_.size(), v);
    if (err == LinkError::none && v.header.type == FrameType::hello) {
      HelloInfo host;
      err = unpack_hello(v, host);
      if (err != LinkError::none) return rejected(err);
      restart();
      status_every_ = host.status_every;
      tick_ = v.header.tick;
      answer_tick_ = tick_;
      status_tick_ = tick_;
      return LinkEvent::hello;
    }
    if (err == LinkError::none && v.header.type == FrameType::status_request) {
      status_tick_ = v.header.tick;  // the reply names the request (the host's probe, answers.hpp)
      slot_answered_ = false;        // a decodable frame: junk after it is a new gap
      return LinkEvent::status;
    }
    if (err == LinkError::none && v.header.type == FrameType::goodbye) return LinkEvent::goodbye;
    if (err == LinkError::none && v.header.type == FrameType::reset) {
      reset_requested_ = true;
      return LinkEvent::reset;
    }
    SensorReading<S> r;
    if (err == LinkError::none) err = unpack_sensor(v, r);  // an actuator frame: bad_type
    // unpack_sensor() reports a value only for a sensor frame of the right size: such a frame
    // decoded (CRC, version, type, length) and names its sequence and tick, so it is judged as
    // a frame and answered as one, refused for its value; anything else is undecodable.
    const bool refused = err == LinkError::non_finite || err == LinkError::out_of_range;
    if (err != LinkError::none && !refused) return rejected(err);
    return sensor(v.header, r, err);
  }
  // ---- Source (rt/loop.hpp) ----
  bool sample(Measurement& y) {
    y = Wire::measurement(reading_);
    return fresh_;
  }
  void actuate(const Command& u) { command_ = u; }

  // ---- answers ----
  // The actuator frame answering the last tick event: the command actuated, the supervisor's
  // mode and reason, the verdict and the step's cost. Returns its wire size.
  // `sample`: the control step's verdict on the sample (rt::Tick::sample_error()); a sample
  // the link passed but the controller refused (beyond its own limits) is answered `held`.
  std::size_t reply(const rt::Supervisor& sup, std::uint32_t tick_cost, std::uint8_t* out, std::size_t capacity,
                    Error sample = Error::none) {
    ActuatorReport<S> a;
    a.torque = Wire::torque(command_);
    a.mode = sup.mode();
    a.reason = sup.reason();
    a.tick_cost = tick_cost;
    a.verdict = (verdict_ == Verdict::fresh && sample != Error::none) ? Verdict::held : verdict_;
    std::size_t n = 0;
    // The runtime hands actuate() finite, clipped commands; if that ever failed, send the safe
    // report (zero torque) rather than nothing, so the host still sees one answer per frame.
    if (encode_actuator_frame(sequence_out_, answer_tick_, a, out, capacity, n) != LinkError::none) {
      ActuatorReport<S> safe;
      safe.verdict = a.verdict;
      (void)encode_actuator_frame(sequence_out_, answer_tick_, safe, out, capacity, n);
    }
    ++sequence_out_;
    ++answers_;
    status_tick_ = answer_tick_;  // a periodic status names the answer it follows
    return n;
  }
  // A status frame is due after this answer: every status_every-th answer since hello.
  bool status_due() const { return status_every_ != 0u && answers_ % status_every_ == 0u; }
  // The status frame: the supervisor's and this link's counters of the run since hello. It
  // names the tick of the status request it answers, or of the answer it follows (periodic).
  std::size_t reply_status(const rt::Supervisor& sup, std::uint8_t* out, std::size_t capacity) {
    StatusReport s;
    s.faults = sup.faults();
    s.link = counters_;
    std::size_t n = 0;
    (void)encode_status_frame(sequence_out_, status_tick_, s, out, capacity, n);
    ++sequence_out_;
    return n;
  }
  // The hello answer (this firmware's plant, schema and status period) or the goodbye answer.
  std::size_t reply_control(FrameType type, std::uint8_t* out, std::size_t capacity) {
    std::size_t n = 0;
    if (type == FrameType::hello) {
      const HelloInfo mine{Wire::kPlant, status_every_, kWireSchemaHash};
      (void)encode_hello_frame(sequence_out_, tick_, mine, out, capacity, n);
    } else {
      (void)encode_frame(FrameHeader{type, sequence_out_, tick_}, nullptr, 0, out, capacity, n);
    }
    ++sequence_out_;
    return n;
  }

  // This run's counters (since the last hello; what the actuator frames carry).
  const LinkCounters& counters() const { return counters_; }
  // Since power-on: every run's counters, the current one's included (the firmware's report).
  LinkCounters power_on_counters() const {
    LinkCounters c = power_on_;
    c.add(counters_);
    return c;
  }
  std::uint32_t tick() const { return tick_; }
  std::uint16_t status_every() const { return status_every_; }
  bool fresh() const { return fresh_; }
  // The host sent a reset frame (run_lockstep returned on it): the app reboots the core.
  bool reset_requested() const { return reset_requested_; }

 private:
  // A decodable sensor frame, judged against the baseline: the next expected sequence number
  // and the newest sample used, each with a window of kWindow either way. The checks in order:
  // the sequence and tick window (repeated, late, wild), then the values (`refused`: non_finite
  // or out_of_range, from unpack_sensor), then plausibility. Every one is a tick with its own
  // answer naming the frame's tick; only a fresh one carries a sample, so a sensor stuck at a
  // refused value trips the runtime's stale rule within stale_limit + 1 ticks, as in SIL.
  LinkEvent sensor(const FrameHeader& h, const SensorReading<S>& r, LinkError refused) {
    answer_tick_ = h.tick;   // the answer names the frame it answers
    slot_answered_ = false;  // a decodable frame opens the next rejected-segment slot
    const std::uint32_t ahead = h.sequence - expected_sequence_;
    const std::uint32_t behind = expected_sequence_ - h.sequence;  // 1: the last frame used again
    const std::uint32_t newer = h.tick - sample_tick_;             // modulo 2^32
    const bool seq_ok = !started_ || ahead <= kWindow;
    const bool repeat = started_ && behind >= 1u && behind <= kWindow;
    const bool tick_ok = !have_sample_ || (newer >= 1u && newer <= kWindow);
    const bool tick_behind = have_sample_ && std::uint32_t(sample_tick_ - h.tick) <= kWindow;  // the same tick included
    const bool late = !repeat && seq_ok && tick_behind;
    bool wild = !repeat && !late && !(seq_ok && tick_ok);
    if (wild && candidate_ && h.sequence == candidate_sequence_ + 1u && std::uint32_t(h.tick - candidate_tick_) >= 1u &&
        std::uint32_t(h.tick - candidate_tick_) <= kWindow) {
      // Two frames in a row agree with each other and not with the baseline: the baseline was
      // the odd one (a wild first frame, a real jump of the host): start again from this one.
      started_ = false;
      have_sample_ = false;
      wild = false;
    }
    candidate_ = wild;
    candidate_sequence_ = h.sequence;
    candidate_tick_ = h.tick;
    const bool judged = !repeat && !late && !wild;  // in the window: its values count
    const bool bad_value = judged && refused != LinkError::none;
    const bool implausible = judged && !bad_value && !detail::plausible<Wire>(r);
    const bool fresh = judged && !bad_value && !implausible;
    const bool in_sequence = !repeat && !wild;  // moves the sequence baseline on
    // Frames seen but not used since the last one in sequence account for missing numbers first.
    const std::uint32_t missing = (started_ && in_sequence) ? ahead : 0u;
    counters_.gaps += missing > unused_since_ ? missing - unused_since_ : 0u;
    counters_.repeated += repeat ? 1u : 0u;
    counters_.late += late ? 1u : 0u;
    counters_.implausible += implausible ? 1u : 0u;
    counters_.count(bad_value ? refused : LinkError::none);
    counters_.wild += wild ? 1u : 0u;
    unused_since_ = in_sequence ? 0u : unused_since_ + (wild ? 1u : 0u);
    expected_sequence_ = in_sequence ? h.sequence + 1u : expected_sequence_;
    started_ = started_ || in_sequence;
    fresh_ = fresh;
    reading_ = fresh ? r : reading_;
    sample_tick_ = fresh ? h.tick : sample_tick_;
    have_sample_ = have_sample_ || fresh;
    tick_ = judged ? h.tick : tick_;
    const Verdict value_verdict = refused == LinkError::non_finite ? Verdict::non_finite : Verdict::out_of_range;
    verdict_ = repeat        ? Verdict::repeated
               : late        ? Verdict::late
               : wild        ? Verdict::wild
               : bad_value   ? value_verdict
               : implausible ? Verdict::implausible
                             : Verdict::fresh;
    return LinkEvent::tick;
  }

  // A segment that does not decode as a frame (a corrupt frame, noise, the pieces of a frame
  // split by a stray 0x00, a frame of the wrong type or size) is counted and consumes no
  // sequence number: a good frame after it is judged as if it were not there. Such segments are
  // answered at most once between two decodable frames, as a tick with no sample (the host may
  // have sent a frame and wait for it); later ones in the same gap are counted only, so that
  // noise cannot multiply answers. A decodable sensor frame, refused or not, opens the next slot
  // (sensor()). The answer names no frame: its tick is the newest tick used (the baseline), one
  // the host has had its answer for, and its verdict `rejected` tells a host it answers junk.
  LinkEvent rejected(LinkError e) {
    counters_.count(e);
    unused_since_ += 1u;
    if (slot_answered_) return LinkEvent::none;
    slot_answered_ = true;
    answer_tick_ = tick_;  // no new frame: the newest tick used
    verdict_ = Verdict::rejected;
    return LinkEvent::tick;
  }

  void restart() {
    power_on_.add(counters_);
    started_ = false;
    expected_sequence_ = 0;
    sequence_out_ = 0;
    fresh_ = false;
    have_sample_ = false;
    sample_tick_ = 0;
    reset_requested_ = false;
    candidate_ = false;
    slot_answered_ = false;
    unused_since_ = 0;
    answers_ = 0;
    counters_ = LinkCounters{};
  }

  FrameReceiver rx_;
  LinkCounters counters_;
  SensorReading<S> reading_;  // the last accepted reading (zero before the first)
  Command command_ = Command::Zero();
  LinkCounters power_on_;          // every run's counters before the current one's (banked at hello)
  std::uint32_t tick_ = 0;         // baseline: the tick of the newest frame used (or of hello)
  std::uint32_t answer_tick_ = 0;  // the tick the next answer names
  std::uint32_t status_tick_ = 0;  // the tick the next status frame names
  std::uint32_t sample_tick_ = 0;  // tick index of the newest fresh sample (valid with have_sample_)
  std::uint32_t candidate_tick_ = 0;
  std::uint32_t answers_ = 0;             // actuator frames sent since hello (the status period counts them)
  std::uint16_t status_every_ = 0;        // the hello's status period N (0: on request only)
  std::uint32_t candidate_sequence_ = 0;  // the last wild frame (valid with candidate_)
  std::uint32_t expected_sequence_ = 0;
  std::uint32_t sequence_out_ = 0;
  std::uint32_t unused_since_ = 0;  // frames rejected or wild since the last one in sequence
  Verdict verdict_ = Verdict::fresh;
  bool candidate_ = false;
  bool slot_answered_ = false;  // a rejected segment was answered since the last decodable frame
  bool started_ = false;
  bool fresh_ = false;
  bool have_sample_ = false;
  bool reset_requested_ = false;
};

}  // namespace attractor::link
