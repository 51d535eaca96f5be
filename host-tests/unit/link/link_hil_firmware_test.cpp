// SPDX-License-Identifier: Apache-2.0
// The HIL app's run (link/hil_firmware.hpp: run_hil_firmware) on a scripted host, without QEMU:
// the boot announcement before anything is read, the lockstep until goodbye, the report and the
// line of what the link counted (every class in its own place), the exit code; the host's reset
// request (reboot, no report), a refused configuration, and the alternative byte port.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attractor/link/boot_frame.hpp"
#include "attractor/link/hil_firmware.hpp"
#include "attractor/plants/skate_rotor/controller.hpp"
#include "frame_bytes.hpp"
#include "scripted_lockstep.hpp"
#include "skate_frames.hpp"

using namespace attractor;
using namespace attractor::link;

namespace hil_firmware_test {

namespace script = scripted_lockstep;
using Controller = SkateRotorController<float>;
using Loop = rt::Loop<skate_frames::Link, Controller>;

// The board as run_hil_firmware uses it: console, UART (the script), reference clock, stack.
struct Board : script::Board {
  static inline std::string console;
  static inline int rx_wait_starts = 0, uart_reads = 0, uart_writes = 0;
  static inline std::size_t first_write_unread = 0;  // script bytes not yet read at the first write
  static void write(const char* s) { console += s; }
  static void uart_rx_wait_start() { ++rx_wait_starts; }
  static bool uart_rx_wait_read(std::uint8_t& b) {
    ++uart_reads;
    return script::Port::read(b);
  }
  static void uart_write(const std::uint8_t* d, std::uint32_t n) {
    if (uart_writes++ == 0) first_write_unread = script::in.size();
    script::Port::write(d, n);
  }
  static std::uint32_t reference_now() { return 0u; }
  static std::uint32_t reference_hz() { return 25000000u; }
};

// An alternative port that opened (the semihosting FIFOs): the same script, every byte counted.
struct OpenAlt {
  static inline int reads = 0, writes = 0;
  static bool open() { return true; }
  static bool active() { return true; }
  static bool read(std::uint8_t& b) {
    ++reads;
    return script::Port::read(b);
  }
  static void write(const std::uint8_t* d, std::uint32_t n) {
    ++writes;
    script::Port::write(d, n);
  }
};

// The skate controller as an app makes it (passed as made: run_hil_firmware takes the result).
Result<Controller> make(float dt = 1e-3f) { return Controller::make(SkateRotorControllerConfig<float>{}, dt); }

int reboots = 0;
void reboot() { ++reboots; }

// A fresh script, console and board.
void start() {
  script::clear();
  Board::console.clear();
  Board::rx_wait_starts = Board::uart_reads = Board::uart_writes = 0;
  Board::first_write_unread = 0;
  OpenAlt::reads = OpenAlt::writes = 0;
  reboots = 0;
}

using Bytes = std::vector<std::uint8_t>;
Bytes good(std::uint32_t seq, std::uint32_t tick) { return skate_frames::sensor_wire(seq, tick, 0.05); }
// A skate sensor frame edited on its raw bytes; `fix_crc` recomputes the CRC after the edit.
template <class Edit>
Bytes edited(std::uint32_t seq, std::uint32_t tick, bool fix_crc, Edit edit) {
  const Bytes wire = good(seq, tick);
  Bytes raw = frame_bytes::decode_raw(Bytes(wire.begin(), wire.end() - 1));
  edit(raw);
  Bytes out = frame_bytes::encode_raw(raw, fix_crc);
  out.push_back(0x00);
  return out;
}
Bytes with_value(std::uint32_t seq, std::uint32_t tick, float v) {  // Γ1 := v, CRC valid
  return edited(seq, tick, true, [v](Bytes& raw) { put_f32(raw.data() + layout::header_size + 4 * 3, v); });
}

// The shortest whole run: hello, one good sensor frame, goodbye. Returns the bytes queued.
std::size_t queue_one_tick_run() {
  script::send(skate_frames::control_wire(FrameType::hello));
  script::send(good(0, 1));
  script::send(skate_frames::control_wire(FrameType::goodbye));
  return script::in.size();
}

// The types of the frames the firmware wrote, in order.
std::vector<FrameType> types() {
  std::vector<FrameType> t;
  for (const FrameView& v : script::out) t.push_back(v.header.type);
  return t;
}

}  // namespace hil_firmware_test

