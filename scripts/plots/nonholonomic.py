#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Figures of paper 000 §3 (the nonholonomic systems) from the CSV written by
`attractor-paper nonholonomic --out DIR`.

usage: /usr/bin/python3 scripts/plots/nonholonomic.py [DIR]   (default out/nonholonomic)

Writes into DIR:
  <system>.png   |F_i(x) - F_i(x0)| vs t, log scale, one panel per invariant, one line per
                 method and precision (feedback and plain Euler/RK4, double and float)
  summary.png    the worst invariant deviation and the exact error of every run (summary.csv)
"""
import csv
import os
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from report_dir import report_dir  # noqa: E402  (this folder)

METHODS = ["feedback-euler", "feedback-rk4", "euler", "rk4"]
STYLE = {"double": "-", "float": ":"}
FLOOR = 1e-18  # exact zeros on a log axis


def read_summary(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_series(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None, {}
    t = np.array([float(r["t"]) for r in rows])
    devs = {c[1:]: np.abs(np.array([float(r[c]) for r in rows])) for c in rows[0] if c.startswith("d")}
    return t, devs


def system_figure(d, system):
    series = {}
    for m in METHODS:
        for p in ("double", "float"):
            path = os.path.join(d, f"{system}_{m}_{p}.csv")
            if os.path.isfile(path):
                t, devs = read_series(path)
                if t is not None:
                    series[(m, p)] = (t, devs)
    if not series:
        return
    names = list(next(iter(series.values()))[1].keys())
    cols = min(4, len(names))
    rows = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for i, name in enumerate(names):
        ax = axes[i // cols][i % cols]
        for (m, p), (t, devs) in series.items():
            ax.semilogy(t, np.maximum(devs[name], FLOOR), STYLE[p], label=f"{m} ({p})", linewidth=1)
        ax.set_title(f"|d{name}|")
        ax.set_xlabel("t")
    for j in range(len(names), rows * cols):
        axes[j // cols][j % cols].axis("off")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"{system}: invariant deviations")
    fig.tight_layout()
    fig.savefig(os.path.join(d, f"{system}.png"), dpi=110)
    plt.close(fig)


def summary_figure(d, rows):
    by_system = defaultdict(list)
    for r in rows:
        by_system[r["system"]].append(r)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
    labels = []
    worst, exact = [], []
    for system, rs in by_system.items():
        for r in rs:
            labels.append(f"{system} {r['method']} {r['precision']}")
            worst.append(float(r["max_invariant_error"] or "nan"))
            exact.append(float(r["exact_error"] or "nan"))
    x = np.arange(len(labels))
    for ax, values, title in ((axes[0], worst, "max invariant deviation"), (axes[1], exact, "exact error at t_end")):
        ax.bar(x, np.maximum(np.nan_to_num(values, nan=FLOOR), FLOOR))
        ax.set_yscale("log")
        ax.set_title(title)
        ax.set_xticks(x)
        ax.set_xticklabels(labels, rotation=90, fontsize=5)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "summary.png"), dpi=110)
    plt.close(fig)


def main():
    d = report_dir(__doc__, "nonholonomic.py", "nonholonomic", "out/nonholonomic", ["summary.csv"])
    rows = read_summary(os.path.join(d, "summary.csv"))
    for system in dict.fromkeys(r["system"] for r in rows):
        system_figure(d, system)
    summary_figure(d, rows)
    print(f"figures written to {d}/")


if __name__ == "__main__":
    main()
