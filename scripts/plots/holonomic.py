#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Figures 1-6 of paper 002 (Chang, Perlmutter, Vankerschaver) from the CSV written by
`attractor-paper holonomic --out DIR`.

usage: /usr/bin/python3 scripts/plots/holonomic.py [DIR]   (default out/holonomic)

Writes into DIR:
  fig1_positions.png   q(t) for feedback-Euler, RATTLE, Lie-Trotter, Strang (double)
  fig2_df1.png .. fig5_dJ.png   |df1|, |df2|, |dH|, |dJ| vs t, log scale, all six methods,
                       one panel per precision (double, float)
  fig6_convergence.png global error after one period vs step size (left) and vs force
                       evaluations (right), planar pendulum
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from report_dir import report_dir  # noqa: E402  (this folder)

METHODS = ["feedback-euler", "feedback-rk4", "rattle", "lie-trotter", "strang", "rk4"]
LABELS = {
    "feedback-euler": "feedback (Euler)",
    "feedback-rk4": "feedback (RK4)",
    "rattle": "RATTLE",
    "lie-trotter": "Lie-Trotter",
    "strang": "Strang",
    "rk4": "RK4, no feedback",
}
FLOOR = 1e-18  # exact zeros on a log axis


def read_series(path):
    data = defaultdict(lambda: defaultdict(list))  # (precision, method) -> column -> values
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["precision"], row["method"])
            for col in ("t", "q1", "q2", "q3", "df1", "df2", "dH", "dJ"):
                data[key][col].append(float(row[col]))
    return {k: {c: np.array(v) for c, v in cols.items()} for k, cols in data.items()}


def fig1(series, out):
    plt.rcParams.update({"font.size": 11, "legend.fontsize": 9})
    methods = ["feedback-euler", "rattle", "lie-trotter", "strang"]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True, sharey=True)
    for ax, m in zip(axes.flat, methods):
        s = series.get(("double", m))
        if s is None:
            continue
        for c, style in (("q1", "-"), ("q2", "--"), ("q3", ":")):
            ax.plot(s["t"], s[c], style, lw=0.8, label=c)
        ax.set_title(LABELS[m])
        ax.legend(loc="upper right")
    for ax in axes[-1]:
        ax.set_xlabel("t [s]")
    for ax in axes[:, 0]:
        ax.set_ylabel("q [m] (l = 1 m)")
    fig.suptitle("Fig. 1: spherical pendulum q(t), h = 1e-3 (double)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig1_positions.png"), dpi=120)
    plt.close(fig)


def fig_deviation(series, out, col, number, title):
    precisions = [p for p in ("double", "float") if any(k[0] == p for k in series)]
    fig, axes = plt.subplots(1, len(precisions), figsize=(6 * len(precisions), 4.5), squeeze=False)
    for ax, prec in zip(axes[0], precisions):
        for m in METHODS:
            s = series.get((prec, m))
            if s is None:
                continue
            ax.semilogy(s["t"], np.maximum(s[col], FLOOR), lw=0.8, label=LABELS[m])
        ax.set_title(prec)
        ax.set_xlabel("t [s]")
        ax.set_ylabel(title)
        ax.grid(True, which="major", alpha=0.3)
    axes[0][0].legend(loc="lower right")
    fig.suptitle(f"Fig. {number}: {title}, spherical pendulum, h = 1e-3, gains 50")
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"fig{number}_{col}.png"), dpi=120)
    plt.close(fig)


def fig6(path, out):
    rows = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            err = float(row["error"])
            if np.isfinite(err):
                rows[row["method"]].append((float(row["h"]), float(row["force_cost"]), err))
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for m in ("feedback-euler", "feedback-rk4", "rattle"):
        if m not in rows:
            continue
        h, cost, err = np.array(rows[m]).T
        left.loglog(h, err, "o-", ms=3, label=LABELS[m])
        right.loglog(cost, err, "o-", ms=3, label=LABELS[m])
    left.set_xlabel("step size h [s]")
    right.set_xlabel("force evaluations per period (feedback field = 4, grad H = 1)")
    for ax in (left, right):
        ax.set_ylabel("global error after one period [m, kg m/s]")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend()
    fig.suptitle("Fig. 6: planar pendulum, error after one period T = 4K(1/sqrt 2)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig6_convergence.png"), dpi=120)
    plt.close(fig)


def main():
    out = report_dir(__doc__, "holonomic.py", "holonomic", "out/holonomic",
                     ("spherical_timeseries.csv", "planar_convergence.csv"))
    series = read_series(os.path.join(out, "spherical_timeseries.csv"))
    fig1(series, out)
    for number, (col, title) in enumerate(
        (("df1", "|Δf1| = | |q|² − 1 | [m²]"), ("df2", "|Δf2| = |q·p| [kg m²/s]"), ("dH", "|ΔH| [J]"),
         ("dJ", "|ΔJ| [kg m²/s]")),
        start=2,
    ):
        fig_deviation(series, out, col, number, title)
    fig6(os.path.join(out, "planar_convergence.csv"), out)
    print(f"figures written to {out}/fig1..fig6*.png")


if __name__ == "__main__":
    main()
