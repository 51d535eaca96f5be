// SPDX-License-Identifier: Apache-2.0
// The wire reference (hil/wire-reference, docs/wire.md) against the code's behaviour: what the
// page states as rules and orders — the checks of a received segment, the judgement of a sensor
// frame, the order of the status frame's fault counters, the schema hash's input — is what the
// library does. The layout itself needs no such test: the page prints the library's tables.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "attractor/link/actuator_frame.hpp"
#include "attractor/link/hil_link.hpp"
#include "attractor/link/status_frame.hpp"
#include "attractor/plants/skate_rotor/wire.hpp"
#include "markdown.hpp"
#include "reference.hpp"
#include "rules.hpp"

namespace {

namespace link = attractor::link;
using wire_reference::kCheckOrder;

TEST(WireReference, EveryNameHasAMeaning) {
  const wire_reference::Reference r = wire_reference::build();
  std::string missing;
  for (const auto& m : r.missing) missing += " " + m;
  EXPECT_TRUE(r.missing.empty()) << "add to hil/wire-reference/meanings.hpp:" << missing;
}

// Every row of every table on the page has its header's number of cells (a '|' in a meaning is
// escaped, or it would split the cell).
TEST(WireReference, EveryTableRowHasItsHeadersCells) {
  std::istringstream page(wire_reference::markdown(wire_reference::build()));
  std::string line;
  long header_cells = -1;
  int rows = 0;
  while (std::getline(page, line)) {
    if (line.empty() || line[0] != '|') {
      header_cells = -1;
      continue;
    }
    long cells = 0;
    for (std::size_t i = 0; i < line.size(); ++i) cells += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    if (header_cells < 0) header_cells = cells;
    EXPECT_EQ(cells, header_cells) << line;
    ++rows;
  }
  EXPECT_GT(rows, 100) << "the page's tables";
}

// Every test a rule cites as pinning it is defined in the link suite or here.
TEST(WireReference, EveryCitedTestExists) {
  std::string sources;
  for (const char* f : {"host-tests/unit/link/link_detection_test.cpp", "host-tests/unit/link/link_lockstep_test.cpp",
                        "host-tests/unit/link/link_receiver_test.cpp", "host-tests/unit/link/link_wire_faults_test.cpp",
                        "host-tests/unit/link/link_status_hello_test.cpp", "hil/tests/wire_reference_test.cpp",
                        "hil/tests/hil.cmake"}) {
    std::ifstream in(std::string(ATTRACTOR_SOURCE_DIR) + "/" + f);
    ASSERT_TRUE(in) << f;
    std::ostringstream s;
    s << in.rdbuf();
    sources += s.str();
  }
  for (const wire_reference::Rule& r : wire_reference::kRules) {
    std::istringstream list(r.pinned_by);
    std::string name;
    while (std::getline(list, name, ',')) {
      name.erase(0, name.find_first_not_of(' '));
      const std::size_t dot = name.find('.');
      ASSERT_NE(dot, std::string::npos) << r.topic << ": '" << name << "' is not Suite.Name";
      const bool ctest = name.compare(0, 4, "hil.") == 0;  // a CTest of hil/tests/hil.cmake
      const std::string def =
          ctest ? "NAME " + name + "\n" : "TEST(" + name.substr(0, dot) + ", " + name.substr(dot + 1) + ")";
      EXPECT_NE(sources.find(def), std::string::npos) << r.topic << " cites " << name << ", which is not defined";
    }
  }
}

// A sensor frame (sequence 1, tick 1) with the named defects, as the bytes of one segment.
std::vector<std::uint8_t> segment_with(const std::vector<std::string>& defects) {
  const auto has = [&defects](const char* k) {
    for (const auto& d : defects)
      if (d == k) return true;
    return false;
  };
  std::vector<std::uint8_t> raw(link::layout::header_size + link::layout::sensor_payload_size);
  raw[link::layout::version] = has("version") ? link::kProtocolVersion + 1 : link::kProtocolVersion;
  raw[link::layout::type] = has("type") ? link::kMaxFrameType + 1 : std::uint8_t(link::FrameType::sensor);
  link::put_u32(raw.data() + link::layout::sequence, 1);
  link::put_u32(raw.data() + link::layout::tick, 1);
  std::uint8_t* p = raw.data() + link::layout::header_size;
  link::put_f32(p + link::layout::sensor_vertical + 8, 1.0f);  // vertical (0, 0, 1)
  if (has("non_finite")) link::put_f32(p + link::layout::sensor_gyro, std::nanf(""));
  if (has("out_of_range")) link::put_f32(p + link::layout::sensor_gyro + 4, 5000.0f);
  if (has("length")) raw.push_back(0x5a);
  const std::uint32_t crc = link::crc32(raw.data(), raw.size()) ^ (has("crc") ? 1u : 0u);
  raw.resize(raw.size() + 4);
  link::put_u32(raw.data() + raw.size() - 4, crc);
  std::vector<std::uint8_t> enc(raw.size() + 1);
  EXPECT_EQ(link::cobs_encode(raw.data(), raw.size(), enc.data(), enc.size()), link::LinkError::none);
  if (has("framing")) enc[0] = 0xFF;  // the first code points past the end
  if (has("size")) enc.resize(link::layout::min_encoded_size - 1);
  return enc;
}

link::LinkError reason_of(const std::vector<std::uint8_t>& seg) {
  link::FrameHeader h;
  link::SensorReading<double> r;
  return link::decode_sensor_frame(seg.data(), seg.size(), h, r);
}

TEST(WireReference, TheChecksRunInTheDocumentedOrder) {
  EXPECT_EQ(reason_of(segment_with({})), link::LinkError::none) << "the frame without defects";
  const std::size_t n = sizeof kCheckOrder / sizeof kCheckOrder[0];
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(reason_of(segment_with({kCheckOrder[i].key})), kCheckOrder[i].reason) << kCheckOrder[i].key << " alone";
    for (std::size_t j = i + 1; j < n; ++j)
      EXPECT_EQ(reason_of(segment_with({kCheckOrder[i].key, kCheckOrder[j].key})), kCheckOrder[i].reason)
          << kCheckOrder[i].key << " and " << kCheckOrder[j].key << ": the earlier check names the reason";
  }
}

