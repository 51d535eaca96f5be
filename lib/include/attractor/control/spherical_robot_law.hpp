// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "attractor/plants/spherical_robot/law.hpp"  // kept for existing includes
