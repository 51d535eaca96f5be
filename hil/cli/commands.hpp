// Sub-command registry for the host tools (attractor-paper, attractor-sim): each system or
// report lives in its own .cpp and registers itself, so a new one is one new file and no
// edit elsewhere. Host-only code (static registration, std::string allowed here).
#pragma once

#include <cstdio>
#include <cstring>

namespace attractor::cli {

struct Command {
  const char* name;     // e.g. "holonomic", "skate"
  const char* summary;  // one line for the tool's --help
  int (*run)(int argc, char** argv);  // argv[0] is the command name
};

// Tag distinguishes the registries of different tools.
template <class Tag>
class Registry {
 public:
  static constexpr int capacity = 32;
  static bool add(const Command& c) {
    if (count() >= capacity) return false;
    table()[count()++] = c;
    return true;
  }
  static int size() { return count(); }
  static const Command& at(int i) { return table()[i]; }
  static const Command* find(const char* name) {
    for (int i = 0; i < count(); ++i)
      if (std::strcmp(table()[i].name, name) == 0) return &table()[i];
    return nullptr;
  }

  // Standard main: `tool <command> [args]`, `tool --help`.
  static int main(const char* tool, const char* about, int argc, char** argv) {
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
      std::printf("usage: %s <command> [options]   (%s <command> --help for its options)\n\n%s\n\ncommands:\n",
                  tool, tool, about);
      for (int i = 0; i < count(); ++i) std::printf("  %-20s %s\n", at(i).name, at(i).summary);
      return argc < 2 ? 2 : 0;
    }
    const Command* c = find(argv[1]);
    if (c == nullptr) {
      std::fprintf(stderr, "%s: unknown command '%s' (try --help)\n", tool, argv[1]);
      return 2;
    }
    return c->run(argc - 1, argv + 1);
  }

 private:
  static Command* table() {
    static Command t[capacity];
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
  static const bool ATTRACTOR_CLI_CAT(registered_, __LINE__) = registry::add({name, summary, fn})
