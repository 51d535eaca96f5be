// SPDX-License-Identifier: Apache-2.0
// The runner refuses the wrong firmware on its hello answer (hil/hil-run/firmware_identity.hpp,
// handshake.hpp), without QEMU: the answers are written into one end of a socket pair, the
// runner's Peer reads the other. Another plant, another wire schema hash, an unreadable plant
// code and a frame of another wire format (CRC intact, layout unknown) are each exit 11 with a
// message naming both sides; a corrupt answer is no verdict on the firmware (skipped: silent).
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "attractor/link/crc32.hpp"
#include "attractor/link/hello_frame.hpp"
#include "firmware_identity.hpp"
#include "handshake.hpp"

namespace {

using namespace attractor::link;
using hil_run::Peer;

// The firmware's side of a socket pair: what it "sent" is already waiting when the runner reads.
struct FakeLine {
  int fds[2] = {-1, -1};
  FakeLine() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0); }
  ~FakeLine() { ::close(fds[1]); }
  void firmware_sends(const std::vector<std::uint8_t>& b) {
    EXPECT_EQ(::write(fds[1], b.data(), b.size()), ssize_t(b.size()));
  }
};

std::vector<std::uint8_t> hello_answer(PlantId plant, std::uint32_t schema, std::uint8_t reserved = 0) {
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  EXPECT_EQ(encode_hello_frame(0, 0, HelloInfo{plant, 100, schema}, wire, sizeof wire, n), LinkError::none);
  if (reserved != 0) {  // re-encode with the reserved byte set (CRC valid)
    std::uint8_t raw[layout::max_raw_size];
    EXPECT_EQ(cobs_decode(wire, n - 1, raw, sizeof raw), LinkError::none);
    const std::size_t raw_size = n - 2;
    raw[layout::header_size + layout::hello_reserved] = reserved;
    put_u32(raw + raw_size - 4, crc32(raw, raw_size - 4));
    EXPECT_EQ(cobs_encode(raw, raw_size, wire, sizeof wire), LinkError::none);
  }
  return std::vector<std::uint8_t>(wire, wire + n);
}

// Runs the start handshake against what the fake firmware sent; the exit code it threw (0: none,
// -1: returned false, i.e. silent). The answer is in the line before the handshake starts, so the
// default deadline is only a deadlock guard; a test of a silent line passes a short one, and a
// deadline that passes before the first attempt can only make that test's -1 come sooner.
int handshake_code(const std::vector<std::uint8_t>& sent, PlantId plant, std::string& message,
                   int deadline_ms = 60000) {
  FakeLine line;
  line.firmware_sends(sent);
  Peer peer(line.fds[0], line.fds[0], 1.0);
  hil_run::BootSeen boot;
  const HelloInfo mine{plant, 100, kWireSchemaHash};
  try {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(deadline_ms);
    return hil_run::handshake(peer, 0, deadline, boot, mine) ? 0 : -1;
  } catch (const attractor::cli::Failure& f) {
    message = f.what();
    return f.code;
  }
}

TEST(FirmwareIdentity, TheRightFirmwareIsAccepted) {
  std::string m;
  EXPECT_EQ(handshake_code(hello_answer(PlantId::skate_rotor, kWireSchemaHash), PlantId::skate_rotor, m), 0) << m;
  EXPECT_NO_THROW(
      hil_run::check_hello(HelloInfo{PlantId::spherical_robot, 0, kWireSchemaHash}, PlantId::spherical_robot));
}

TEST(FirmwareIdentity, AnotherPlantIsExit10) {
  std::string m;
  EXPECT_EQ(handshake_code(hello_answer(PlantId::spherical_robot, kWireSchemaHash), PlantId::skate_rotor, m),
            attractor::cli::exit_hil_firmware);
  EXPECT_NE(m.find("controls the spherical-robot plant"), std::string::npos) << m;
  EXPECT_NE(m.find("--plant is skate"), std::string::npos) << m;
}

TEST(FirmwareIdentity, AnotherSchemaHashIsExit10) {
  std::string m;
  EXPECT_EQ(handshake_code(hello_answer(PlantId::skate_rotor, kWireSchemaHash ^ 0x10u), PlantId::skate_rotor, m),
            attractor::cli::exit_hil_firmware);
  EXPECT_NE(m.find("wire schema hash is " + hil_run::hex32(kWireSchemaHash ^ 0x10u)), std::string::npos) << m;
  EXPECT_NE(m.find(hil_run::hex32(kWireSchemaHash)), std::string::npos) << m;
}

TEST(FirmwareIdentity, AnUnreadableHelloAnswerIsExit10) {
  std::string m;
  EXPECT_EQ(handshake_code(hello_answer(PlantId::skate_rotor, kWireSchemaHash, 7), PlantId::skate_rotor, m),
            attractor::cli::exit_hil_firmware);
  EXPECT_NE(m.find("reserved byte 7"), std::string::npos) << m;
}

// A frame of another wire format: an older layout's empty hello answer (16-byte header with
// version byte 3, type 3, payload size 0, sequence u32, tick u64), CRC valid: bad_version here
// (this build speaks version 4; the length is checked after the version).
TEST(FirmwareIdentity, AFrameOfAnotherWireFormatIsExit10) {
  std::uint8_t raw[20] = {3, 3, 0, 0};
  put_u32(raw + 16, crc32(raw, 16));
  std::uint8_t enc[21];
  ASSERT_EQ(cobs_encode(raw, sizeof raw, enc, sizeof enc), LinkError::none);
  std::vector<std::uint8_t> sent(enc, enc + sizeof enc);
  sent.push_back(0);
  std::string m;
  EXPECT_EQ(handshake_code(sent, PlantId::skate_rotor, m), attractor::cli::exit_hil_firmware);
  EXPECT_NE(m.find("another wire format (bad_version, version byte 3"), std::string::npos) << m;
}

// A hello answer damaged on the line says nothing about the firmware: skipped, not refused.
TEST(FirmwareIdentity, ACorruptHelloAnswerIsNoVerdict) {
  std::vector<std::uint8_t> sent = hello_answer(PlantId::spherical_robot, kWireSchemaHash);
  sent[sent.size() / 2] ^= 0x01;
  std::string m;
  EXPECT_EQ(handshake_code(sent, PlantId::skate_rotor, m, 300), -1) << m;
}

}  // namespace
