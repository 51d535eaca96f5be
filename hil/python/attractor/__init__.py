# SPDX-License-Identifier: Apache-2.0
"""Attractor from Python (docs/python.md): attractor-sim's systems in process, your own model
from its description (attractor.model), sweeps over parameters and seeds (attractor.sweep).

    import attractor
    run = attractor.simulate("planar-pendulum", method="feedback-rk4", gains="auto", h=1e-3, T=2)
    run.summary["max_abs_dev"], run.t, run.x

Every option of `attractor-sim <system>` is a keyword (docs/tools.md); errors are exceptions
carrying attractor-sim's exit code (attractor.errors). No state is kept between calls; a run
releases the GIL, so threads run systems in parallel."""
from . import _core
from .errors import (AttractorError, BlowupError, InvalidInputError, IOFailure, UnstableError,
                     UsageError)
from .run import Run, command_line, finish

__version__ = _core.version
__all__ = ["systems", "simulate", "Run", "AttractorError", "UsageError", "UnstableError",
           "BlowupError", "InvalidInputError", "IOFailure"]


def systems():
    """{name: one-line summary} of attractor-sim's feedback systems."""
    return dict(_core.systems())


def simulate(system, *, trajectory=True, params=None, **options):
    """Runs `attractor-sim <system>` with these options in process and returns a Run.
    trajectory=False skips the time series (the summary only: faster for sweeps); every=K keeps
    every K-th state."""
    if not isinstance(system, str):
        raise UsageError(f"system must be a name (a str), not {type(system).__name__}")
    words = command_line(options, params)
    return finish(_core.run(system, words, bool(trajectory)), system)
