// SPDX-License-Identifier: Apache-2.0
// HIL in one process: the firmware side (link::HilLink as the sensor source of the unchanged
// skate controller, rt::Loop, link::run_lockstep) exchanges wire bytes with a host peer that
// simulates the skate in double (SimulatedSkateRotor<double>, RK4 feedback integrator, zero-order
// hold) and injects faults: corrupted bytes, NaN and out-of-range values, dropped, duplicated,
// reordered and delayed frames, a biased vertical. Asserts: one answer per frame sent, every
// injected fault counted by the firmware in its class, the skate upright, the controller never
// in the safe state; and the frames as the only clock (two runs give identical logs). The
// spherical robot on the same link (SphericalRobotWire, SimulatedSphericalRobot<double> on the
// host) with the same faults. The detection rules one by one are in link_detection_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <vector>

#include "attractor/link/lockstep.hpp"
#include "attractor/plants/skate_rotor/controller.hpp"
#include "attractor/plants/skate_rotor/simulated.hpp"
#include "attractor/plants/skate_rotor/wire.hpp"
#include "attractor/plants/spherical_robot/controller.hpp"
#include "attractor/plants/spherical_robot/simulated.hpp"
#include "attractor/plants/spherical_robot/wire.hpp"
#include "attractor/rt/loop.hpp"
#include "link_faults.hpp"

using namespace attractor;
using namespace attractor::link;

namespace {

using FwLink = HilLink<float, SkateRotorWire<float>>;
using FwLoop = rt::Loop<FwLink, SkateRotorController<float>>;

using RobotLink = HilLink<float, SphericalRobotWire<float>>;
using RobotLoop = rt::Loop<RobotLink, SphericalRobotController<float>>;

// The host's plant per experiment: the model in double, its wire mapping, its Γ3.
struct SkateHost {
  using Plant = SimulatedSkateRotor<double>;
  using Wire = SkateRotorWire<double>;
  static Plant make() {
    auto p = Plant::make(SimulatedSkateRotorConfig<double>{}, 1e-3);
    EXPECT_TRUE(p.ok());
    return *p;
  }
  static double gamma3(const Plant& p) { return p.state()[4]; }
};
struct RobotHost {  // spherical-robot.md run C1: rotors on π̃ = 0 for the controller's σ
  using Plant = SimulatedSphericalRobot<double>;
  using Wire = SphericalRobotWire<double>;
  static Plant make() {
    SimulatedSphericalRobotConfig<double> c;
    auto law = SphericalRobotLaw<double>::make(c.params, SphericalRobotControllerConfig<double>{}.sigma);
    EXPECT_TRUE(law.ok());
    c.rotor_rates = law->zero_momentum_rotor_rates(c.omega);
    auto p = Plant::make(c, 1e-3);
    EXPECT_TRUE(p.ok());
    return *p;
  }
  static double gamma3(const Plant& p) { return p.vertical()[2]; }
};

// The runner's fault module (hil/faults/link_faults.hpp): every class but reset (the firmware
// here is a function call, it cannot reboot), in turn.
using hil::Fault;
const std::vector<Fault> kClasses = {Fault::corrupt,   Fault::nan,     Fault::out_of_range, Fault::drop,
                                     Fault::duplicate, Fault::reorder, Fault::delayed,      Fault::bias};

// The status period the host peers ask for in their hello.
constexpr std::uint16_t kStatusEvery = 100;

struct Injected {
  long count[hil::kFaultClasses] = {};
  long operator[](Fault f) const { return count[int(f)]; }
};

// The host: plant, frames out, answers in, faults per a fixed schedule.
class Peer {
 public:
  virtual ~Peer() = default;
  virtual bool read(std::uint8_t& b) = 0;
  virtual void write(const std::uint8_t* d, std::uint32_t n) = 0;
};

template <class Host>
class HostPeerOf : public Peer {
 public:
  // cut_hello: the tail of a hello first (its head lost, as by a UART enabled late), then hello.
  HostPeerOf(int ticks, int fault_every, bool cut_hello = false) : ticks_(ticks), every_(fault_every) {
    plant_ = Host::make();
    if (cut_hello) send_control(FrameType::hello, 5);
    send_control(FrameType::hello);
  }

