// SPDX-License-Identifier: Apache-2.0
// One command's options, declared once (option_spec.hpp: name, unit, default, physical range,
// help) and parsed once: CLI11 reads the command line (here), read_config() the key=value file
// with the same rules (config_file.hpp), and Args (args.hpp) hands the system validated values.
// Every failure throws Failure with an exit code of exit_codes.hpp and a message that names the
// option. Host-only.
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

#include "args.hpp"
#include "attractor/version.hpp"
#include "config_file.hpp"
#include "exit_codes.hpp"
#include "file_roles.hpp"
#include "numbers.hpp"
#include "option_spec.hpp"

namespace attractor::cli {

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

// The files of this invocation (file_roles.hpp): every output option compared with the config
// file, the input options, the program run and the other outputs, before anything is opened.
inline void refuse_output_on_input(const Spec& spec, const Args& args, const std::string& config) {
  std::vector<NamedFile> inputs, outputs;
  if (!config.empty()) inputs.push_back({"--config", config});
  for (const auto& o : spec.options()) {
    if (o.kind != Kind::text || !args.given(o.name) || args.raw(o.name).empty()) continue;
    const NamedFile f{"--" + o.name, args.raw(o.name)};
    if (o.names == Names::input) inputs.push_back(f);
    if (o.names == Names::program) inputs.push_back({f.option, program_file(f.path)});
    if (o.names == Names::output) outputs.push_back(f);
  }
  refuse_overlapping_files(inputs, outputs);
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
  std::string config_path;
  if (config->count() > 0) {
    const std::string path = config->results().back();
    read_config(spec, path == kEmpty ? std::string() : path, args, cmdline);
    config_path = path;
  }
  refuse_output_on_input(spec, args, config_path);
  return true;
}

}  // namespace attractor::cli
