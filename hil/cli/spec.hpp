// SPDX-License-Identifier: Apache-2.0
// One command's options, declared once (name, unit, default, physical range, help) and parsed
// once: CLI11 reads the command line, read_config() the key=value file with the same rules, and
// Args hands the system validated values. Every failure throws Failure with an exit code of
// exit_codes.hpp and a message that names the option. Host-only.
#pragma once

#include <CLI/CLI.hpp>
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

#include "attractor/version.hpp"
#include "exit_codes.hpp"
#include "numbers.hpp"

namespace attractor::cli {

enum class Kind { number, list, choice, flag, text };

struct OptionSpec {
  std::string name;  // without "--"
  Kind kind = Kind::number;
  std::string unit, help, group;
  double def = 0;  // numbers: default (when has_default)
  bool has_default = true;
  std::string def_text;  // help text for defaults that depend on the mode
  Range range;
  int n = 1;  // lists: element count
  std::vector<std::string> choices;
};

// A command's option table. Groups print in order of first use in --help.
class Spec {
 public:
  Spec(std::string command, std::string usage_line, std::string about)
      : command_(std::move(command)), usage_(std::move(usage_line)), about_(std::move(about)) {}

  Spec& group(std::string g) {
    group_ = std::move(g);
    return *this;
  }
  Spec& number(const std::string& name, const std::string& unit, double def, Range r, const std::string& help) {
    OptionSpec o;
    o.name = name, o.kind = Kind::number, o.unit = unit, o.def = def, o.range = r, o.help = help;
    return add(o);
  }
  // A number whose default depends on the mode (def_text says how); the command supplies it.
  Spec& number_mode(const std::string& name, const std::string& unit, const std::string& def_text, Range r,
                    const std::string& help) {
    OptionSpec o;
    o.name = name, o.kind = Kind::number, o.unit = unit, o.has_default = false, o.def_text = def_text;
    o.range = r, o.help = help;
    return add(o);
  }
  Spec& list(const std::string& name, int n, const std::string& meta, const std::string& help) {
    OptionSpec o;
    o.name = name, o.kind = Kind::list, o.n = n, o.unit = meta, o.help = help, o.has_default = false;
    return add(o);
  }
  Spec& choice(const std::string& name, std::vector<std::string> choices, const std::string& def,
               const std::string& help) {
    OptionSpec o;
    o.name = name, o.kind = Kind::choice, o.choices = std::move(choices), o.def_text = def, o.help = help;
    return add(o);
  }
  Spec& flag(const std::string& name, const std::string& help) {
    OptionSpec o;
    o.name = name, o.kind = Kind::flag, o.help = help;
    return add(o);
  }
  Spec& text(const std::string& name, const std::string& meta, const std::string& help) {
    OptionSpec o;
    o.name = name, o.kind = Kind::text, o.unit = meta, o.help = help, o.has_default = false;
    return add(o);
  }
  Spec& notes(std::string n) {
    notes_ += n;
    return *this;
  }

  const std::string& command() const { return command_; }
  const std::vector<OptionSpec>& options() const { return opts_; }
  const OptionSpec* find(const std::string& name) const {
    for (const auto& o : opts_)
      if (o.name == name) return &o;
    return nullptr;
  }

  std::string help() const {
    std::string s = usage_ + "\n" + about_ + "\n";
    std::string g = "\x01";
    for (const auto& o : opts_) {
      if (o.group != g) {
        g = o.group;
        s += "\n" + g + ":\n";
      }
      std::string left = "  --" + o.name;
      if (o.kind == Kind::number) left += " " + (o.unit.empty() ? std::string("X") : "[" + o.unit + "]");
      if (o.kind == Kind::list || o.kind == Kind::text) left += " " + o.unit;
      if (o.kind == Kind::choice) {
        left += " ";
        for (std::size_t i = 0; i < o.choices.size(); ++i) left += (i ? "|" : "") + o.choices[i];
      }
      std::string right = o.help;
      if (o.kind == Kind::number) {
        right += " (" + (o.has_default ? "default " + exact(o.def) : o.def_text);
        right += "; " + o.range.describe(o.name) + ")";
      } else if (o.kind == Kind::choice) {
        right += " (default " + o.def_text + ")";
      }
      if (left.size() < 26)
        s += left + std::string(26 - left.size(), ' ') + right + "\n";
      else
        s += left + "\n" + std::string(26, ' ') + right + "\n";
    }
    s += "\n" + notes_;
    s += "values: --name VALUE or --name=VALUE; a VALUE starting with '--' is taken as the next option\n"
         "(a missing value, exit 2), so give such a value as --name=VALUE. An empty value is an error.\n"
         "Flags: --name alone is true; --name=V and name=V (config) take V in true|false|1|0|yes|no|\n"
         "on|off (empty is none of them).\n"
         "config file (--config FILE, a regular file): one key=value per line with the option names\n"
         "without '--'; blank lines and lines starting with '#' are skipped. The rules are the command\n"
         "line's: a line without '=', an unknown key, a key given twice or a bad value is an error\n"
         "(the message names the line number and the key, never the line's text). An option on the\n"
         "command line overrides the file's line. Repeating an option on the command line is an\n"
         "error. At most 1 MiB is read. An option naming the config file itself is an error.\n\n";
    s += kExitCodeTable;
    return s;
  }

