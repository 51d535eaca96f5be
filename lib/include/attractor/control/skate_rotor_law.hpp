// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "attractor/plants/skate_rotor/law.hpp"  // kept for existing includes