// The verdict the firmware's link gives a sensor frame after hello and frames (0, 1), (1, 2).
struct Judged {
  link::Verdict verdict;
  std::uint32_t answer_tick;
};
// The judged frame's values: good, off the unit sphere (implausible), a NaN, beyond the wire range.
enum class Value { good, implausible, nan, beyond_wire_range };
Judged judge(std::uint32_t seq, std::uint32_t tick, Value value) {
  using Link = link::HilLink<double, link::SkateRotorWire<double>>;
  Link l;
  attractor::rt::Supervisor sup;
  std::uint8_t buf[link::layout::max_wire_size];
  std::size_t n = 0;
  const auto feed = [&l, &buf, &n] {
    link::LinkEvent e = link::LinkEvent::none;
    for (std::size_t i = 0; i < n; ++i) e = l.receive(buf[i]);
    return e;
  };
  EXPECT_EQ(link::encode_hello_frame(0, 0, link::HelloInfo{}, buf, sizeof buf, n), link::LinkError::none);
  EXPECT_EQ(feed(), link::LinkEvent::hello);
  link::SensorReading<double> good;
  good.vertical << 0, 0, 1;
  const auto send = [&](std::uint32_t s, std::uint32_t t, const link::SensorReading<double>& r) {
    // pack_sensor writes any value (encode_sensor_frame refuses what the receiver would reject).
    std::uint8_t payload[link::layout::sensor_payload_size];
    link::pack_sensor(r, payload);
    EXPECT_EQ(link::encode_frame(link::FrameHeader{link::FrameType::sensor, s, t}, payload, sizeof payload, buf,
                                 sizeof buf, n),
              link::LinkError::none);
    EXPECT_EQ(feed(), link::LinkEvent::tick);
    n = l.reply(sup, 0, buf, sizeof buf);
    link::FrameHeader h;
    link::ActuatorReport<double> a;
    EXPECT_EQ(link::decode_actuator_frame(buf, n - 1, h, a), link::LinkError::none);
    return Judged{a.verdict, h.tick};
  };
  send(0, 1, good);
  send(1, 2, good);
  link::SensorReading<double> r = good;
  if (value != Value::good) r.vertical << 0, 0, 2;  // every bad value is implausible as well
  if (value == Value::nan) r.gyro[0] = std::numeric_limits<double>::quiet_NaN();
  if (value == Value::beyond_wire_range) r.gyro[0] = 5000;  // the wire's gyro range is 1000 rad/s
  return send(seq, tick, r);
}

