// SPDX-License-Identifier: Apache-2.0
// The key=value config file (--config): read with the command line's rules into Args, bounded
// in size. Host-only.
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

#include "args.hpp"
#include "exit_codes.hpp"
#include "option_spec.hpp"

namespace attractor::cli {

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
    if (o->kind == Kind::text && o->names != Names::value)
      throw Failure(exit_usage, where + ": --" + k +
                                    " names a file or a program: a config file is data and cannot set it (give it on "
                                    "the command line)");
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

}  // namespace attractor::cli
