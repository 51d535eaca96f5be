# SPDX-License-Identifier: Apache-2.0
"""What the suite's tests share: attractor-sim of the same build (CTest sets ATTRACTOR_SIM;
without it the tests comparing against it skip) and one model of the suite's own, described here
as a user would in a notebook and compiled once (the model cache: ATTRACTOR_MODEL_CACHE)."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# A bead on a vertical circle: one holonomic constraint, three invariant rows (circle, its rate, H).
BEAD = """
[model]
name = "Bead"
summary = "A bead on a vertical circle of radius r."
source = "the pytest suite of the attractor package"
coordinates = ["x", "y"]
kinetic = "mass/2 * (xdot^2 + ydot^2)"
potential = "mass * gravity * y"

[parameters]
mass = { unit = "kg", default = 1.0, range = "(0, inf)", help = "m" }
gravity = { unit = "m/s^2", default = 9.81, range = "[0, inf)", help = "g, along -y" }
radius = { unit = "m", default = 1.0, range = "(0, inf)", help = "r" }

[[holonomic]]
name = "circle"
expression = "x^2 + y^2"
value = "radius^2"

[case]
name = "released on the horizontal"
state = ["radius", 0, 0, 0]
h = 1e-3
T = 2
gains = [2, 2, 2]
method = "feedback-rk4"
"""


@pytest.fixture(scope="session")
def sim():
    path = os.environ.get("ATTRACTOR_SIM")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("ATTRACTOR_SIM (attractor-sim of this build) not set")
    # attractor-sim has its own sanitizer runtime linked in: not the one preloaded into python3.
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}

    def run(*words):
        return subprocess.run([path, *words], capture_output=True, text=True, env=env)

    return run


@pytest.fixture(scope="session")
def bead():
    import attractor.model
    return attractor.model.compile(BEAD)
