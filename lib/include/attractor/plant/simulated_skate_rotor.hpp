// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "attractor/plants/skate_rotor/simulated.hpp"  // kept for existing includes
