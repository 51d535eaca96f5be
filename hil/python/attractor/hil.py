# SPDX-License-Identifier: Apache-2.0
"""HIL runs from Python (docs/python.md, "HIL"): the firmware in QEMU, or a board behind a serial
device, against the host plant of attractor-hil (docs/hil.md), its per-tick records back as numpy
arrays and its summary as a dict.

    import attractor.hil
    r = attractor.hil.run(plant="wheel-pendulum", board="mps2-an386", ticks=2000, fault_every=25)
    r.ok, r.summary["min_gamma3"], r.records["torque"]

The runner is a process (QEMU is one anyway): attractor-hil of this build, or $ATTRACTOR_HIL,
or `runner=`. It never outlives the call, nor does its QEMU: every way out of run() (the
runner's end, `timeout`, KeyboardInterrupt, any exception) stops the runner's process group,
and the runner's own rules stop QEMU with it (docs/hil.md). Every option of attractor-hil is a
keyword (`fault_every=25` is `--fault-every 25`); the ones naming files to write or read
instead of the run (`csv`, `record`, `replay`, `config`) are refused: the records come back as
values, written to a temporary folder of the call's own that is deleted when it returns."""
import csv
import os
import re
import signal
import subprocess
import tempfile

import numpy as np

from .errors import AttractorError, HilTimeoutError, UsageError, raise_for
from .run import command_line

# The plants on the link and the firmware app each one runs against (attractor-hil's kHilApp).
PLANTS = {"skate": "skate-rotor-hil", "spherical-robot": "spherical-robot-hil",
          "wheel-pendulum": "wheel-pendulum-hil"}
_REFUSED = {"csv": "the records come back as arrays",
            "record": "a recording is a file of its own: run attractor-hil --record",
            "replay": "a replay is not a run: run attractor-hil --replay",
            "config": "give the options as keywords",
            "help": "see docs/hil.md",
            "elf": "give elf= (or board=) to run()",
            "serial": "give serial= to run()",
            "plant": "give plant= to run()",
            "machine": "give board= to run()"}
_FAILED = 7  # the runner's exit 7: the run happened, the plant fell or a fault was missed
_STOP_GRACE = 5.0  # [s] a deadlock guard: the runner ends on SIGTERM in well under a second


class ImageMissing(AttractorError, FileNotFoundError):
    """The firmware image for this plant and board is not built (or $ATTRACTOR_HIL not found)."""

    code = 2


def firmware_dir():
    """Where the images are looked for: $ATTRACTOR_FIRMWARE_DIR, else this build's default
    (the fw-m4f build folder of the source tree, as the hil.* CTest tests), else None."""
    d = os.environ.get("ATTRACTOR_FIRMWARE_DIR")
    if d:
        return d
    from . import _build_config
    return getattr(_build_config, "FIRMWARE_DIR", None) or None


def image(plant, board="mps2-an386"):
    """The path of `plant`'s HIL image for `board` (fw-m4f: mps2-an386, netduinoplus2); raises
    ImageMissing when it is not built."""
    _check_plant(plant)
    if not isinstance(board, str) or not re.fullmatch(r"[A-Za-z0-9._-]+", board):
        raise UsageError(f"board must be a board name (letters, digits, . _ -), not {board!r}")
    app = PLANTS[plant]
    d = firmware_dir()
    path = os.path.join(d, "apps", app, f"{app}.{board}.elf") if d else None
    if path is None or not os.path.isfile(path):
        raise ImageMissing(f"{path or app + '.' + board + '.elf'} is not built (cmake --preset fw-m4f && "
                           f"cmake --build build/fw-m4f --target {app}.{board}; or set ATTRACTOR_FIRMWARE_DIR)")
    return path


def runner_path(runner=None):
    """attractor-hil: `runner`, else $ATTRACTOR_HIL, else this build's."""
    if runner is None:
        runner = os.environ.get("ATTRACTOR_HIL")
    if runner is None:
        from . import _build_config
        runner = getattr(_build_config, "HIL_RUNNER", None)
    if not runner or not (os.path.isfile(runner) and os.access(runner, os.X_OK)):
        raise ImageMissing(f"attractor-hil not found ({runner or 'no runner in this build'}): give runner= "
                           "or set ATTRACTOR_HIL")
    return runner


def _check_plant(plant):
    if plant not in PLANTS:
        raise UsageError(f"plant {plant!r} is not on the HIL link (one of {', '.join(PLANTS)})")


