// SPDX-License-Identifier: Apache-2.0
// The values of one invocation, checked on access against the command's option table
// (option_spec.hpp). Host-only.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "exit_codes.hpp"
#include "numbers.hpp"
#include "option_spec.hpp"

namespace attractor::cli {

// The values of one invocation, as given (text) with their source, checked on access against
// the Spec: num() is finite and in range, list() has exactly n finite numbers, etc.
class Args {
 public:
  explicit Args(const Spec& spec) : spec_(&spec) {}

  bool given(const std::string& name) const { return values_.count(name) != 0; }
  std::string source(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? "default" : it->second.second;
  }
  const std::string& raw(const std::string& name) const { return values_.at(name).first; }

  double num(const std::string& name) const {
    const OptionSpec& o = spec(name, Kind::number);
    if (!given(name)) {
      if (!o.has_default) throw std::logic_error("no default for --" + name);
      return o.def;
    }
    return checked(o, raw(name), shown(name));
  }
  // A whole number >= 0 (a count, a seed): digits are read as an integer, never through a double
  // (so 2^53 + 1 is not rounded into the range); other spellings (1e3) only while a double holds
  // them exactly (below 2^53). Refused: a fraction or a value outside the range (exit 5).
  uint64_t whole(const std::string& name) const {
    const OptionSpec& o = spec(name, Kind::number);
    const std::string text = given(name) ? raw(name) : exact(o.def);
    const bool digits = !text.empty() && text.size() <= 40 && text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) {
      const double v = checked(o, text, given(name) ? shown(name) : "'" + text + "'");
      if (v != std::floor(v)) throw Failure(exit_invalid, "--" + name + " = " + exact(v) + " is not a whole number");
      if (!(v >= 0 && v < 9007199254740992.0))
        throw Failure(exit_invalid, "--" + name + " = " + exact(v) + " is not exact as a double: give it in digits");
      return static_cast<uint64_t>(v);
    }
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    const Range& r = o.range;
    const bool above =
        errno == ERANGE || (std::isfinite(r.hi) && r.hi < 18446744073709551615.0 &&
                            (r.hi_open ? v >= uint64_t(std::ceil(r.hi)) : v > uint64_t(std::floor(r.hi))));
    const bool below = r.lo > 0 && (r.lo_open ? v <= uint64_t(std::floor(r.lo)) : v < uint64_t(std::ceil(r.lo)));
    if (above || below)
      throw Failure(exit_invalid, "--" + name + " = " + text + " is outside its range: need " + r.describe(name));
    return v;
  }
  // Mode-dependent default.
  double num(const std::string& name, double def) const {
    const OptionSpec& o = spec(name, Kind::number);
    return given(name) ? checked(o, raw(name), shown(name)) : def;
  }
  std::vector<double> list(const std::string& name, std::vector<double> def) const {
    const OptionSpec& o = spec(name, Kind::list);
    if (!given(name)) return def;
    std::vector<double> v;
    if (!parse_list(raw(name), o.n, v))
      throw Failure(exit_usage, "--" + name + " needs exactly " + std::to_string(o.n) +
                                    " comma-separated numbers, got " + shown(name));
    for (int i = 0; i < o.n; ++i)
      if (!std::isfinite(v[i]))
        throw Failure(exit_invalid,
                      "--" + name + ": element " + std::to_string(i + 1) + " = " + exact(v[i]) + " is not finite");
    return v;
  }
  std::string choice(const std::string& name) const {
    const OptionSpec& o = spec(name, Kind::choice);
    if (!given(name)) return o.def_text;
    for (const auto& c : o.choices)
      if (c == raw(name)) return c;
    std::string all;
    for (const auto& c : o.choices) all += (all.empty() ? "" : "|") + c;
    throw Failure(exit_usage, "--" + name + ": " + shown(name) + " is not one of " + all);
  }
  bool flag(const std::string& name) const {
    spec(name, Kind::flag);
    return given(name) && parse_bool(name, raw(name));
  }
  std::string text(const std::string& name) const {
    spec(name, Kind::text);
    return given(name) ? raw(name) : std::string();
  }
  // Options that make no sense in the chosen mode are errors, never silently ignored.
  void forbid(const std::string& name, const std::string& why) const {
    if (given(name) && !(spec_->find(name)->kind == Kind::flag && !flag(name)))
      throw Failure(exit_usage, "--" + name + " does not apply " + why);
  }

  const Spec& spec_for_test() const { return *spec_; }
  void set(const std::string& name, const std::string& value, const std::string& source) {
    values_[name] = {value, source};
  }

  // A bad value as the message shows it: quoted from the command line; from a config file or a
  // recording only where it is ("--config FILE line N", "--replay FILE (byte N)"), never the text
  // (the file may not be a config at all).
  std::string shown(const std::string& name) const {
    const std::string src = source(name);
    const bool from_file = src.rfind("--config", 0) == 0 || src.rfind("--replay", 0) == 0;
    return from_file ? "the value on " + src : "'" + raw(name) + "'";
  }

 private:
  const OptionSpec& spec(const std::string& name, Kind k) const {
    const OptionSpec* o = spec_->find(name);
    if (o == nullptr || o->kind != k) throw std::logic_error("option --" + name + " not declared as used");
    return *o;
  }
  static double checked(const OptionSpec& o, const std::string& text, const std::string& shown) {
    double v;
    if (!parse_number(text, v)) throw Failure(exit_usage, "--" + o.name + ": " + shown + " is not a number");
    if (!o.range.contains(v))
      throw Failure(exit_invalid, "--" + o.name + " = " + exact(v) + " is outside its range: need " +
                                      o.range.describe(o.name) + (o.unit.empty() ? "" : " [" + o.unit + "]"));
    return v;
  }
  const Spec* spec_;
  std::map<std::string, std::pair<std::string, std::string>> values_;
};

}  // namespace attractor::cli
