// SPDX-License-Identifier: Apache-2.0
// attractor-paper: reproduces the papers' numerical experiments; prints tables, writes CSV.
#include "commands.hpp"

int main(int argc, char** argv) {
  return attractor::cli::PaperReports::main(
      "attractor-paper", "Reproduce the papers' numerical experiments (tables on stdout, CSV in --out).", argc, argv);
}
