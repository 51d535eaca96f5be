// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "attractor/plants/skate_rotor/wire.hpp"  // kept for existing includes
