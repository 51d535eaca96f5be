// SPDX-License-Identifier: Apache-2.0
// A command's option table (name, unit, default, physical range, help; --help text) and the
// value rules the command line and the config file share (flags, empty values). Host-only.
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

namespace attractor::cli {

enum class Kind { number, list, choice, flag, text };
// What a text option's value names: a plain value, or a file read, a file written, a program run.
// Only the command line may name files and programs: a config file or a recording is data
// (config_file.hpp), and outputs are compared with inputs before anything is written (file_roles.hpp).
enum class Names { value, input, output, program };

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
  Names names = Names::value;  // text options only
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
  // A text option that names a file read, a file (or folder) written, or a program run.
  Spec& input(const std::string& name, const std::string& meta, const std::string& help) {
    return text(name, meta, help).last_names(Names::input);
  }
  Spec& output(const std::string& name, const std::string& meta, const std::string& help) {
    return text(name, meta, help).last_names(Names::output);
  }
  Spec& program(const std::string& name, const std::string& meta, const std::string& help) {
    return text(name, meta, help).last_names(Names::program);
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
         "error. At most 1 MiB is read. A config file is data: it cannot set an option that names a\n"
         "file or a program (FILE, DIR, PATH, DEV options: give those on the command line).\n"
         "files: an output (--csv, --record, --out) naming an input (the config file, --elf, --replay,\n"
         "--serial, the --qemu program), another output or the file standard output or error goes to\n"
         "is an error (exit 2, nothing written); a hard link or a symlink to it counts.\n\n";
    s += kExitCodeTable;
    return s;
  }

 private:
  Spec& last_names(Names n) {
    opts_.back().names = n;
    return *this;
  }
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

}  // namespace attractor::cli
