// SPDX-License-Identifier: Apache-2.0
// Test peer for host-tests/link/crosscheck.py: runs the library's HIL wire code on requests read
// from stdin, one per line, and prints one answer line each (hex bytes, lowercase):
//   crc <hex>                                   -> crc32 as 8 hex digits
//   cobs <hex>                                  -> COBS encoding
//   sensor <seq> <tick> <12 u32 float bits>     -> wire bytes (delimiter included) | error <reason>
//   actuator <seq> <tick> <3 torque bits> <mode> <reason> <6 faults> <7 link> <gaps> <repeated> <cost>
//            <late> <implausible>
//   decode <hex>                                -> ok <type> <seq> <tick> <payload fields> | reject <reason>
// The Python side computes the same with zlib, binascii, struct and its own COBS.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/boot_frame.hpp"
#include "attractor/link/sensor_frame.hpp"

using namespace attractor::link;

namespace {

std::vector<std::uint8_t> from_hex(const std::string& h) {
  std::vector<std::uint8_t> b;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2) b.push_back(std::uint8_t(std::stoul(h.substr(i, 2), nullptr, 16)));
  return b;
}

std::string to_hex(const std::uint8_t* p, std::size_t n) {
  std::string s;
  char buf[3];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", p[i]);
    s += buf;
  }
  return s;
}

float bits_to_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

std::string answer(const std::string& line) {
  std::istringstream in(line);
  std::string cmd;
  in >> cmd;
  std::uint8_t wire[layout::max_wire_size];
  std::size_t n = 0;
  if (cmd == "crc") {
    std::string h;
    in >> h;
    const auto b = from_hex(h);
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", crc32(b.data(), b.size()));
    return buf;
  }
  if (cmd == "cobs") {
    std::string h;
    in >> h;
    const auto b = from_hex(h);
    std::vector<std::uint8_t> out(b.size() + 1);
    if (cobs_encode(b.data(), b.size(), out.data(), out.size()) != LinkError::none) return "error";
    return to_hex(out.data(), out.size());
  }
  if (cmd == "sensor") {
    std::uint32_t seq;
    std::uint64_t tick;
    in >> seq >> tick;
    SensorReading<float> r;
    attractor::Vec3<float>* fields[4] = {&r.gyro, &r.vertical, &r.velocity, &r.rotor_rate};
    for (auto* f : fields) {
      for (int i = 0; i < 3; ++i) {
        std::uint32_t u;
        in >> std::hex >> u >> std::dec;
        (*f)[i] = bits_to_float(u);
      }
    }
    const LinkError e = encode_sensor_frame(seq, tick, r, wire, sizeof wire, n);
    if (e != LinkError::none) return std::string("error ") + to_string(e);
    return to_hex(wire, n);
  }
  if (cmd == "actuator") {
    std::uint32_t seq, u;
    std::uint64_t tick;
    in >> seq >> tick;
    ActuatorReport<float> a;
    for (int i = 0; i < 3; ++i) {
      in >> std::hex >> u >> std::dec;
      a.torque[i] = bits_to_float(u);
    }
    unsigned mode, reason;
    in >> mode >> reason;
    a.mode = attractor::rt::Mode(mode);
    a.reason = attractor::Error(reason);
    std::uint32_t f[6];
    for (auto& x : f) in >> x;
    a.faults = {f[0], f[1], f[2], f[3], f[4], f[5]};
    for (auto& x : a.link.rejected) in >> x;
    in >> a.link.gaps >> a.link.repeated >> a.tick_cost >> a.link.late >> a.link.implausible;
    const LinkError e = encode_actuator_frame(seq, tick, a, wire, sizeof wire, n);
    if (e != LinkError::none) return std::string("error ") + to_string(e);
    return to_hex(wire, n);
  }
  if (cmd == "decode") {
    std::string h;
    in >> h;
    const auto b = from_hex(h);
    FrameView v;
    LinkError e = decode_frame(b.data(), b.size(), v);
    std::ostringstream o;
    if (e == LinkError::none && v.header.type == FrameType::sensor) {
      SensorReading<float> r;
      e = unpack_sensor(v, r);
      if (e == LinkError::none) {
        o << "ok sensor " << v.header.sequence << " " << v.header.tick;
        for (const attractor::Vec3<float>* f : {&r.gyro, &r.vertical, &r.velocity, &r.rotor_rate}) {
          for (int i = 0; i < 3; ++i) o << " " << std::hex << float_bits((*f)[i]) << std::dec;
        }
      }
    } else if (e == LinkError::none && v.header.type == FrameType::actuator) {
      ActuatorReport<float> a;
      e = unpack_actuator(v, a);
      if (e == LinkError::none) {
        o << "ok actuator " << v.header.sequence << " " << v.header.tick;
        for (int i = 0; i < 3; ++i) o << " " << std::hex << float_bits(a.torque[i]) << std::dec;
        o << " " << unsigned(a.mode) << " " << unsigned(a.reason) << " " << a.faults.non_finite << " "
          << a.faults.out_of_range << " " << a.faults.stale << " " << a.faults.overrun << " " << a.faults.envelope
          << " " << a.faults.saturated;
        for (auto x : a.link.rejected) o << " " << x;
        o << " " << a.link.gaps << " " << a.link.repeated << " " << a.tick_cost << " " << a.link.late << " "
          << a.link.implausible;
      }
    } else if (e == LinkError::none && v.header.type == FrameType::boot) {
      attractor::rt::BootInfo b;
      e = unpack_boot(v, b);
      if (e == LinkError::none) {
        o << "ok boot " << v.header.sequence << " " << v.header.tick << " " << b.resets << " " << unsigned(b.reason);
      }
    } else if (e == LinkError::none) {
      const FrameType t = v.header.type;
      o << "ok "
        << (t == FrameType::hello     ? "hello"
            : t == FrameType::goodbye ? "goodbye"
                                      : "reset")
        << " " << v.header.sequence << " " << v.header.tick;
    }
    if (e != LinkError::none) return std::string("reject ") + to_string(e);
    return o.str();
  }
  return "unknown request";
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) std::cout << answer(line) << "\n";
  return 0;
}