  // Port::read: the next byte for the firmware; when none is left, the host takes its turn.
  // A host with nothing more to send while the firmware keeps reading is a deadlock (after the
  // goodbye the firmware must have returned): the test binary stops instead of spinning.
  bool read(std::uint8_t& b) override {
    if (to_fw_.empty()) step();
    if (to_fw_.empty()) {
      if (++idle_reads_ > 1000000) {
        std::fprintf(stderr, "link_lockstep_test: the firmware keeps reading from a host with nothing to send\n");
        std::abort();
      }
      return false;
    }
    idle_reads_ = 0;
    b = to_fw_.front();
    to_fw_.pop_front();
    return true;
  }
  // Port::write: bytes from the firmware, split and decoded as the runner would.
  void write(const std::uint8_t* d, std::uint32_t n) override {
    for (std::uint32_t i = 0; i < n; ++i) {
      if (rx_.push(d[i]) != FrameReceiver::Event::frame) continue;
      FrameView v;
      EXPECT_EQ(decode_frame(rx_.data(), rx_.size(), v), LinkError::none);
      if (v.header.type == FrameType::status) {  // the counters: every kStatusEvery answers, and on request
        EXPECT_EQ(unpack_status(v, status_), LinkError::none);
        ++statuses_;
        continue;
      }
      ++answers_;
      if (v.header.type != FrameType::actuator) continue;
      ActuatorReport<double> a;
      EXPECT_EQ(unpack_actuator(v, a), LinkError::none);
      last_ = a;
      torque_ = a.torque;
      log_.push_back(a.torque[0]);
      log_.push_back(double(a.tick_cost));
      costs_.push_back(a.tick_cost);
    }
  }

  int frames_sent() const { return frames_; }
  int answers() const { return answers_; }
  const ActuatorReport<double>& last() const { return last_; }
  // The firmware's counters as its latest status frame reported them, and how many came.
  const StatusReport& status() const { return status_; }
  int statuses() const { return statuses_; }
  const Injected& injected() const { return injected_; }
  double min_gamma3() const { return min_gamma3_; }
  const std::vector<double>& log() const { return log_; }
  // The tick cost each actuator frame reported, in order.
  const std::vector<std::uint32_t>& costs() const { return costs_; }

 private:
  // Advance the plant one tick under the last torque (ZOH), send this tick's frame(s).
  void step() {
    if (done_) return;
    if (tick_ == ticks_) {
      const hil::Bytes request = hil::encode(FrameType::status_request, 0, 0);  // the final counters (no answer)
      to_fw_.insert(to_fw_.end(), request.begin(), request.end());
      send_control(FrameType::goodbye);
      done_ = true;
      return;
    }
    plant_.actuate(Host::Wire::command(torque_));
    typename Host::Wire::Measurement y;
    (void)plant_.sample(y);
    min_gamma3_ = std::min(min_gamma3_, Host::gamma3(plant_));
    ++tick_;
    const SensorReading<double> r = Host::Wire::reading(y);
    const SensorReading<double> two_ago = past_[tick_ % hil::kDelayTicks];
    past_[tick_ % hil::kDelayTicks] = r;
    const Fault f = hil::fault_at(tick_, every_, kClasses);
    ++injected_.count[int(f)];
    for (const hil::Bytes& frame : hil::sensor_burst(f, r, two_ago, seq_, std::uint64_t(tick_), 0.25).frames)
      send(frame);
  }

  void send(const std::vector<std::uint8_t>& f) {
    to_fw_.insert(to_fw_.end(), f.begin(), f.end());
    ++frames_;
  }
  void send_control(FrameType t, std::size_t skip = 0) {
    const std::vector<std::uint8_t> wire =
        t == FrameType::hello ? hil::encode_hello(0, 0, HelloInfo{Host::Wire::kPlant, kStatusEvery, kWireSchemaHash})
                              : hil::encode(t, 0, 0);
    send(std::vector<std::uint8_t>(wire.begin() + std::ptrdiff_t(skip), wire.end()));
  }