class HilRun:
    """A finished HIL run: `code` (attractor-hil's exit: 0 upright with every injected fault
    detected, 7 fell or a fault missed), `ok` (code 0), `summary` (dict: ticks, wall_s,
    frames_per_s, min_gamma3, max_tilt, controller, reason, outcome, and `lines`, the runner's
    "hil:" lines), `columns` (the runner's --csv header) and `records` ({column: numpy array},
    one entry per recorded tick; the text columns fault, mode, reason as str arrays)."""

    def __init__(self, code, stdout, columns, rows):
        self.code, self.ok = code, code == 0
        self.summary = summary_of(stdout)
        self.summary["code"] = code
        self.columns = columns
        self.records = {}
        for i, name in enumerate(columns):
            cells = [r[i] if i < len(r) else "" for r in rows]
            try:
                self.records[name] = np.array([float(c) if c != "" else np.nan for c in cells])
            except ValueError:
                self.records[name] = np.array(cells, dtype=str)

    def __repr__(self):
        return f"HilRun(code={self.code}, ticks={self.summary.get('ticks')}, min_gamma3={self.summary.get('min_gamma3')})"


def summary_of(stdout):
    """The runner's "hil:" lines as a dict (the numbers docs/hil.md names; `lines` all of them)."""
    lines = [line[5:] for line in stdout.splitlines() if line.startswith("hil: ")]
    s = {"lines": lines}
    for line in lines:
        m = re.match(r"(\d+) ticks \(([-\d.e+]+) s simulated\) in ([-\d.e+]+) s wall, ([-\d.e+]+) frames/s", line)
        if m:
            s.update(ticks=int(m[1]), simulated_s=float(m[2]), wall_s=float(m[3]), frames_per_s=float(m[4]))
        m = re.match(r"min Gamma3 (\S+) \(max tilt (\S+) rad; upright: (.*)\), controller (\S+) \((.*)\), "
                     r"firmware exit (.*)$", line)
        if m:
            s.update(min_gamma3=float(m[1]), max_tilt=float(m[2]), criterion=m[3], controller=m[4], reason=m[5],
                     firmware_exit=m[6])
    if lines:
        s["outcome"] = lines[-1]
    return s


def _stop(proc):
    """Ends the runner's process group (the runner stops its QEMU on SIGTERM; its QEMU dies with
    it in any case: PR_SET_PDEATHSIG) and reaps the runner."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(_STOP_GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    except ProcessLookupError:
        proc.wait()


def run(plant="skate", board="mps2-an386", *, elf=None, serial=None, runner=None, timeout=None, env=None,
        **options):
    """Runs attractor-hil for `plant` against its firmware in QEMU on `board` (or `elf=`, or a
    board behind `serial=`, with `baud=`) and returns a HilRun. Options are attractor-hil's, as
    keywords. Exit 0 and 7 (the plant fell: an outcome) return; any other exit raises its
    exception (attractor.errors); `timeout` [s] bounds the whole call (HilTimeoutError)."""
    _check_plant(plant)
    for key in options:
        if key.replace("_", "-") in _REFUSED:
            raise UsageError(f"--{key.replace('_', '-')} is not an option of attractor.hil.run: "
                             f"{_REFUSED[key.replace('_', '-')]}")
    if elf is not None and serial is not None:
        raise UsageError("give elf= (QEMU) or serial= (a board), not both")
    if timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0):
        raise UsageError(f"timeout must be a number of seconds > 0, not {timeout!r}")
    words = ["--plant", plant]
    if serial is not None:
        words += ["--serial", str(serial)]
    else:
        words += ["--elf", str(elf) if elf is not None else image(plant, board), "--machine", board]
    words += command_line(options)
    exe = runner_path(runner)
    with tempfile.TemporaryDirectory(prefix="attractor-hil-") as tmp:
        table = os.path.join(tmp, "ticks.csv")
        proc = subprocess.Popen([exe, *words, "--csv", table], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True, env=env)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(proc)
            raise HilTimeoutError(f"attractor-hil ran longer than timeout={timeout} s: stopped") from None
        finally:
            _stop(proc)
        code = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
        if code not in (0, _FAILED):
            message = " ".join(err.strip().splitlines()[-3:]) or f"attractor-hil exited {code}"
            raise_for(code, message)
        columns, rows = [], []
        if os.path.exists(table):
            with open(table, newline="") as f:
                reader = csv.reader(f)
                columns = next(reader, [])
                rows = list(reader)
        return HilRun(code, out, columns, rows)
