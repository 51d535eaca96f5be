// SPDX-License-Identifier: Apache-2.0
// Test peer for host-tests/link/crosscheck.py: runs the library's HIL wire code on requests read
// from stdin, one per line, and prints one answer line each (hex bytes, lowercase):
//   crc <hex>                                   -> crc32 as 8 hex digits
//   cobs <hex>                                  -> COBS encoding
//   schema                                      -> the wire schema hash, 8 hex digits
//   sensor <seq> <tick> <9 u32 float bits>      -> wire bytes (delimiter included) | error <reason>
//   actuator <seq> <tick> <2 torque bits> <mode> <reason> <verdict> <cost>
//   status <seq> <tick> <6 faults> <7 link> <gaps> <repeated> <late> <implausible> <wild>
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
#include "attractor/link/hello_frame.hpp"
#include "attractor/link/sensor_frame.hpp"
#include "attractor/link/status_frame.hpp"
#include "attractor/link/wire_schema.hpp"

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
  if (cmd == "schema") {
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", kWireSchemaHash);
    return buf;
  }
  if (cmd == "sensor") {
    std::uint32_t seq, tick;
    in >> seq >> tick;
    SensorReading<float> r;
    float* fields[layout::sensor_floats] = {&r.gyro[0],     &r.gyro[1],       &r.gyro[2],
                                            &r.vertical[0], &r.vertical[1],   &r.vertical[2],
                                            &r.velocity[0], &r.rotor_rate[0], &r.rotor_rate[1]};
    for (float* f : fields) {
      std::uint32_t u;
      in >> std::hex >> u >> std::dec;
      *f = bits_to_float(u);
    }
    const LinkError e = encode_sensor_frame(seq, tick, r, wire, sizeof wire, n);
    if (e != LinkError::none) return std::string("error ") + to_string(e);
    return to_hex(wire, n);
  }
  if (cmd == "actuator") {
    std::uint32_t seq, tick, u;
    in >> seq >> tick;
    ActuatorReport<float> a;
    for (int i = 0; i < layout::actuator_torques; ++i) {
      in >> std::hex >> u >> std::dec;
      a.torque[i] = bits_to_float(u);
    }
    unsigned mode, reason, verdict;
    in >> mode >> reason >> verdict >> a.tick_cost;
    a.mode = attractor::rt::Mode(mode);
    a.reason = attractor::Error(reason);
    a.verdict = Verdict(verdict);
    const LinkError e = encode_actuator_frame(seq, tick, a, wire, sizeof wire, n);
    if (e != LinkError::none) return std::string("error ") + to_string(e);
    return to_hex(wire, n);
  }
  if (cmd == "status") {
    std::uint32_t seq, tick;
    in >> seq >> tick;
    StatusReport st;
    std::uint32_t f[6];
    for (auto& x : f) in >> x;
    st.faults = {f[0], f[1], f[2], f[3], f[4], f[5]};
    for (auto& x : st.link.rejected) in >> x;
    in >> st.link.gaps >> st.link.repeated >> st.link.late >> st.link.implausible >> st.link.wild;
    if (encode_status_frame(seq, tick, st, wire, sizeof wire, n) != LinkError::none) return "error";
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
        for (float f : {r.gyro[0], r.gyro[1], r.gyro[2], r.vertical[0], r.vertical[1], r.vertical[2], r.velocity[0],
                        r.rotor_rate[0], r.rotor_rate[1]})
          o << " " << std::hex << float_bits(f) << std::dec;
      }
    } else if (e == LinkError::none && v.header.type == FrameType::actuator) {
      ActuatorReport<float> a;
      e = unpack_actuator(v, a);
      if (e == LinkError::none) {
        o << "ok actuator " << v.header.sequence << " " << v.header.tick;
        for (int i = 0; i < layout::actuator_torques; ++i) o << " " << std::hex << float_bits(a.torque[i]) << std::dec;
        o << " " << unsigned(a.mode) << " " << unsigned(a.reason) << " " << unsigned(a.verdict) << " " << a.tick_cost;
      }
    } else if (e == LinkError::none && v.header.type == FrameType::status) {
      StatusReport st;
      e = unpack_status(v, st);
      if (e == LinkError::none) {
        const attractor::rt::FaultCounts& f = st.faults;
        o << "ok status " << v.header.sequence << " " << v.header.tick << " " << f.non_finite << " " << f.out_of_range
          << " " << f.stale << " " << f.overrun << " " << f.envelope << " " << f.saturated;
        for (auto x : st.link.rejected) o << " " << x;
        o << " " << st.link.gaps << " " << st.link.repeated << " " << st.link.late << " " << st.link.implausible << " "
          << st.link.wild;
      }
    } else if (e == LinkError::none && v.header.type == FrameType::hello) {
      HelloInfo h;
      e = unpack_hello(v, h);
      if (e == LinkError::none) {
        char schema[9];
        std::snprintf(schema, sizeof schema, "%08x", h.schema);
        o << "ok hello " << v.header.sequence << " " << v.header.tick << " " << unsigned(h.plant) << " "
          << h.status_every << " " << schema;
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
        << (t == FrameType::goodbye ? "goodbye"
            : t == FrameType::reset ? "reset"
                                    : "status_request")
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
