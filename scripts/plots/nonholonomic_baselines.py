#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Figures of paper 001's discrete nonholonomic integrators against the feedback integrator, from
the CSV written by `attractor-paper nonholonomic-baselines --out DIR`.

usage: /usr/bin/python3 scripts/plots/nonholonomic_baselines.py [DIR]   (default out/nonholonomic-baselines)

Writes into DIR:
  convergence.png  the configuration error against the reference vs h, log-log, one panel per
                   example, one line per method and precision (summary.csv)
  long_runs.png    the configuration error and the energy deviation vs t over the long runs
                   (10^4 steps), one row per example, one line per method, double solid and
                   float dotted (long_runs.csv and the long_*.csv series; the full run only;
                   the series hold 10 digits, so errors below 1e-10 of the state are the CSV's
                   rounding: long_runs.csv has the exact numbers)
"""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from report_dir import report_dir  # noqa: E402  (this folder)

METHODS = ["feedback-euler", "feedback-rk4", "rk4", "nh-verlet", "dla"]
STYLE = {"double": "-", "float": ":"}
FLOOR = 1e-18  # exact zeros on a log axis
# Per example (as kRows in hil/paper/nonholonomic_baselines.cpp): the leading states that are
# the configuration, and the series column of the energy (or, driven, the energy balance).
CONFIG = {"particle": 3, "snakeboard": 5, "sleigh": 6, "oscillator": 3, "knife-edge": 3}
ENERGY = {"particle": "dH", "snakeboard": "dE", "sleigh": "dh", "oscillator": "dH", "knife-edge": "dH"}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def value(text):
    return float(text) if text else np.nan


def convergence_figure(d, rows):
    examples = list(dict.fromkeys(r["example"] for r in rows))
    fig, axes = plt.subplots(1, len(examples), figsize=(4 * len(examples), 3.8), squeeze=False)
    for ax, ex in zip(axes[0], examples):
        for i, m in enumerate(METHODS):
            for p in ("double", "float"):
                rs = [r for r in rows if r["example"] == ex and r["method"] == m and r["precision"] == p
                      and r.get("start") != "pair"]  # a pair row repeats its consistent start's run
                h = np.array([float(r["h"]) for r in rs])
                e = np.array([value(r["reference_error"]) for r in rs])
                if np.isfinite(e).any():
                    ax.loglog(h, np.maximum(e, FLOOR), STYLE[p], marker="o", ms=3, color=f"C{i}",
                              label=f"{m} ({p})")
        ax.set_title(ex)
        ax.set_xlabel("h")
    axes[0][0].set_ylabel("configuration error at T")
    axes[0][0].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "convergence.png"), dpi=110)
    plt.close(fig)


def series(path):
    """t, the states and the deviation columns of one long run's series."""
    if not os.path.isfile(path):
        return None
    rows = read_csv(path)
    if not rows:
        return None
    return {c: np.array([float(r[c]) for r in rows]) for c in rows[0]}


def long_runs_figure(d, rows):
    examples = list(dict.fromkeys(r["example"] for r in rows))
    fig, axes = plt.subplots(len(examples), 2, figsize=(11, 2.8 * len(examples)), squeeze=False)
    for k, ex in enumerate(examples):
        ref = series(os.path.join(d, f"long_{ex}_reference.csv"))
        states = [c for c in ref if c != "t" and not c.startswith("d")][: CONFIG[ex]] if ref else []
        for i, m in enumerate(METHODS):
            for p in ("double", "float"):
                s = series(os.path.join(d, f"long_{ex}_{m}_{p}.csv"))
                if s is None:
                    continue
                n = min(len(s["t"]), len(ref["t"])) if ref else 0
                if n:
                    err = np.sqrt(sum((s[c][:n] - ref[c][:n]) ** 2 for c in states))
                    axes[k][0].semilogy(s["t"][:n], np.maximum(err, FLOOR), STYLE[p], color=f"C{i}",
                                        label=f"{m} ({p})", linewidth=1)
                if ENERGY[ex] in s:
                    axes[k][1].semilogy(s["t"], np.maximum(np.abs(s[ENERGY[ex]]), FLOOR), STYLE[p],
                                        color=f"C{i}", linewidth=1)
        axes[k][0].set_title(f"{ex}: configuration error")
        axes[k][1].set_title(f"{ex}: |{ENERGY[ex][1:]}(x) - {ENERGY[ex][1:]}(x0)|")
    for ax in axes[-1]:
        ax.set_xlabel("t")
    axes[0][0].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "long_runs.png"), dpi=110)
    plt.close(fig)


def main():
    d = report_dir(__doc__, "nonholonomic_baselines.py", "nonholonomic-baselines", "out/nonholonomic-baselines",
                   ["summary.csv"])
    convergence_figure(d, read_csv(os.path.join(d, "summary.csv")))
    written = "convergence.png"
    if os.path.isfile(os.path.join(d, "long_runs.csv")):
        long_runs_figure(d, read_csv(os.path.join(d, "long_runs.csv")))
        written += ", long_runs.png"
    print(f"figures written to {d}/: {written}")


if __name__ == "__main__":
    main()
