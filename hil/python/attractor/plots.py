# SPDX-License-Identifier: Apache-2.0
"""The study's plots on a sweep's table (docs/python.md, "Plots"): the robustness study's figure
(docs/robustness.md: per plant, max tilt against parameter mismatch, sensor noise, torque
saturation and the control rate), drawn by the study's own code (scripts/robustness_plots.py)
from a sweep of the closed loops instead of its run list.

    study = {"study": "wheel", "systems": ["wheel-pendulum"], "fixed": {"T": 5, "zoh": True},
             "grid": {"control_rate": [1000, 250, 100], "noise": [0.001, 0.01]}, "seeds": 3,
             "seed_option": "seed", "outputs": attractor.plots.ROBUSTNESS_OUTPUTS}
    ...
    attractor.plots.robustness("study-dir", "img")     # or a table(): DataFrame or dicts

Each plotted run needs the summary keys of ROBUSTNESS_OUTPUTS among the sweep's outputs (a run
missing one is a UsageError naming it). Debian's python3-matplotlib draws."""
import csv
import importlib.util
import json
import math
import numbers
import os
import sys

from .errors import UsageError

# The summary keys the robustness figure reads (robustness_study.kind, upright, the panels).
ROBUSTNESS_OUTPUTS = ["t_end", "sigma", "control_rate", "zoh", "mismatch", "noise", "umax", "max_abs_u", "max_tilt",
                      "late_max_tilt", "fall_time", "stopped"]


def _scripts_dir():
    from . import _build_config
    d = getattr(_build_config, "SCRIPTS_DIR", None)
    if not d or not os.path.isfile(os.path.join(d, "robustness_plots.py")):
        raise UsageError(f"the study's plot scripts are not there ({d}): a build or install of the package has them")
    return d


def _study_module(name):
    """scripts/<name>.py, loaded once (robustness_plots imports robustness_study by that name)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, os.path.join(_scripts_dir(), name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _value(v):
    """A table cell as the summary held it: "" or NaN -> None, JSON text (numbers, objects,
    lists, true/false) -> its value, True/False -> bool, else the text."""
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, numbers.Real):
        return None if math.isnan(float(v)) else (int(v) if isinstance(v, numbers.Integral) else float(v))
    if not isinstance(v, str):
        return v
    if v == "":
        return None
    if v in ("True", "False"):
        return v == "True"
    try:
        return json.loads(v)
    except ValueError:
        pass
    try:
        return float(v)
    except ValueError:
        return v


def _records(table):
    """A sweep folder (its results.csv), a DataFrame or a list of dicts, as one dict per run;
    an output column beside a grid column of the same name (pandas calls it "name.1") wins."""
    if isinstance(table, (str, os.PathLike)):
        path = os.path.join(table, "results.csv") if os.path.isdir(table) else table
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))  # a repeated name: the later (output) column wins
    elif hasattr(table, "to_dict"):
        rows = table.to_dict("records")
    elif isinstance(table, list) and all(isinstance(r, dict) for r in table):
        rows = table
    else:
        raise UsageError("a sweep's table is its folder, results.csv, a DataFrame or a list of dicts "
                         f"(attractor.sweep.table), not {type(table).__name__}")
    out = []
    for r in rows:
        d = {k: _value(v) for k, v in r.items() if not (isinstance(k, str) and k.endswith(".1") and k[:-2] in r)}
        d.update({k[:-2]: _value(v) for k, v in r.items() if isinstance(k, str) and k.endswith(".1") and k[:-2] in r})
        out.append(d)
    return out


def robustness(table, img):
    """Draws the robustness figure, one PNG per plant (img/robustness_<plant>.png), from a sweep
    of closed loops whose outputs include ROBUSTNESS_OUTPUTS; finished runs only (code 0 or 4).
    Returns the paths written."""
    runs = [d for d in _records(table) if d.get("code") in (0, 4, None)]
    if not runs:
        raise UsageError("the table has no finished runs to plot")
    for d in runs:
        missing = [k for k in ["system"] + ROBUSTNESS_OUTPUTS if k not in d]
        if missing:
            raise UsageError(f"run {d.get('index')}: the table lacks {', '.join(missing)} "
                             "(add attractor.plots.ROBUSTNESS_OUTPUTS to the sweep's outputs)")
        d["mismatch"] = d["mismatch"] or {}
    _study_module("robustness_study")
    horizon = max(d["t_end"] or 0 for d in runs)
    return _study_module("robustness_plots").plots(runs, os.fspath(img), horizon)