TEST(WireReference, TheJudgementOrder) {
  using link::Verdict;
  const Value good = Value::good, off = Value::implausible, nan = Value::nan, beyond = Value::beyond_wire_range;
  EXPECT_EQ(judge(2, 3, good).verdict, Verdict::fresh);
  EXPECT_EQ(judge(2, 3, good).answer_tick, 3u) << "the answer carries the frame's tick";
  EXPECT_EQ(judge(1, 3, good).verdict, Verdict::repeated);
  EXPECT_EQ(judge(2, 2, good).verdict, Verdict::late);
  EXPECT_EQ(judge(2 + 1000, 3, good).verdict, Verdict::wild);
  EXPECT_EQ(judge(2, 3 + 1000, good).verdict, Verdict::wild);
  EXPECT_EQ(judge(2, 3, off).verdict, Verdict::implausible);
  EXPECT_EQ(judge(2, 3, nan).verdict, Verdict::non_finite) << "values before implausible";
  EXPECT_EQ(judge(2, 3, beyond).verdict, Verdict::out_of_range) << "values before implausible";
  EXPECT_EQ(judge(2, 3, nan).answer_tick, 3u) << "a refused value is a tick: its answer names it";
  EXPECT_EQ(judge(1, 2, good).verdict, Verdict::repeated) << "repeated before late";
  EXPECT_EQ(judge(1, 3 + 1000, good).verdict, Verdict::repeated) << "repeated before wild";
  EXPECT_EQ(judge(1, 3, off).verdict, Verdict::repeated) << "repeated before implausible";
  EXPECT_EQ(judge(1, 3, nan).verdict, Verdict::repeated) << "repeated before values";
  EXPECT_EQ(judge(2, 2, off).verdict, Verdict::late) << "late before implausible";
  EXPECT_EQ(judge(2, 2, beyond).verdict, Verdict::late) << "late before values";
  EXPECT_EQ(judge(2 + 1000, 3, off).verdict, Verdict::wild) << "wild before implausible";
  EXPECT_EQ(judge(2 + 1000, 3, nan).verdict, Verdict::wild) << "wild before values";
}

TEST(WireReference, TheStatusFaultCountersAreInTheDocumentedOrder) {
  link::StatusReport s;
  s.faults.non_finite = 101;
  s.faults.out_of_range = 102;
  s.faults.stale = 103;
  s.faults.overrun = 104;
  s.faults.envelope = 105;
  s.faults.saturated = 106;
  const char* expected[] = {"non_finite", "out_of_range", "stale", "overrun", "envelope", "saturated"};
  std::uint8_t p[link::layout::status_payload_size];
  link::pack_status(s, p);
  ASSERT_EQ(sizeof wire_reference::kFaultCounterNames / sizeof(const char*), std::size_t(link::layout::fault_counters));
  for (int i = 0; i < link::layout::fault_counters; ++i) {
    EXPECT_STREQ(wire_reference::kFaultCounterNames[i], expected[i]);
    EXPECT_EQ(link::get_u32(p + link::layout::status_faults + 4 * std::size_t(i)), 101u + std::uint32_t(i))
        << wire_reference::kFaultCounterNames[i];
  }
}

TEST(WireReference, ThePrintedSchemaBytesHashToTheHelloHash) {
  const wire_reference::Reference r = wire_reference::build();
  link::schema_detail::Fnv1a32 fnv;
  for (std::uint8_t b : r.schema_input) fnv(b);
  EXPECT_EQ(fnv.h, link::kWireSchemaHash);
  std::size_t per_field = 1;  // the version byte
  for (const auto& f : r.fields) per_field += f.schema_bytes.size();
  EXPECT_EQ(per_field, r.schema_input.size()) << "the per-field rows add up to the whole input";
}

TEST(WireReference, TheExamplesDecode) {
  const wire_reference::Reference r = wire_reference::build();
  ASSERT_EQ(r.examples.size(), 3u);
  for (const auto& e : r.examples) {
    link::FrameView v;
    ASSERT_EQ(e.wire.back(), 0u) << e.title;
    EXPECT_EQ(link::decode_frame(e.wire.data(), e.wire.size() - 1, v), link::LinkError::none) << e.title;
    EXPECT_EQ(e.raw.size() + 2, e.wire.size()) << e.title;
    EXPECT_EQ(link::crc32(e.raw.data(), e.raw.size() - 4), link::get_u32(e.raw.data() + e.raw.size() - 4)) << e.title;
  }
}

}  // namespace
