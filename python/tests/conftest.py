# SPDX-License-Identifier: Apache-2.0
"""What the suite's tests share: the tree, attractor-sim of the same build (CTest sets
ATTRACTOR_SIM; without it the tests comparing against it skip), the model cache."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
def double_pendulum():
    import attractor.model
    return attractor.model.compile(path=os.path.join(ROOT, "docs", "starter-model", "double_pendulum.toml"))