// Every class of what the link counts, each a different number of times (1 to 10), between good
// frames so that the run never trips: the firmware's last line prints each count in its place,
// summed over both hellos' runs.
TEST(HilFirmware, PrintsEveryCountInItsPlaceAndExitsZeroWhenStillRunning) {
  namespace t = hil_firmware_test;
  t::start();
  std::uint32_t seq = 0, tick = 1;
  auto send_good = [&] { t::script::send(t::good(seq++, tick++)); };
  t::script::send(skate_frames::control_wire(FrameType::hello));
  send_good();
  auto times = [&](int n, auto bad) {
    for (int i = 0; i < n; ++i) {
      bad();
      send_good();
    }
  };
  // bad_length 1: a sensor frame one payload byte short (CRC valid).
  times(1, [&] { t::script::send(t::edited(seq++, tick++, true, [](t::Bytes& raw) { raw.erase(raw.end() - 5); })); });
  // bad_framing 2: a sensor frame whose first COBS block claims more bytes than the frame has.
  times(2, [&] {
    t::Bytes w = t::good(seq++, tick++);
    w[0] = 0xFF;
    t::script::send(w);
  });
  // bad_crc 3: a payload bit flipped, the CRC left.
  times(3, [&] { t::script::send(t::edited(seq++, tick++, false, [](t::Bytes& raw) { raw[12] ^= 0x40; })); });
  // non_finite 4, out_of_range 5.
  times(4, [&] { t::script::send(t::with_value(seq++, tick++, std::numeric_limits<float>::quiet_NaN())); });
  // A second hello: a new run whose counts the line adds to the first run's.
  t::script::send(skate_frames::control_wire(FrameType::hello));
  send_good();
  times(5, [&] { t::script::send(t::with_value(seq++, tick++, 1e30f)); });
  // gaps 6: three frames skipped, twice.
  times(2, [&] { seq += 3; });
  // repeated 7: the last frame's sequence number again.
  times(7, [&] { t::script::send(t::good(seq - 1, tick++)); });
  // late 8: a new sequence number with the newest sample's tick.
  times(8, [&] { t::script::send(t::good(seq++, tick - 1)); });
  // implausible 9: |Γ| = 1.3.
  times(9, [&] { t::script::send(skate_frames::sensor_wire(seq++, tick++, 0.05, 1.3)); });
  // wild 10: a tick index far outside the window (each alone: two in a row would re-baseline).
  times(10, [&] { t::script::send(t::good(seq++, tick + 100000u)); });
  // bad_version 11: version byte 3 (CRC valid); bad_type 12: type 0 (CRC valid).
  times(11, [&] { t::script::send(t::edited(seq++, tick++, true, [](t::Bytes& raw) { raw[layout::version] = 3; })); });
  times(12, [&] { t::script::send(t::edited(seq++, tick++, true, [](t::Bytes& raw) { raw[layout::type] = 0; })); });
  t::script::send(skate_frames::control_wire(FrameType::goodbye));

  auto ctrl = t::Controller::make(SkateRotorControllerConfig<float>{}, 1e-3f);
  ASSERT_TRUE(ctrl.ok());
  t::Loop loop(skate_frames::Link{}, *ctrl);
  const int code = run_hil_firmware<t::Board>("skate-hil", loop, 1000u, rt::BootInfo{}, &t::reboot);
  EXPECT_EQ(code, 0) << t::Board::console;
  EXPECT_EQ(t::Board::rx_wait_starts, 1);
  EXPECT_EQ(t::reboots, 0);
  const LinkCounters c = loop.source().power_on_counters();
  EXPECT_EQ(c.rejected_by(LinkError::bad_length), 1u);
  EXPECT_EQ(c.gaps, 6u);
  EXPECT_NE(t::Board::console.find("skate-hil: waiting for the host"), std::string::npos) << t::Board::console;
  EXPECT_NE(t::Board::console.find("rt: mode running, reason none"), std::string::npos) << t::Board::console;
  EXPECT_NE(t::Board::console.find("skate-hil: link rejected 38 (bad_length 1 bad_framing 2 bad_crc 3 bad_version 11 "
                                   "bad_type 12 non_finite 4 out_of_range 5) gaps 6 repeated 7 late 8 implausible 9 "
                                   "wild 10; boot 0 "
                                   "(power_on)\n"),
            std::string::npos)
      << t::Board::console;
}

// Every boot is announced first, before the firmware reads a byte, with the boot record's count
// and reason; the last line repeats them.
TEST(HilFirmware, AnnouncesTheBootBeforeReadingAndNamesItLast) {
  namespace t = hil_firmware_test;
  t::start();
  const std::size_t script_size = t::queue_one_tick_run();
  const rt::BootInfo boot{3u, rt::BootReason::host_request};
  const int code = run_hil_firmware<t::Board, skate_frames::Link>("skate-hil", t::make(), 1000u, boot, &t::reboot);
  EXPECT_EQ(code, 0) << t::Board::console;
  ASSERT_EQ(t::types(),
            (std::vector<FrameType>{FrameType::boot, FrameType::hello, FrameType::actuator, FrameType::goodbye}));
  rt::BootInfo b;
  ASSERT_EQ(unpack_boot(t::script::out[0], b), LinkError::none);
  EXPECT_EQ(b.resets, 3u);
  EXPECT_EQ(b.reason, rt::BootReason::host_request);
  EXPECT_EQ(t::Board::first_write_unread, script_size) << "announced before the first byte was read";
  EXPECT_NE(t::Board::console.find("wild 0; boot 3 (host_request)\n"), std::string::npos) << t::Board::console;
}