  int ticks_, every_;
  typename Host::Plant plant_;
  std::deque<std::uint8_t> to_fw_;
  long idle_reads_ = 0;
  SensorReading<double> past_[hil::kDelayTicks];
  FrameReceiver rx_;
  ActuatorReport<double> last_;
  StatusReport status_;
  int statuses_ = 0;
  Injected injected_;
  std::vector<double> log_;
  std::vector<std::uint32_t> costs_;
  Vec3<double> torque_ = Vec3<double>::Zero();
  double min_gamma3_ = 1.0;
  int tick_ = 0, frames_ = 0, answers_ = 0;
  std::uint32_t seq_ = 0;
  bool done_ = false;
};

using HostPeer = HostPeerOf<SkateHost>;
using RobotPeer = HostPeerOf<RobotHost>;

Peer* g_host = nullptr;
std::uint32_t g_clock = 0;

struct FakeBoard {
  static std::uint32_t cost_now() { return g_clock += 7u; }  // deterministic "instructions"
  static std::uint32_t cost_hz() { return 1000000u; }
  static std::uint32_t cost_mask() { return 0xFFFFFFFFu; }
  static std::uint32_t stack_used_bytes() { return 1000u; }
  static std::uint32_t stack_size_bytes() { return 4000u; }
};
struct HostPort {
  static bool read(std::uint8_t& b) { return g_host->read(b); }
  static void write(const std::uint8_t* d, std::uint32_t n) { g_host->write(d, n); }
};

struct RunResult {
  rt::Report report;
  LinkCounters link;
};

template <class Board = FakeBoard>
RunResult run(HostPeer& host) {
  g_host = &host;
  g_clock = 0;
  auto ctrl = SkateRotorController<float>::make(SkateRotorControllerConfig<float>{}, 1e-3f);
  EXPECT_TRUE(ctrl.ok());
  FwLoop loop(FwLink{}, *ctrl);
  const rt::Report r = run_lockstep<Board, HostPort>(loop, loop.source(), rt::rate_hz(1000));
  g_host = nullptr;
  return {r, loop.source().counters()};
}

RunResult run(RobotPeer& host) {
  g_host = &host;
  g_clock = 0;
  auto ctrl = SphericalRobotController<float>::make(SphericalRobotControllerConfig<float>{}, 1e-3f);
  EXPECT_TRUE(ctrl.ok());
  RobotLoop loop(RobotLink{}, *ctrl);
  const rt::Report r = run_lockstep<FakeBoard, HostPort>(loop, loop.source(), rt::rate_hz(1000));
  g_host = nullptr;
  return {r, loop.source().counters()};
}

// Every injected fault class is counted by the firmware in its own counter (the firmware's
// LinkCounters as reported over the link against what the host injected).
void expect_counted_in_class(const LinkCounters& fw, const Injected& in) {
  EXPECT_EQ(fw.rejected_by(LinkError::bad_crc) + fw.rejected_by(LinkError::bad_framing),
            std::uint32_t(in[Fault::corrupt]));
  EXPECT_EQ(fw.rejected_by(LinkError::non_finite), std::uint32_t(in[Fault::nan]));
  EXPECT_EQ(fw.rejected_by(LinkError::out_of_range), std::uint32_t(in[Fault::out_of_range]));
  EXPECT_EQ(fw.gaps, std::uint32_t(in[Fault::drop] + in[Fault::reorder]));
  EXPECT_EQ(fw.repeated, std::uint32_t(in[Fault::duplicate] + in[Fault::reorder]));
  EXPECT_GT(in[Fault::delayed], 0);
  EXPECT_EQ(fw.late, std::uint32_t(in[Fault::delayed]));
  EXPECT_GT(in[Fault::bias], 0);
}

}  // namespace

TEST(LinkLockstep, CleanRunKeepsTheSkateUpright) {
  HostPeer host(2000, 0);
  const RunResult res = run(host);
  EXPECT_EQ(host.answers(), host.frames_sent()) << "one answer per frame (hello and goodbye included)";
  EXPECT_EQ(res.report.steps, 2000u);
  EXPECT_EQ(res.report.mode, rt::Mode::running);
  EXPECT_EQ(res.report.stack_used, 1000u);
  EXPECT_EQ(res.link.total_rejected() + res.link.gaps + res.link.repeated, 0u);
  EXPECT_GT(host.min_gamma3(), 0.95);
  EXPECT_EQ(host.last().mode, rt::Mode::running);
  EXPECT_NE(host.last().torque[0], 0.0) << "the controller acts through the link";
}

