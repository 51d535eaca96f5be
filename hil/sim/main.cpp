// SPDX-License-Identifier: Apache-2.0
// attractor-sim: simulate any registered mechanical system with any scheme and parameters.
#include "commands.hpp"

int main(int argc, char** argv) {
  return attractor::cli::SimSystems::main(
      "attractor-sim", "Simulate a system; one-line summary (or --json) on stdout, CSV with --csv.", argc, argv);
}