 private:
  Spec& add(OptionSpec o) {
    o.group = group_;
    opts_.push_back(std::move(o));
    return *this;
  }
  std::string command_, usage_, about_, notes_, group_ = "options";
  std::vector<OptionSpec> opts_;
};

// Flag values on the command line (--json=0) and in the config file (json=0) mean the same.
inline bool parse_bool(const std::string& option, const std::string& v) {
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  throw Failure(exit_usage, "--" + option + ": '" + v + "' is not a boolean (true|false|1|0|yes|no|on|off)");
}

// An empty value is no value: a usage error for every kind, on the command line and in the config.
inline Failure empty_value(const std::string& name) {
  return Failure(exit_usage, "--" + name + ": '' is an empty value (a value is needed)");
}

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

 private:
  const OptionSpec& spec(const std::string& name, Kind k) const {
    const OptionSpec* o = spec_->find(name);
    if (o == nullptr || o->kind != k) throw std::logic_error("option --" + name + " not declared as used");
    return *o;
  }
  // A bad value as the message shows it: quoted from the command line; from a config file only
  // its line ("--config FILE line N"), never the text (the file may not be a config at all).
  std::string shown(const std::string& name) const {
    const std::string src = source(name);
    return src.rfind("--config", 0) == 0 ? "the value on " + src : "'" + raw(name) + "'";
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

// Config text -> Args, for keys not already given on the command line. `origin` names the file
// in messages. Same rules as the command line (see Spec::help).
inline void parse_config_text(const Spec& spec, const std::string& data, const std::string& origin, Args& args,
                              const std::map<std::string, bool>& from_command_line) {
  std::map<std::string, int> seen;
  std::size_t pos = 0;
  int lineno = 0;
  auto trim = [](const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  while (pos <= data.size()) {
    std::size_t nl = data.find('\n', pos);
    if (nl == std::string::npos) nl = data.size();
    const std::string line = trim(data.substr(pos, nl - pos));
    pos = nl + 1;
    ++lineno;
    const std::string where = "--config " + origin + " line " + std::to_string(lineno);
    if (line.empty() || line[0] == '#') continue;
    // The line's text is never quoted (--config /etc/shadow must not print a hash); only a key
    // that is a declared option name is.
    if (line.find('\0') != std::string::npos) throw Failure(exit_usage, where + ": contains a NUL byte");
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw Failure(exit_usage, where + ": expected key=value (no '=' on the line)");
    const std::string k = trim(line.substr(0, eq)), v = trim(line.substr(eq + 1));
    const OptionSpec* o = spec.find(k);
    if (o == nullptr || k == "config") {
      const bool name_like = k.size() <= 40 && k.find_first_not_of(
                                                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                   "0123456789-_") == std::string::npos;
      throw Failure(exit_usage, where + ": unknown key " + (name_like ? "'" + k + "'" : "(not an option name)") +
                                    " (keys are option names without '--')");
    }
    if (seen.count(k)) throw Failure(exit_usage, where + ": key '" + k + "' repeats line " + std::to_string(seen[k]));
    seen[k] = lineno;
    if (o->kind != Kind::flag && v.empty()) throw Failure(exit_usage, where + ": " + empty_value(k).what());
    if (o->kind == Kind::flag) try {
        parse_bool(k, v);
      } catch (const Failure&) {
        throw Failure(exit_usage, where + ": --" + k + ": the value is not a boolean (true|false|1|0|yes|no|on|off)");
      }
    if (!from_command_line.count(k)) args.set(k, v, where);
  }
}

constexpr std::size_t kConfigMaxBytes = 1 << 20;

// key=value file -> Args. Bounded (1 MiB), so /dev/zero or a huge file is an I/O error, not a hang.
inline void read_config(const Spec& spec, const std::string& path, Args& args,
                        const std::map<std::string, bool>& from_command_line) {
  // A FIFO nobody writes would block the open forever, a device never ends: regular files only.
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!path.empty() && !ec && st.type() != std::filesystem::file_type::regular)
    throw Failure(exit_io, "--config: '" + path + "' is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (path.empty() || !in) throw Failure(exit_io, "--config: cannot read '" + path + "'");
  std::string data;
  char buf[4096];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    data.append(buf, std::size_t(in.gcount()));
    if (data.size() > kConfigMaxBytes) throw Failure(exit_io, "--config: '" + path + "' is larger than 1 MiB");
  }
  if (in.bad()) throw Failure(exit_io, "--config: error reading '" + path + "'");
  parse_config_text(spec, data, path, args, from_command_line);
}

// The command line's one rule for values, before CLI11 sees it: "--name VALUE" takes the next
// word only when it is not an option ("--..."), so "--csv --json" is a missing value, never a
// file named --json; "--name=" and "--name ''" are empty values (errors, never the next word); a
// flag's "--name=V" goes through parse_bool like the config file's "name=V". Other empty words
// become `empty` (CLI11 would drop them).
inline std::vector<std::string> words_for_parser(const Spec& spec, int argc, char** argv, const std::string& empty) {
  std::vector<std::string> out;
  for (int i = 1; i < argc; ++i) {
    const std::string w = argv[i];
    if (w.rfind("--", 0) != 0 || w.size() == 2) {
      out.push_back(w.empty() ? empty : w);
      continue;
    }
    const std::size_t eq = w.find('=');
    const std::string name = w.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const OptionSpec* o = spec.find(name);
    if (o == nullptr && name != "config") {
      out.push_back(w);  // CLI11 names the unknown option
      continue;
    }
    const bool is_flag = o != nullptr && o->kind == Kind::flag;
    if (eq != std::string::npos) {
      const std::string v = w.substr(eq + 1);
      if (is_flag) parse_bool(name, v);
      if (v.empty()) throw empty_value(name);
      out.push_back(w);
      continue;
    }
    out.push_back(w);
    if (is_flag) continue;
    if (i + 1 >= argc) throw Failure(exit_usage, "--" + name + " needs a value (try --help)");
    const std::string next = argv[i + 1];
    if (next.rfind("--", 0) == 0)
      throw Failure(exit_usage, "--" + name + " needs a value, got the option '" + next.substr(0, 40) +
                                    "' (a value starting with '--' is given as --" + name + "=VALUE)");
    if (next.empty()) throw empty_value(name);
    out.push_back(next);
    ++i;
  }
  return out;
}

// Output files (text options) may not name the config file just read: a --csv on it would
// overwrite the input.
inline void refuse_output_on_config(const Spec& spec, const Args& args, const std::string& config) {
  for (const auto& o : spec.options()) {
    if (o.kind != Kind::text || !args.given(o.name) || args.raw(o.name).empty()) continue;
    std::error_code ec;
    if (std::filesystem::equivalent(args.raw(o.name), config, ec) && !ec)
      throw Failure(exit_usage, "--" + o.name + " names the config file '" + config + "' (an input)");
  }
}

// Parse argv (argv[0] = command name) against spec. Returns false after printing --help or
// --version (the project version, attractor/version.hpp).
inline bool parse_args(const Spec& spec, int argc, char** argv, Args& args) {
  CLI::App app{"", spec.command()};
  app.set_help_flag();  // help handled below, so that -h anywhere prints help and runs nothing
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(spec.help().c_str(), stdout);
      return false;
    }
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--version") {
      std::printf("%s: Attractor %s\n", spec.command().c_str(), attractor::version);
      return false;
    }
  std::map<std::string, CLI::Option*> opts;
  for (const auto& o : spec.options()) {
    CLI::Option* p = o.kind == Kind::flag ? app.add_flag("--" + o.name) : app.add_option("--" + o.name);
    if (o.kind != Kind::flag) p->multi_option_policy(CLI::MultiOptionPolicy::Throw);
    opts[o.name] = p;
  }
  CLI::Option* config = app.add_option("--config")->multi_option_policy(CLI::MultiOptionPolicy::Throw);
  // CLI11 drops an empty argument; a stray one (not an option's value: words_for_parser refuses
  // those) is carried through as a marker, so that it is CLI11's "not expected" error.
  static const std::string kEmpty = "\x01(empty)";
  std::vector<std::string> words = words_for_parser(spec, argc, argv, kEmpty);
  std::reverse(words.begin(), words.end());  // CLI11 reads a vector from its back
  try {
    app.parse(words);
  } catch (const CLI::ParseError& e) {
    // CLI11's own codes (105-114) map onto the project's table: all are usage errors.
    throw Failure(exit_usage, std::string(e.what()) + " (try --help)");
  }
  std::map<std::string, bool> cmdline;
  for (const auto& kv : opts) {
    if (kv.second->count() == 0) continue;
    if (kv.second->count() > 1) throw Failure(exit_usage, "--" + kv.first + " is given more than once");
    const auto& r = kv.second->results();
    const std::string v = r.empty() ? std::string("true") : r.back() == kEmpty ? std::string() : r.back();
    args.set(kv.first, v, "--" + kv.first);
    cmdline[kv.first] = true;
  }
  if (config->count() > 0) {
    const std::string path = config->results().back();
    read_config(spec, path == kEmpty ? std::string() : path, args, cmdline);
    refuse_output_on_config(spec, args, path);
  }
  return true;
}

}  // namespace attractor::cli
