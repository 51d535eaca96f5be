// SPDX-License-Identifier: Apache-2.0
// The plants attractor-hil simulates: one registration line per plant (kRegistered below; the
// first is --plant's default). Options, --help and the run read their names, apps and --mismatch
// keys from here; nothing else in the runner names a plant. A plant class has the interface of
// skate_plant.hpp: kName (its --plant name, the plant registry's: lib plants/registry.hpp),
// kHilApp, kPlant, kCriterion, kCsvColumns, kMismatchKeys, kPercentKeys, make(), step(),
// gamma3(), upright(), write_csv().
#pragma once

#include <string>
#include <vector>

#include "robot_plant.hpp"
#include "skate_plant.hpp"
#include "wheel_plant.hpp"

namespace hil_run {

template <class... Plants>
struct PlantList {};

using RegisteredPlants = PlantList<SkatePlant, RobotPlant, WheelPlant>;

// What the options need to know of a plant before one exists.
struct PlantFacts {
  std::string name, hil_app;
  std::vector<std::string> mismatch_keys, percent_keys;
};

template <class... Plants>
std::vector<PlantFacts> facts_of(PlantList<Plants...>) {
  return {PlantFacts{Plants::kName, Plants::kHilApp, Plants::kMismatchKeys, Plants::kPercentKeys}...};
}
inline const std::vector<PlantFacts>& registered_plants() {
  static const std::vector<PlantFacts> all = facts_of(RegisteredPlants{});
  return all;
}

// The type a plant's tag names.
template <class Plant>
struct PlantTag {
  using type = Plant;
};

// run(PlantTag<Plant>{}) for the plant named `name` (a registered one: the option layer refused
// any other; -1 for none).
template <class Run, class... Plants>
int with_plant(const std::string& name, Run&& run, PlantList<Plants...>) {
  int rc = -1;
  (void)((name == Plants::kName ? (rc = run(PlantTag<Plants>{}), true) : false) || ...);
  return rc;
}
template <class Run>
int with_plant(const std::string& name, Run&& run) {
  return with_plant(name, run, RegisteredPlants{});
}

}  // namespace hil_run
