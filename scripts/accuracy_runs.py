#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The error half of the accuracy-per-cost chart (docs/BENCHMARKS.md): runs
`attractor-sim planar-pendulum|spherical-pendulum` on the host for every method and step size
the bench image measured (its `method` lines give the grid), in double and in float, over a fixed
simulated time, and writes one CSV row per run with the largest invariant deviations.

usage: accuracy_runs.py SIM BENCH_TXT OUT_CSV [--T SECONDS] [--jobs N]

SIM is the attractor-sim binary, BENCH_TXT the bench image's output (bench-fw-m4f.txt). Feedback
methods use `--gains auto` (docs/auto-gains.md: the gains scale with 1/h so that h * stiffness
stays at 0.1 of the stability limit); feedback-rk4-k10 is feedback RK4 with all gains 10, where
check_step accepts h (row `stopped` = refused_by_check_step otherwise); the other methods have
no gains. The initial conditions
are the simulator's defaults (paper 002 §2.3 and §2.4). A run that the simulator stops (state
non-finite, an invariant off by more than 1 + |F(x0)|, no RATTLE solution) is kept with its
reason in `stopped` and counts as diverged.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import re
import subprocess
import sys

SYSTEMS = {"planar_pendulum": "planar-pendulum", "spherical_pendulum": "spherical-pendulum"}
# Variants run on the host beside the bench's methods: the same step with fixed gains (the cost
# on target does not depend on the gains), to show what the --gains auto rule trades.
VARIANTS = {"feedback-rk4": [("feedback-rk4-k10", "10")]}
METHOD = re.compile(r"^bench \S+ (float|double) method (\S+) (\S+) h (\S+) instructions/step")
FIELDS = ["system", "method", "precision", "h", "T", "steps", "stopped", "max_dH", "max_constraint", "max_invariant",
          "max_df1", "max_df2", "max_dJ"]


def grid(bench_txt):
    """(system, method, h) triples of the bench's method lines, in their order."""
    seen = []
    with open(bench_txt) as f:
        for line in f:
            m = METHOD.match(line)
            if m:
                key = (m.group(2), m.group(3), float(m.group(4)))
                if key not in seen:
                    seen.append(key)
    return seen


def run(sim, system, method, gains, h, precision, T):
    base = method.split("-k")[0]
    cmd = [sim, SYSTEMS[system], "--method", base, "--h", repr(h), "--T", repr(T), "--precision", precision, "--json"]
    if gains:
        cmd += ["--gains", gains]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode == 3:  # fixed gains: check_step refuses h (h * stiffness beyond the stability limit)
        nan = float("nan")
        return {"system": system, "method": method, "precision": precision, "h": h, "T": T, "steps": 0,
                "stopped": "refused_by_check_step", "max_dH": nan, "max_constraint": nan, "max_invariant": nan,
                "max_df1": nan, "max_df2": nan, "max_dJ": ""}
    if p.returncode not in (0, 4):  # 4: the run stopped (diverged); anything else is a tool error
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    j = json.loads(p.stdout)
    dev = j["max_abs_dev"]
    val = lambda k: dev.get(k) if dev.get(k) is not None else float("nan")
    return {
        "system": system, "method": method, "precision": precision, "h": h, "T": T, "steps": j["steps"],
        "stopped": j["stopped"] or "",
        "max_dH": val("H"),
        "max_constraint": max(val("f1"), val("f2")),
        "max_invariant": max(v for v in dev.values() if v is not None),
        "max_df1": val("f1"), "max_df2": val("f2"), "max_dJ": dev.get("J", ""),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sim")
    ap.add_argument("bench_txt")
    ap.add_argument("out_csv")
    ap.add_argument("--T", type=float, default=100.0, help="simulated time per run [s] (default 100, paper 002 §2.3)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    # Every argument checked before a run starts or the CSV is opened (exit 2, argparse's code).
    if not (os.path.isfile(a.sim) and os.access(a.sim, os.X_OK)):
        ap.error(f"SIM {a.sim} is not an executable file")
    if not os.path.isfile(a.bench_txt):
        ap.error(f"BENCH_TXT {a.bench_txt} is not a readable file")
    out_dir = os.path.dirname(os.path.abspath(a.out_csv))
    if not os.path.isdir(out_dir) or os.path.isdir(a.out_csv):
        ap.error(f"OUT_CSV {a.out_csv}: not a file in an existing folder")
    if not (math.isfinite(a.T) and a.T > 0):
        ap.error(f"--T {a.T} is not a positive number of seconds")
    if a.jobs < 1:
        ap.error(f"--jobs {a.jobs} is not >= 1")
    jobs = []
    for s, m, h in grid(a.bench_txt):
        if s not in SYSTEMS:
            continue
        runs = [(m, "auto" if m.startswith("feedback-") else None)] + VARIANTS.get(m, [])
        jobs += [(s, name, gains, h, prec) for name, gains in runs for prec in ("double", "float")]
    if not jobs:
        print(f"accuracy_runs: no method lines in {a.bench_txt}", file=sys.stderr)
        return 1
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        rows = list(ex.map(lambda j: run(a.sim, *j, a.T), jobs))
    with open(a.out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