// The host's reset frame: the run ends unanswered, the app reboots, nothing is printed after.
TEST(HilFirmware, AResetFrameRebootsWithoutAReport) {
  namespace t = hil_firmware_test;
  t::start();
  t::script::send(skate_frames::control_wire(FrameType::hello));
  t::script::send(t::good(0, 1));
  t::script::send(skate_frames::control_wire(FrameType::reset));
  t::script::send(skate_frames::control_wire(FrameType::goodbye));
  const int code =
      run_hil_firmware<t::Board, skate_frames::Link>("skate-hil", t::make(), 1000u, rt::BootInfo{}, &t::reboot);
  EXPECT_EQ(t::reboots, 1);
  EXPECT_EQ(code, 1) << "reboot() returns only off a board";
  EXPECT_EQ(t::Board::console.find("rt:"), std::string::npos) << t::Board::console;
  EXPECT_EQ(t::Board::console.find("link rejected"), std::string::npos) << t::Board::console;
  EXPECT_EQ(t::types().back(), FrameType::actuator) << "the reset is not answered";
}

// A run whose controller left running mode exits 1: the held implausible samples trip it.
TEST(HilFirmware, ExitsOneWhenTheRunTripped) {
  namespace t = hil_firmware_test;
  t::start();
  t::script::send(skate_frames::control_wire(FrameType::hello));
  t::script::send(t::good(0, 1));
  for (std::uint32_t i = 1; i <= 20; ++i) t::script::send(skate_frames::sensor_wire(i, i + 1, 0.05, 1.3));
  t::script::send(skate_frames::control_wire(FrameType::goodbye));
  const int code =
      run_hil_firmware<t::Board, skate_frames::Link>("skate-hil", t::make(), 1000u, rt::BootInfo{}, &t::reboot);
  EXPECT_EQ(code, 1) << t::Board::console;
  EXPECT_NE(t::Board::console.find("rt: mode safe, reason stale"), std::string::npos) << t::Board::console;
  EXPECT_NE(t::Board::console.find("implausible 20 wild 0"), std::string::npos) << t::Board::console;
}

// A configuration the controller refuses: printed, exit 2, the link never opened.
TEST(HilFirmware, ARefusedConfigurationExitsTwoWithoutTouchingTheLink) {
  namespace t = hil_firmware_test;
  t::start();
  t::script::send(skate_frames::control_wire(FrameType::hello));  // queued, never read
  t::script::send(skate_frames::control_wire(FrameType::goodbye));
  const std::size_t script_size = t::script::in.size();
  const Error why = t::make(-1e-3f).error();
  ASSERT_NE(why, Error::none);
  const int code =
      run_hil_firmware<t::Board, skate_frames::Link>("skate-hil", t::make(-1e-3f), 1000u, rt::BootInfo{}, &t::reboot);
  EXPECT_EQ(code, 2);
  EXPECT_EQ(t::Board::console, std::string("skate-hil: configuration refused: ") + to_string(why) + "\n");
  EXPECT_TRUE(t::script::out.empty());
  EXPECT_EQ(t::script::in.size(), script_size);
  EXPECT_EQ(t::Board::rx_wait_starts, 0);
}

// An alternative port that opened carries the whole link, the UART none of it.
TEST(HilFirmware, AnOpenAlternativePortCarriesTheLink) {
  namespace t = hil_firmware_test;
  t::start();
  const std::size_t script_size = t::queue_one_tick_run();
  const int code = run_hil_firmware<t::Board, skate_frames::Link, t::OpenAlt>("skate-hil", t::make(), 1000u,
                                                                              rt::BootInfo{}, &t::reboot);
  EXPECT_EQ(code, 0) << t::Board::console;
  EXPECT_NE(t::Board::console.find("skate-hil: link on the host's FIFOs (semihosting)\n"), std::string::npos);
  EXPECT_EQ(t::OpenAlt::reads, int(script_size));
  EXPECT_EQ(t::OpenAlt::writes, 4) << "boot; the hello, sensor and goodbye answers";
  EXPECT_EQ(t::Board::uart_reads + t::Board::uart_writes, 0);
  EXPECT_EQ(t::types(),
            (std::vector<FrameType>{FrameType::boot, FrameType::hello, FrameType::actuator, FrameType::goodbye}));
}
