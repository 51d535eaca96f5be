// Option parsing shared by the attractor-sim commands: `--key value` pairs and `--flag`s from
// the command line, merged with a key=value config file (--config FILE, command line wins),
// checked against the command's list of known keys. Host-only (std::string, std::map allowed).
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <map>
#include <string>

namespace attractor::cli {

struct Options {
  std::map<std::string, std::string> kv;
  bool has(const char* k) const { return kv.count(k) != 0; }
  // Lenient: strtod of the value (0 for text that is no number), d when absent.
  double num(const char* k, double d) const {
    auto it = kv.find(k);
    return it == kv.end() ? d : std::strtod(it->second.c_str(), nullptr);
  }
  std::string str(const char* k, const char* d) const {
    auto it = kv.find(k);
    return it == kv.end() ? std::string(d) : it->second;
  }
};

// True when --help or -h is anywhere among the command's arguments.
inline bool wants_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  return false;
}

// argv[0] is the command name; `cmd` prefixes the error messages. Options in `flags` take no
// value (stored as "1"); every key, from the command line or the config file, must be in
// `known`. Config file: key=value lines (key without '--'), blank and '#' lines skipped, lines
// without '=' ignored, spaces around key and value trimmed. Prints the reason on stderr and
// returns false on any error.
inline bool parse_options(const char* cmd, int argc, char** argv, std::initializer_list<const char*> flags,
                          std::initializer_list<const char*> known, Options& o) {
  auto is_flag = [&](const std::string& k) {
    for (const char* f : flags)
      if (k == f) return true;
    return false;
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) {
      std::fprintf(stderr, "%s: unexpected argument '%s'\n", cmd, argv[i]);
      return false;
    }
    a = a.substr(2);
    if (is_flag(a)) {
      o.kv[a] = "1";
    } else if (i + 1 < argc) {
      o.kv[a] = argv[++i];
    } else {
      std::fprintf(stderr, "%s: option --%s needs a value\n", cmd, a.c_str());
      return false;
    }
  }
  if (o.has("config")) {
    std::ifstream in(o.kv["config"]);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read config '%s'\n", cmd, o.kv["config"].c_str());
      return false;
    }
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      const auto eq = line.find('=');
      if (eq == std::string::npos) continue;
      auto trim = [](std::string s) {
        const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
        return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
      };
      const std::string k = trim(line.substr(0, eq)), v = trim(line.substr(eq + 1));
      if (!o.has(k.c_str())) o.kv[k] = v;
    }
  }
  for (const auto& kv : o.kv) {
    bool ok = false;
    for (const char* k : known) ok = ok || kv.first == k;
    if (!ok) {
      std::fprintf(stderr, "%s: unknown option --%s (try --help)\n", cmd, kv.first.c_str());
      return false;
    }
  }
  return true;
}

// Strict number: the whole text must be one strtod number (nan/inf parse; range checks are the
// caller's, so that NaN reaches the validation that names it).
inline bool parse_number(const std::string& s, double& out) {
  const char* c = s.c_str();
  char* end = nullptr;
  out = std::strtod(c, &end);
  return end != c && *end == '\0';
}

// Strict list: exactly n comma-separated numbers, nothing else.
inline bool parse_list(const std::string& s, double* out, int n) {
  const char* c = s.c_str();
  for (int i = 0; i < n; ++i) {
    char* end = nullptr;
    out[i] = std::strtod(c, &end);
    if (end == c) return false;
    if (i + 1 < n) {
      if (*end != ',') return false;
      c = end + 1;
    } else if (*end != '\0') {
      return false;
    }
  }
  return true;
}

// Option k as a strict number (d when absent). Prints "cmd: --k: 'text' is not a number" and
// returns false on bad text.
inline bool number_option(const char* cmd, const Options& o, const char* k, double d, double& out) {
  out = d;
  if (!o.has(k)) return true;
  if (parse_number(o.str(k, ""), out)) return true;
  std::fprintf(stderr, "%s: --%s: '%s' is not a number\n", cmd, k, o.str(k, "").c_str());
  return false;
}

// Option k as exactly n comma-separated numbers (out untouched when absent).
inline bool list_option(const char* cmd, const Options& o, const char* k, double* out, int n) {
  if (!o.has(k)) return true;
  if (parse_list(o.str(k, ""), out, n)) return true;
  std::fprintf(stderr, "%s: --%s needs %d comma-separated numbers, got '%s'\n", cmd, k, n, o.str(k, "").c_str());
  return false;
}

}  // namespace attractor::cli
