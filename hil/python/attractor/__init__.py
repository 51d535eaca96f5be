# SPDX-License-Identifier: Apache-2.0
"""Attractor from Python (docs/python.md): attractor-sim's systems and closed loops in process,
your own model from its description (attractor.model), sweeps over parameters and seeds
(attractor.sweep), HIL runs in QEMU (attractor.hil) and the study's plots (attractor.plots).

    import attractor
    run = attractor.simulate("planar-pendulum", method="feedback-rk4", gains="auto", h=1e-3, T=2)
    run.summary["max_abs_dev"], run.t, run.x
    loop = attractor.closed_loop("wheel-pendulum", control_rate=500, noise=1e-3, mismatch={"m_w": 0.1})
    loop.summary["max_tilt"], loop.t, loop["u"]

Every option of `attractor-sim <system>` is a keyword (docs/tools.md); errors are exceptions
carrying attractor-sim's exit code (attractor.errors). No state is kept between calls; a run
releases the GIL, so threads run systems in parallel."""
from . import _core
from .errors import (AttractorError, BlowupError, FirmwareSilentError, HilTimeoutError, InvalidInputError,
                     IOFailure, LinkError, ReplayMismatchError, UnstableError, UsageError, WrongFirmwareError)
from .run import ClosedLoopRun, Run, command_line, finish

__version__ = _core.version
__all__ = ["systems", "closed_loops", "simulate", "closed_loop", "Run", "ClosedLoopRun", "AttractorError", "UsageError", "UnstableError",
           "BlowupError", "InvalidInputError", "IOFailure", "FirmwareSilentError", "LinkError",
           "ReplayMismatchError", "WrongFirmwareError", "HilTimeoutError"]


def systems():
    """{name: one-line summary} of attractor-sim's feedback systems."""
    return dict(_core.systems())


def closed_loops():
    """{name: one-line summary} of attractor-sim's closed loops (plant + controller)."""
    return dict(_core.closed_loops())


def simulate(system, *, trajectory=True, params=None, **options):
    """Runs `attractor-sim <system>` with these options in process and returns a Run (a
    ClosedLoopRun for a closed loop: closed_loop). trajectory=False skips the time series (the
    summary only: faster for sweeps); every=K keeps every K-th state."""
    if not isinstance(system, str):
        raise UsageError(f"system must be a name (a str), not {type(system).__name__}")
    if system in _CLOSED_LOOPS:
        return closed_loop(system, trajectory=trajectory, params=params, **options)
    words = command_line(options, params)
    return finish(_core.run(system, words, bool(trajectory)), system)


def closed_loop(plant, *, trajectory=True, params=None, mismatch=None, **options):
    """Runs `attractor-sim <plant>` (skate, spherical-robot, wheel-pendulum: attractor.closed_loops())
    with these options in process and returns a ClosedLoopRun: the summary of --json and the
    per-tick --csv table. `mismatch` is the option's text ("m=0.1,I1=-0.1") or a dict
    {"m": 0.1, "I1": -0.1}: the plant's parameter is the controller model's times (1 + value)."""
    if not isinstance(plant, str):
        raise UsageError(f"plant must be a name (a str), not {type(plant).__name__}")
    if isinstance(mismatch, dict):
        if not mismatch:
            raise UsageError("--mismatch: empty dict (leave it out for an exact model)")
        mismatch = ",".join(f"{k}={command_line({'mismatch': v})[1]}" for k, v in mismatch.items())
    words = command_line(dict(options, mismatch=mismatch), params)
    return finish(_core.closed_loop(plant, words, bool(trajectory)), plant, ClosedLoopRun,
                  "attractor.closed_loops()")


_CLOSED_LOOPS = frozenset(closed_loops())
