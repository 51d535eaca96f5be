// SPDX-License-Identifier: Apache-2.0
// Sub-command registry for the host tools (attractor-paper, attractor-sim): each system or
// report lives in its own .cpp and registers itself once (ATTRACTOR_REGISTER_COMMAND with its
// option Spec and its run function), so a new one is one new file and no edit elsewhere.
// The registry's main turns a Failure into "<tool> <command>: message" and its exit code, and
// fails with exit_io when stdout could not be written. Host-only.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "exit_codes.hpp"
#include "spec.hpp"
#include "standard_streams.hpp"

namespace attractor::cli {

struct Command {
  const char* name;                   // e.g. "holonomic", "skate"
  const char* summary;                // one line for the tool's --help
  int (*run)(int argc, char** argv);  // argv[0] is the command name
};

// A command = its option table + what it does with validated Args.
template <Spec (*MakeSpec)(), int (*Run)(const Args&)>
int spec_command(int argc, char** argv) {
  static const Spec spec = MakeSpec();
  Args args(spec);
  if (!parse_args(spec, argc, argv, args)) return exit_ok;  // --help printed
  return Run(args);
}

// Tag distinguishes the registries of different tools; Item is what a name stands for (a
// Command; main() is for Command registries only).
template <class Tag, class Item = Command>
class Registry {
 public:
  static constexpr int capacity = 32;
  // A full table or a name registered twice is a build mistake: it stops the tool at start-up,
  // loudly, rather than dropping a command.
  static bool add(const Item& c) {
    if (count() >= capacity || find(c.name) != nullptr) {
      std::fprintf(stderr, "command registry: cannot register '%s': %s\n", c.name,
                   count() >= capacity ? "the table is full (raise Registry::capacity)" : "the name is taken");
      std::abort();
    }
    table()[count()++] = c;
    return true;
  }
  static int size() { return count(); }
  static const Item& at(int i) { return table()[i]; }
  static const Item* find(const char* name) {
    for (int i = 0; i < count(); ++i)
      if (std::strcmp(table()[i].name, name) == 0) return &table()[i];
    return nullptr;
  }

  // Standard main: `tool <command> [args]`, `tool --help`, `tool --version`.
  static int main(const char* tool, const char* about, int argc, char** argv) {
    if (!guard_standard_streams()) {
      std::fprintf(stderr, "%s: %s\n", tool, kStdoutClosed);
      return exit_io;
    }
    int rc = exit_usage;
    if (argc >= 2 && std::strcmp(argv[1], "--version") == 0) {
      std::printf("%s %s\n", tool, attractor::version);
      rc = exit_ok;
    } else if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
      std::printf("usage: %s <command> [options]   (%s <command> --help for its options)\n\n%s\n\ncommands:\n", tool,
                  tool, about);
      for (int i = 0; i < count(); ++i) std::printf("  %-20s %s\n", at(i).name, at(i).summary);
      std::printf("\n%s", kExitCodeTable);
      rc = argc < 2 ? exit_usage : exit_ok;
    } else if (const Command* c = find(argv[1])) {
      try {
        rc = c->run(argc - 1, argv + 1);
      } catch (const Failure& f) {
        std::fprintf(stderr, "%s %s: %s\n", tool, c->name, f.what());
        rc = f.code;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "%s %s: %s\n", tool, c->name, e.what());
        rc = exit_io;
      }
    } else {
      std::fprintf(stderr, "%s: unknown command '%s' (try --help)\n", tool, argv[1]);
      rc = exit_usage;
    }
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::fprintf(stderr, "%s: error writing standard output\n", tool);
      if (rc == exit_ok) rc = exit_io;
    }
    return rc;
  }

 private:
  static Item* table() {
    static Item t[capacity];
    return t;
  }
  static int& count() {
    static int n = 0;
    return n;
  }
};

struct PaperTag {};
struct SimTag {};
using PaperReports = Registry<PaperTag>;
using SimSystems = Registry<SimTag>;

}  // namespace attractor::cli

#define ATTRACTOR_CLI_CAT2(a, b) a##b
#define ATTRACTOR_CLI_CAT(a, b) ATTRACTOR_CLI_CAT2(a, b)
// ATTRACTOR_REGISTER(attractor::cli::PaperReports, "holonomic", "summary", run_fn);
#define ATTRACTOR_REGISTER(registry, name, summary, fn) \
  static const bool ATTRACTOR_CLI_CAT(registered_, __COUNTER__) = registry::add({name, summary, fn})
// ATTRACTOR_REGISTER_COMMAND(attractor::cli::SimSystems, "skate", "summary", skate_spec, skate_run);
#define ATTRACTOR_REGISTER_COMMAND(registry, name, summary, spec_fn, run_fn) \
  ATTRACTOR_REGISTER(registry, name, summary, (attractor::cli::spec_command<spec_fn, run_fn>))
