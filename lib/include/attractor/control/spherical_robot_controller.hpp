// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "attractor/plants/spherical_robot/controller.hpp"  // kept for existing includes