// Each answer carries its own step's cost: FakeBoard's clock advances 7 counts per reading and a
// step reads it twice (at the sample, at the end of the step), so every step costs 7 counts.
TEST(LinkLockstep, EachAnswerReportsItsStepsCost) {
  HostPeer host(300, 0);
  const RunResult res = run(host);
  ASSERT_EQ(host.costs().size(), 300u);
  for (std::size_t i = 0; i < host.costs().size(); ++i) ASSERT_EQ(host.costs()[i], 7u) << "answer " << i;
  EXPECT_EQ(res.report.cost.sum(), 300u * 7u);
}

// The stack is checked inside the lockstep loop about once a second of ticks, not only after
// goodbye: the deep stack trips the safe state while frames are still being answered.
namespace {
struct DeepStackBoard : FakeBoard {
  static std::uint32_t stack_used_bytes() { return 3900u; }  // of 4000: over the 75 % limit
};
}  // namespace
TEST(LinkLockstep, ChecksTheStackWhileRunning) {
  HostPeer host(1500, 0);
  const RunResult res = run<DeepStackBoard>(host);
  EXPECT_EQ(res.report.reason, Error::stack);
  EXPECT_EQ(res.report.trip_tick, 1000u) << "the first check, one second of ticks in";
  EXPECT_EQ(host.last().mode, rt::Mode::safe) << "the answers during the run say so";
  EXPECT_EQ(host.last().reason, Error::stack);
}

TEST(LinkLockstep, EveryInjectedFaultIsDetectedInItsClass) {
  HostPeer host(2000, 25);  // a fault every 25 ticks, classes in turn: 80 faults, 10 per class
  const RunResult res = run(host);
  const Injected& in = host.injected();
  const LinkCounters& fw = host.status().link;  // as the firmware reported it over the link
  EXPECT_EQ(host.answers(), host.frames_sent());
  EXPECT_GE(host.statuses(), 2000 / kStatusEvery) << "a status frame every N answers, one on request";
  // The firmware's report and its last status frame agree on every counter.
  EXPECT_EQ(res.link.total_rejected(), fw.total_rejected());
  EXPECT_EQ(res.link.wild, fw.wild);
  EXPECT_EQ(res.report.faults.stale, host.status().faults.stale);
  EXPECT_GT(in[Fault::corrupt], 0);
  expect_counted_in_class(fw, in);
  EXPECT_EQ(fw.implausible, std::uint32_t(in[Fault::bias]));
  // Rejected, repeated, late and implausible frames are stale ticks for the runtime (sample held).
  EXPECT_EQ(res.report.faults.stale,
            std::uint32_t(in[Fault::corrupt] + in[Fault::nan] + in[Fault::out_of_range] + in[Fault::duplicate] +
                          in[Fault::reorder] + in[Fault::delayed] + in[Fault::bias]));
  EXPECT_EQ(res.report.mode, rt::Mode::running) << to_string(res.report.reason);
  EXPECT_GT(host.min_gamma3(), 0.95);
}

TEST(LinkLockstep, FramesAreTheOnlyClock) {
  HostPeer a(500, 25), b(500, 25);
  (void)run(a);
  (void)run(b);
  EXPECT_EQ(a.log(), b.log());
  EXPECT_EQ(a.log().size(), 2u * std::size_t(a.answers() - 2));
}

TEST(LinkLockstep, SphericalRobotOnTheSameLinkStaysUprightUnderEveryFault) {
  RobotPeer host(2000, 25);  // 2 s of run C1, a fault every 25 ticks, classes in turn
  const RunResult res = run(host);
  const Injected& in = host.injected();
  const LinkCounters& fw = host.status().link;
  EXPECT_EQ(host.answers(), host.frames_sent());
  expect_counted_in_class(fw, in);
  EXPECT_EQ(fw.implausible, std::uint32_t(in[Fault::bias])) << "the robot's wire checks |Γ| = 1 too";
  EXPECT_EQ(res.report.mode, rt::Mode::running) << to_string(res.report.reason);
  EXPECT_GT(host.min_gamma3(), std::cos(0.12)) << "spherical-robot.md: tilt < 0.12 rad";
  EXPECT_NE(host.last().torque[1], 0.0) << "both rotors act through the link";
  EXPECT_EQ(host.last().torque[2], 0.0) << "the robot has two rotors";
}

