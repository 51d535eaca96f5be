// SPDX-License-Identifier: Apache-2.0
// The reproduced numbers of an attractor-paper report, each checked against the paper (or the
// maths where the paper misprints): a named value, the interval it must lie in, and where the
// expectation comes from. finish() prints them (text: a "checks" block; --json: one object with
// every check) and gives the exit code: 1 (exit_check_failed) when any disagrees. Host-only.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "exit_codes.hpp"
#include "run_support.hpp"

namespace attractor::cli {

class PaperChecks {
 public:
  // value must lie in [lo, hi] (NaN never does).
  void check(const std::string& name, double value, double lo, double hi, const std::string& source) {
    checks_.push_back({name, value, lo, hi, source, value >= lo && value <= hi});
  }
  bool ok() const {
    for (const auto& c : checks_)
      if (!c.ok) return false;
    return true;
  }
  // Prints the checks on `text` (the report's table stream) or, with json, the one JSON object
  // on stdout; `report` names the report, `extra` members (e.g. a report's "rows") follow the
  // checks in that object. Returns exit_ok or exit_check_failed.
  int finish(const char* report, bool json, std::FILE* text, const Json& extra = Json::object()) const {
    if (json) {
      Json j;
      j["report"] = report, j["ok"] = ok();
      j["checks"] = Json::array();
      for (const auto& c : checks_)
        j["checks"].push_back({{"name", c.name},
                               {"value", num(c.value)},
                               {"min", num(c.lo)},
                               {"max", num(c.hi)},
                               {"source", c.source},
                               {"ok", c.ok}});
      for (const auto& [key, value] : extra.items()) j[key] = value;
      print_json(j);
    } else {
      std::fprintf(text, "\nchecks against the paper:\n");
      for (const auto& c : checks_)
        std::fprintf(text, "  %-4s %-58s %.4g in [%.4g, %.4g] (%s)\n", c.ok ? "ok" : "FAIL", c.name.c_str(), c.value,
                     c.lo, c.hi, c.source.c_str());
    }
    if (!ok()) std::fprintf(stderr, "attractor-paper %s: a reproduced number disagrees with the paper\n", report);
    return ok() ? exit_ok : exit_check_failed;
  }

 private:
  struct Check {
    std::string name;
    double value, lo, hi;
    std::string source;
    bool ok;
  };
  std::vector<Check> checks_;
};

// One value of a report's table (fmt " %10.3e") or CSV row (fmt ",%.6e"); NaN, a value the run
// has not got, prints as "-" in the table and as an empty CSV field.
inline void print_value(std::FILE* f, const char* fmt, double v) {
  const bool csv = fmt[0] == ',';
  if (std::isnan(v))
    std::fprintf(f, csv ? "," : " %10s", csv ? "" : "-");
  else
    std::fprintf(f, fmt, v);
}

}  // namespace attractor::cli
