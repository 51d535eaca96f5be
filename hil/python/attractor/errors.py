# SPDX-License-Identifier: Apache-2.0
"""The exceptions of the attractor package: one per exit code of attractor-sim and attractor-hil
(hil/cli/exit_codes.hpp, docs/tools.md, docs/hil.md), each carrying that code and the tool's message."""


class AttractorError(Exception):
    """A refused or failed run. `code` is the exit code attractor-sim would return for the same
    options, `message` its message, `summary` the run's summary dict when the run happened
    (a blow-up), else None."""

    code = None

    def __init__(self, message, summary=None):
        super().__init__(message)
        self.message = message
        self.summary = summary


class UsageError(AttractorError, ValueError):
    """Exit 2: unknown system or option, malformed or repeated value, option not for this mode."""

    code = 2


class UnstableError(AttractorError):
    """Exit 3: the step fails check_step, or no stable automatic gains."""

    code = 3


class BlowupError(AttractorError):
    """Exit 4: the run blew up (non-finite state, drift beyond sanity); `summary` says where."""

    code = 4


class InvalidInputError(AttractorError, ValueError):
    """Exit 5: a value outside its physical range, non-finite, off the constraint, absurd step count."""

    code = 5


class IOFailure(AttractorError, OSError):
    """Exit 6: a file could not be read or written (the trajectory, a model's header)."""

    code = 6


class FirmwareSilentError(AttractorError):
    """Exit 8 (attractor-hil): the firmware stopped answering (no frame within --timeout)."""

    code = 8


class LinkError(AttractorError):
    """Exit 9 (attractor-hil): link or QEMU error (a write failed, QEMU did not start or exited early)."""

    code = 9


class ReplayMismatchError(AttractorError):
    """Exit 10 (attractor-hil --replay): a byte differs from the recording."""

    code = 10


class WrongFirmwareError(AttractorError):
    """Exit 11 (attractor-hil): the firmware is for another plant, wire schema or board."""

    code = 11


class HilTimeoutError(AttractorError, TimeoutError):
    """attractor.hil.run's own `timeout` ran out; the runner and its QEMU were stopped."""


BY_CODE = {c.code: c for c in (UsageError, UnstableError, BlowupError, InvalidInputError, IOFailure,
                               FirmwareSilentError, LinkError, ReplayMismatchError, WrongFirmwareError)}


def raise_for(code, message, summary=None):
    """Raises the exception of exit code `code` (0 returns)."""
    if code == 0:
        return
    cls = BY_CODE.get(code)
    if cls is None:
        err = AttractorError(f"exit {code}: {message}", summary)
        err.code = code
        raise err
    raise cls(message, summary)
