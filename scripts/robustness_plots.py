#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The robustness study's plots (docs/img/robustness_*.png): per plant, max tilt against parameter
mismatch, sensor noise, torque saturation and the control rate. Debian's /usr/bin/python3 with
python3-matplotlib."""
import os

from robustness_study import BASE_RATE, MISMATCH, PLANTS, T, TILT_LIMIT, by_plant, kind, sigma, upright


def plots(runs, img, horizon=T):
    """One PNG per plant in img; horizon [s] is the runs' duration, for the title."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(img, exist_ok=True)
    written = []
    plt.rcParams.update({"font.size": 12, "legend.fontsize": 9})
    for plant, rs in by_plant(runs).items():
        # 2 x 2 panels, 1300 x 950 px: readable at the width a Markdown viewer shows.
        fig, axes = plt.subplots(2, 2, figsize=(13, 9.5))
        ax = axes.ravel()
        base = [d for d in rs if kind(d) == ("rate", BASE_RATE)]
        ref = base[0]["max_tilt"] if base else None

        def mark(axis, xs, ds, label, style):
            ys = [min(d["max_tilt"] or 3.2, 3.2) for d in ds]
            axis.plot(xs, ys, style, label=label)
            bad = [(x, y) for x, y, d in zip(xs, ys, ds) if not upright(d)]
            if bad:
                axis.plot(*zip(*bad), "rx", ms=9, mew=2, label="not upright")

        mm = [d for d in rs if kind(d)[0] == "mismatch"]
        keys = PLANTS.get(plant, {}).get("keys") or sorted({kind(d)[1][0] for d in mm})
        width = 0.8 / len(MISMATCH)
        for i, delta in enumerate(MISMATCH):
            xs, ys = [], []
            for j, k in enumerate(keys):
                for d in mm:
                    if kind(d)[1] == (k, delta):
                        xs.append(j + (i - (len(MISMATCH) - 1) / 2) * width)
                        ys.append(min(d["max_tilt"] or 3.2, 3.2))
            ax[0].bar(xs, ys, width, label=f"{delta:+.0%}")
        ax[0].set_xticks(range(len(keys)))
        ax[0].set_xticklabels(keys)
        if ref:
            ax[0].axhline(ref, color="k", lw=0.8, ls="--", label="nominal")
            ax[0].set_ylim(0, max(ref * 1.6, ax[0].get_ylim()[1]))
        ax[0].set_title("(a) parameter mismatch (controller's model off by ±10 %, ±30 %)")
        ax[0].set_xlabel("parameter the plant differs in")
        ax[0].legend(ncol=2, title="plant − model")

        noise = {}
        for d in rs:
            if kind(d)[0] == "noise":
                noise.setdefault(d["noise"], []).append(d)
        ss = sorted(noise)
        worst = [max(noise[s], key=lambda d: d["max_tilt"] or 9) for s in ss]
        mark(ax[1], ss, worst, "max tilt (worst seed)", "o-")
        ax[1].set_xscale("log")
        ax[1].set_title("(b) sensor noise")
        ax[1].set_xlabel("noise SD on every state component the law reads [its unit: rad/s, -]")

        sat = sorted((d for d in rs if kind(d)[0] == "saturation"), key=lambda d: d["umax"])
        if base:
            mark(ax[2], [d["umax"] / base[0]["max_abs_u"] for d in sat], sat, "max tilt", "o-")
        ax[2].set_title("(c) torque saturation")
        ax[2].set_xlabel("torque limit / nominal max |u| [-]")

        rr = sorted((d for d in rs if kind(d)[0] == "rate" and kind(d)[1]), key=lambda d: kind(d)[1])
        mark(ax[3], [kind(d)[1] for d in rr], rr, f"max tilt, σ = {PLANTS.get(plant, {}).get('sigma', 0):g}", "o-")
        ax[3].plot(
            [kind(d)[1] for d in rr], [float("nan") if d["late_max_tilt"] is None else min(d["late_max_tilt"], 3.2) for d in rr],
            "s--",
            label="last quarter (runs that reached it)",
        )
        for v in sorted({sigma(d) for d in rs if kind(d)[0] == "sigma"}):
            ds = sorted((d for d in rs if kind(d)[0] == "sigma" and sigma(d) == v), key=lambda d: d["control_rate"])
            ax[3].plot([d["control_rate"] for d in ds], [min(d["max_tilt"] or 3.2, 3.2) for d in ds], ".:",
                       label=f"σ = {v:g}")
        ax[3].set_xscale("log")
        ax[3].set_title("(d) control rate (ZOH)")
        ax[3].set_xlabel("control rate, zero-order hold [Hz]")
        for a in ax[1:]:
            a.set_yscale("log")
            a.axhline(TILT_LIMIT, color="r", lw=0.8, ls=":", label=f"upright limit {TILT_LIMIT} rad")
            if ref:
                a.axhline(ref, color="k", lw=0.8, ls="--", label="nominal")
            a.legend()
        for a in ax:
            a.set_ylabel("max tilt [rad]")
        fig.suptitle(f"{PLANTS.get(plant, {}).get('title', plant)}: max tilt over {horizon:g} s", fontsize=14)
        fig.tight_layout()
        path = os.path.join(img, f"robustness_{plant.replace('-', '_')}.png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written