TEST(LinkLockstep, HelloAfterACutFrameStartsAFreshRun) {
  // The cut hello is a rejected frame, answered as a tick with no sample (the hold-off: zero
  // command, no estimate, no envelope trip); the hello that follows starts a new run: runtime
  // and controller restart, nothing carried over, but the report covers the power-on run.
  HostPeer host(500, 0, true);
  const RunResult res = run(host);
  EXPECT_EQ(host.answers(), host.frames_sent());
  EXPECT_EQ(res.report.steps, 501u) << "the report covers every hello's run: the cut frame's tick too";
  EXPECT_EQ(res.report.mode, rt::Mode::running) << to_string(res.report.reason);
  EXPECT_EQ(res.report.faults.stale, 1u);
  EXPECT_EQ(res.link.total_rejected(), 0u) << "hello restarts the link's per-run counters";
  EXPECT_GT(host.min_gamma3(), 0.95);
}

// The firmware's report covers the power-on run: every count adds up over the runs; a run that
// tripped before a hello keeps the power-on report safe, with its reason and tick; the cost
// statistics, budget and stack are the latest run's.
TEST(LinkLockstep, APowerOnReportAddsEveryCountAndKeepsTheFirstTrip) {
  rt::Report first, second;  // every field a different number
  first.ticks = 10;
  first.steps = 9;
  first.missed_ticks = 1;
  first.overruns = 2;
  first.faults = rt::FaultCounts{3, 4, 5, 6, 7, 8};
  first.mode = rt::Mode::safe;
  first.reason = Error::envelope;
  first.trip_tick = 7;
  first.budget = 111;
  first.stack_used = 222;
  second.ticks = 100;
  second.steps = 99;
  second.missed_ticks = 20;
  second.overruns = 30;
  second.faults = rt::FaultCounts{40, 50, 60, 70, 80, 90};
  second.budget = 333;
  second.stack_used = 444;
  second.cost.add(55);
  const rt::Report r = link::detail::after(first, second);
  EXPECT_EQ(r.ticks, 110u);
  EXPECT_EQ(r.steps, 108u);
  EXPECT_EQ(r.missed_ticks, 21u);
  EXPECT_EQ(r.overruns, 32u);
  EXPECT_EQ(r.faults.non_finite, 43u);
  EXPECT_EQ(r.faults.out_of_range, 54u);
  EXPECT_EQ(r.faults.stale, 65u);
  EXPECT_EQ(r.faults.overrun, 76u);
  EXPECT_EQ(r.faults.envelope, 87u);
  EXPECT_EQ(r.faults.saturated, 98u);
  EXPECT_EQ(r.mode, rt::Mode::safe);
  EXPECT_EQ(r.reason, Error::envelope);
  EXPECT_EQ(r.trip_tick, 7u);
  EXPECT_EQ(r.budget, 333u);
  EXPECT_EQ(r.stack_used, 444u);
  EXPECT_EQ(r.cost.count(), 1u);
  EXPECT_EQ(r.cost.max(), 55u);

  // A later run's trip: its reason, its tick counted from power-on.
  second.mode = rt::Mode::safe;
  second.reason = Error::stale;
  second.trip_tick = 5;
  rt::Report quiet;
  quiet.ticks = 10;
  const rt::Report later = link::detail::after(quiet, second);
  EXPECT_EQ(later.mode, rt::Mode::safe);
  EXPECT_EQ(later.reason, Error::stale);
  EXPECT_EQ(later.trip_tick, 15u) << "a later run's trip tick counted from power-on";
  // No trip anywhere: running, no reason, no trip tick moved by the earlier runs' ticks.
  second.mode = rt::Mode::running;
  second.reason = Error::none;
  second.trip_tick = 0;
  const rt::Report clean = link::detail::after(quiet, second);
  EXPECT_EQ(clean.mode, rt::Mode::running);
  EXPECT_EQ(clean.reason, Error::none);
  EXPECT_EQ(clean.trip_tick, 0u);
}
