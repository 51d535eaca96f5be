// SPDX-License-Identifier: Apache-2.0
// The bench's row families register themselves: a new apps/bench/rows_<family>.cpp (picked up
// by the CMake glob of apps/bench/CMakeLists.txt) defines
//   template <class S> void my_rows(const char* prec) { bench_system(...); bench_stepper(...); }
// and ends with ATTRACTOR_BENCH_ROWS(my_family, my_rows); no other file changes. bench.cpp
// runs every family in float, then every family in double, in the order of their names, so
// that the output does not depend on the link order. Storage is a fixed array filled by the
// registrations' static initializers (the board's startup runs .init_array before main); a
// registration past the capacity is counted and bench.cpp refuses to run (it prints why).
// Bench-only.
#pragma once

#include <cstring>

namespace attractor::bench {

using RowsFn = void (*)(const char* prec);

struct RowFamily {
  const char* name;
  RowsFn float_rows;
  RowsFn double_rows;
};

inline constexpr int kMaxRowFamilies = 16;
inline RowFamily g_row_families[kMaxRowFamilies] = {};
inline int g_row_family_count = 0;
inline int g_row_families_dropped = 0;

// Adds a family, kept sorted by name. Returns false (and counts it) when the registry is full.
inline bool register_rows(const RowFamily& family) {
  if (g_row_family_count == kMaxRowFamilies) {
    ++g_row_families_dropped;
    return false;
  }
  int i = g_row_family_count++;
  for (; i > 0 && std::strcmp(g_row_families[i - 1].name, family.name) > 0; --i)
    g_row_families[i] = g_row_families[i - 1];
  g_row_families[i] = family;
  return true;
}

// Runs every family's rows in one precision ("float" or "double").
inline void run_rows(bool double_precision) {
  for (int i = 0; i < g_row_family_count; ++i) {
    const RowFamily& f = g_row_families[i];
    double_precision ? f.double_rows("double") : f.float_rows("float");
  }
}

}  // namespace attractor::bench

#define ATTRACTOR_BENCH_CAT2(a, b) a##b
#define ATTRACTOR_BENCH_CAT(a, b) ATTRACTOR_BENCH_CAT2(a, b)
// Registers rows<float> and rows<double> under `family` (at namespace scope of the rows file).
// ATTRACTOR_BENCH_FLOAT_ONLY (the test suite's image, apps/bench/CMakeLists.txt): rows<float>
// only, so that rows<double> is never instantiated (bench.cpp then runs no double rows).
#ifdef ATTRACTOR_BENCH_FLOAT_ONLY
#define ATTRACTOR_BENCH_DOUBLE_ROWS(rows) nullptr
#else
#define ATTRACTOR_BENCH_DOUBLE_ROWS(rows) &rows<double>
#endif
#define ATTRACTOR_BENCH_ROWS(family, rows)                                                      \
  [[maybe_unused]] static const bool ATTRACTOR_BENCH_CAT(bench_rows_registered_, __COUNTER__) = \
      ::attractor::bench::register_rows({#family, &rows<float>, ATTRACTOR_BENCH_DOUBLE_ROWS(rows)})
