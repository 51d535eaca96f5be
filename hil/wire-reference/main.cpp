// SPDX-License-Identifier: Apache-2.0
// attractor-wire-reference: writes docs/wire.md and docs/wire.json from the library's wire
// tables (reference.hpp), or checks that they are current (CTest docs.wire_reference).
//   attractor-wire-reference --write DIR   write DIR/wire.md and DIR/wire.json
//   attractor-wire-reference --check DIR   compare them with what the code says
//   attractor-wire-reference --version     the project version
// Exit codes (hil/cli/exit_codes.hpp): 0 written or current, 1 a file differs (the first
// differing line and the command that regenerates it are printed), 2 usage, 6 I/O error.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "attractor/version.hpp"
#include "exit_codes.hpp"
#include "json_out.hpp"
#include "markdown.hpp"
#include "reference.hpp"

namespace {

namespace code = attractor::cli;

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

// The first line where `want` and `have` differ (1-based), with both lines.
std::string first_difference(const std::string& want, const std::string& have) {
  std::istringstream a(want), b(have);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = bool(std::getline(a, la)), gb = bool(std::getline(b, lb));
    if (!ga && !gb) return "only in the line endings";
    if (!ga || !gb || la != lb)
      return "line " + std::to_string(line) + ":\n  file: " + (gb ? lb : "(end of file)") +
             "\n  code: " + (ga ? la : "(end of file)");
  }
}

int usage() {
  std::fprintf(stderr,
               "usage: attractor-wire-reference --write DIR | --check DIR | --version\n"
               "  DIR/wire.md and DIR/wire.json from the library's wire tables (docs/wire.md)\n"
               "exit codes: 0 written or current, 1 a file differs, 2 usage, 6 I/O error\n");
  return code::exit_usage;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    (void)usage();
    return code::exit_ok;
  }
  if (argc == 2 && std::string(argv[1]) == "--version") {
    std::printf("attractor-wire-reference %s\n", attractor::version);
    return code::exit_ok;
  }
  if (argc != 3) return usage();
  const std::string mode = argv[1], dir = argv[2];
  if ((mode != "--write" && mode != "--check") || dir.empty()) return usage();

  const wire_reference::Reference ref = wire_reference::build();
  for (const std::string& m : ref.missing)
    std::fprintf(stderr, "attractor-wire-reference: no description for '%s' (hil/wire-reference/meanings.hpp)\n",
                 m.c_str());
  const std::pair<std::string, std::string> files[] = {{dir + "/wire.md", wire_reference::markdown(ref)},
                                                       {dir + "/wire.json", wire_reference::json_text(ref)}};
  int rc = code::exit_ok;
  for (const auto& [path, text] : files) {
    if (mode == "--write") {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << text;
      out.close();
      if (!out) {
        std::fprintf(stderr, "attractor-wire-reference: cannot write %s\n", path.c_str());
        return code::exit_io;
      }
      std::printf("wrote %s (%zu bytes)\n", path.c_str(), text.size());
      continue;
    }
    std::string have;
    if (!read_file(path, have)) {
      std::fprintf(stderr, "attractor-wire-reference: cannot read %s\n", path.c_str());
      return code::exit_io;
    }
    if (have != text) {
      std::fprintf(stderr, "attractor-wire-reference: %s is not what the code says, first at %s\n", path.c_str(),
                   first_difference(text, have).c_str());
      rc = code::exit_check_failed;
    }
  }
  if (rc != code::exit_ok)
    std::fprintf(stderr, "regenerate (after building target attractor-wire-reference): %s --write %s\n", argv[0],
                 dir.c_str());
  return rc;
}
