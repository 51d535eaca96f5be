// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "attractor/plants/spherical_robot/signals.hpp"  // kept for existing includes
