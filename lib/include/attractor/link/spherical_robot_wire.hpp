// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "attractor/plants/spherical_robot/wire.hpp"  // kept for existing includes
