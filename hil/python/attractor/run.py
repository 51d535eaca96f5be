# SPDX-License-Identifier: Apache-2.0
"""One run in process: keyword options as attractor-sim's command line, the outcome as a Run
(summary dict with the keys of --json, trajectory as numpy arrays) or an exception."""
import json
import math
import numbers

import numpy as np

from .errors import UsageError, raise_for

# Options that name files or print: a run from Python has no files and prints nothing.
_REFUSED = {"csv": "the trajectory comes back as arrays (trajectory=True)",
            "json": "the summary always comes back as a dict",
            "config": "give the options as keywords",
            "help": "see attractor.systems() and docs/tools.md"}


def _word(key, value):
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        v = float(value)
        if isinstance(value, numbers.Integral):
            return str(int(value))
        return repr(v) if math.isfinite(v) else ("nan" if v != v else ("inf" if v > 0 else "-inf"))
    try:
        items = list(np.asarray(value, dtype=float).ravel())
    except (TypeError, ValueError):
        raise UsageError(f"--{key}: {value!r} is neither a number, a word nor a list of numbers") from None
    if not items:
        raise UsageError(f"--{key}: empty list")
    return ",".join(_word(key, float(x)) for x in items)


def command_line(options, params=None):
    """The attractor-sim words of keyword options: key -> --key (an underscore becomes a hyphen:
    keep_start -> --keep-start), True -> a flag, False/None -> left out, a list -> 1,2,3.
    `params` holds options passed verbatim (a model parameter whose name has an underscore)."""
    words = []
    merged = [(k.replace("_", "-"), v) for k, v in options.items()]
    merged += list((params or {}).items())
    for key, value in merged:
        if key in _REFUSED:
            raise UsageError(f"--{key} is not an option of a run from Python: {_REFUSED[key]}")
        if value is None or value is False:
            continue
        if value is True:
            words.append(f"--{key}")
        else:
            words += [f"--{key}", _word(key, value)]
    return words


class Run:
    """A finished run: `summary` (dict, the keys of attractor-sim --json), `columns` (t, the state
    names, d<invariant> for the signed deviations), `table` (rows x columns), and `t`, `x` (the
    states), `dev` (the deviations) as views of it; all None with trajectory=False."""

    def __init__(self, summary, columns, table):
        self.summary = summary
        self.columns = list(columns)
        self.table = table
        if table is None:
            self.t = self.x = self.dev = None
            self.states = []
        else:
            n = len(self.columns) - 1 - len((summary or {}).get("invariants0", {}))  # deviations last
            self.states = self.columns[1:1 + n]
            self.t, self.x, self.dev = table[:, 0], table[:, 1:1 + n], table[:, 1 + n:]

    def __repr__(self):
        s = self.summary or {}
        return f"Run({s.get('system')}, {s.get('method')}, {s.get('precision')}, steps={s.get('steps')})"


class ClosedLoopRun:
    """A finished closed-loop run (plant + controller): `summary` (dict, the keys of attractor-sim
    <plant> --json), `columns` (the --csv header: t, the plant's state, u, tilt, ...), `table`
    (rows x columns, one row per kept tick) and `t`; `run["u"]` is a column by its name. The
    trajectory parts are None with trajectory=False."""

    def __init__(self, summary, columns, table):
        self.summary = summary
        self.columns = list(columns)
        self.table = table
        self.t = None if table is None else table[:, 0]

    def __getitem__(self, name):
        if self.table is None:
            raise KeyError(f"{name}: the run kept no trajectory (trajectory=False)")
        if name not in self.columns:
            raise KeyError(f"{name}: not a column ({', '.join(self.columns)})")
        return self.table[:, self.columns.index(name)]

    def __repr__(self):
        s = self.summary or {}
        return (f"ClosedLoopRun({s.get('system')}, {s.get('method')}, {s.get('precision')}, steps={s.get('steps')}, "
                f"fall_time={s.get('fall_time')})")


def finish(result, system, kind=Run, listing="attractor.systems()"):
    """A Run (or `kind`) from the binding's dict, or the exception of its exit code."""
    if result is None:
        raise UsageError(f"unknown system '{system}' ({listing} lists them)")
    summary = json.loads(result["summary"]) if result["summary"] is not None else None
    raise_for(result["code"], f"{system}: {result['message']}", summary)
    return kind(summary, result["columns"], result["trajectory"])
